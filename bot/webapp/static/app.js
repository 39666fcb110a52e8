// The Mini App's page: the table and the hand as the bot draws them, the move buttons, and every change as it
// happens. Everything it shows comes from the bot (/app/api/...), with Telegram's launch data on every call.
"use strict";

const tg = window.Telegram && window.Telegram.WebApp;
const initData = (tg && tg.initData) || "";
const params = new URLSearchParams(location.search);
const startParam = (tg && tg.initDataUnsafe && tg.initDataUnsafe.start_param) || "";
const gameId = params.get("game") || startParam.replace(/^g/, "");
const lang = (tg && tg.initDataUnsafe && tg.initDataUnsafe.user && tg.initDataUnsafe.user.language_code) || "";
let words = { offline: "…", "no-game": "…", launch: "…" };  // the bot's texts, asked for first (/app/api/words)
let shown = -1;
let busy = false;

const $ = (id) => document.getElementById(id);
const note = (text) => { $("note").textContent = text || ""; };

// Telegram HTML as the chat shows it, and nothing more: these tags, links to https only, text for the rest.
const ALLOWED = new Set(["B", "STRONG", "I", "EM", "U", "INS", "S", "STRIKE", "DEL", "CODE", "PRE", "BLOCKQUOTE"]);
function copyInto(target, node) {
  for (const child of node.childNodes) {
    if (child.nodeType === Node.TEXT_NODE) {
      target.appendChild(document.createTextNode(child.textContent));
    } else if (child.nodeType === Node.ELEMENT_NODE) {
      let made = null;
      if (ALLOWED.has(child.tagName)) {
        made = document.createElement(child.tagName.toLowerCase());
      } else if (child.tagName === "A" && /^https:\/\//.test(child.getAttribute("href") || "")) {
        made = document.createElement("a");
        made.href = child.getAttribute("href");
        made.rel = "noopener";
        made.target = "_blank";
      }
      if (made) { copyInto(made, child); target.appendChild(made); } else { copyInto(target, child); }
    }
  }
}
function fill(section, panel) {
  section.replaceChildren();
  section.hidden = !panel;
  if (panel) copyInto(section, new DOMParser().parseFromString(panel.html, "text/html").body);
}

function render(answer) {
  const screen = answer && answer.screen;
  if (!screen) { fill($("table"), null); fill($("hand"), null); $("buttons").replaceChildren(); return; }
  if (screen.version < shown) return;  // an older screen arriving after a newer one
  shown = screen.version;
  fill($("table"), screen.table);
  fill($("hand"), screen.hand);
  const rows = screen.hand ? screen.hand.rows : [];
  const buttons = $("buttons");
  buttons.replaceChildren();
  for (const row of rows) {
    const line = document.createElement("div");
    line.className = "row";
    for (const b of row) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = b.text;
      button.dataset.press = b.data;
      button.addEventListener("click", () => press(b.data));
      line.appendChild(button);
    }
    buttons.appendChild(line);
  }
}

async function call(path, options) {
  const headers = Object.assign({ Authorization: "tma " + initData }, (options && options.headers) || {});
  const response = await fetch(path, Object.assign({}, options, { headers }));
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {  // body.text: the bot's own words for the person (the database's trouble), if any
    throw Object.assign(new Error(body.error || String(response.status)), { status: response.status, text: body.text });
  }
  return body;
}

async function press(data) {
  if (busy) return;
  busy = true;
  for (const b of document.querySelectorAll("#buttons button")) b.disabled = true;
  try {
    const answer = await call("/app/api/press?game=" + encodeURIComponent(gameId), {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ data }),
    });
    note(answer.refused || "");
    render(answer.screen);
    if (tg && tg.HapticFeedback) tg.HapticFeedback.selectionChanged();
  } catch (error) {
    note(error.text || (error.status === 401 ? words.launch : words.offline));
  } finally {
    busy = false;
    for (const b of document.querySelectorAll("#buttons button")) b.disabled = false;
  }
}

function follow() {
  const stream = new EventSource("/app/api/events?game=" + encodeURIComponent(gameId) + "&auth=" + encodeURIComponent(initData));
  stream.onmessage = (event) => { note(""); render(JSON.parse(event.data)); };
  stream.onerror = () => note(words.offline);  // the browser connects again by itself, and is sent the game anew
}

async function start() {
  if (tg) { tg.ready(); tg.expand(); }
  try { words = await (await fetch("/app/api/words?lang=" + encodeURIComponent(lang))).json(); } catch (error) { /* kept */ }
  if (!initData) { note(words.launch); return; }
  try {
    render(await call("/app/api/screen?game=" + encodeURIComponent(gameId)));
  } catch (error) {
    note(error.text || (error.status === 401 ? words.launch : error.status === 404 ? words["no-game"] : words.offline));
    if (error.status === 401 || error.status === 404) return;
  }
  follow();
}

start();
