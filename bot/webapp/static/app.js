// The Mini App's page: the table and the hand as the bot draws them, the move buttons, every change as it happens,
// the turn's time counting down, and the looks the chat offers (a hint, the review, the score sheet). Everything
// it shows comes from the bot (/app/api/...), with Telegram's launch data on every call.
"use strict";

const tg = window.Telegram && window.Telegram.WebApp;
const initData = (tg && tg.initData) || "";
const params = new URLSearchParams(location.search);
const startParam = (tg && tg.initDataUnsafe && tg.initDataUnsafe.start_param) || "";
const gameId = params.get("game") || startParam.replace(/^g/, "");
const lang = (tg && tg.initDataUnsafe && tg.initDataUnsafe.user && tg.initDataUnsafe.user.language_code) || "";
let words = { offline: "…", "no-game": "…", launch: "…", "time-left": "⏱", wait: "…" };  // asked for first
let shown = -1;
let busy = false;
let deadline = null;  // performance.now() when the turn's time runs out (null: no limit shown)
let extras = {};  // the looks offered now, by name: { look, text, version }
let opened = null;  // the look shown now, as it was offered, or null
let asking = 0;  // the last look asked for (an answer to an older one is dropped)
let sheetUrl = "";  // the score sheet's picture (a blob: URL)

const $ = (id) => document.getElementById(id);
const note = (text) => { $("note").textContent = text || ""; };

// Text as the page shows it: the red suits' cards («10♦», «К♥») in red, as on a card.
const RED_CARD = /((?:10|[2-9AJQKТВДК])?[♥♦])/;
const CARD = /^(?:10|[2-9AJQKТВДК])[♠♣♥♦]…?$/;
function suited(text) {
  const made = document.createDocumentFragment();
  text.split(RED_CARD).forEach((part, i) => {
    if (!part) return;
    if (i % 2) {
      const span = document.createElement("span");
      span.className = "red";
      span.textContent = part;
      made.appendChild(span);
    } else {
      made.appendChild(document.createTextNode(part));
    }
  });
  return made;
}

// Telegram HTML as the chat shows it, and nothing more: these tags, links to https only, text for the rest.
const ALLOWED = new Set(["B", "STRONG", "I", "EM", "U", "INS", "S", "STRIKE", "DEL", "CODE", "PRE", "BLOCKQUOTE"]);
function copyInto(target, node) {
  for (const child of node.childNodes) {
    if (child.nodeType === Node.TEXT_NODE) {
      target.appendChild(suited(child.textContent));
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
  if (!screen) {
    fill($("table"), null); fill($("hand"), null); $("buttons").replaceChildren(); offer([]); countDown(null);
    return;
  }
  if (screen.version < shown) return;  // an older screen arriving after a newer one
  shown = screen.version;
  document.body.dataset.version = String(screen.version);  // what is shown, for a look from outside (tests)
  document.body.dataset.over = String(screen.over);
  fill($("table"), screen.table);
  fill($("hand"), screen.hand);
  countDown(screen.time_left);
  offer(screen.extras || []);
  const rows = screen.hand ? screen.hand.rows : [];
  const buttons = $("buttons");
  buttons.replaceChildren();
  for (const row of rows) {
    const line = document.createElement("div");
    line.className = "row";
    for (const b of row) {
      const button = document.createElement("button");
      button.type = "button";
      button.appendChild(suited(b.text));
      if (CARD.test(b.text)) button.className = "card";  // a card of the hand, drawn as one
      button.dataset.press = b.data;
      button.addEventListener("click", () => press(b.data));
      line.appendChild(button);
    }
    buttons.appendChild(line);
  }
}

// The turn's time left, counted down here between two screens (the bot plays for the person when it runs out).
function countDown(left) {
  deadline = typeof left === "number" ? performance.now() + left * 1000 : null;
  tick();
}
function tick() {
  const timer = $("timer");
  timer.hidden = deadline === null;
  if (deadline === null) return;
  const left = Math.max(0, Math.ceil((deadline - performance.now()) / 1000));
  timer.textContent = words["time-left"] + " " + Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
  timer.classList.toggle("low", left <= 10);
}

// The looks offered, as buttons; one shown at a time. A hint is for one turn: it goes when the turn does. A new
// score sheet (a deal ended) replaces the one shown.
function offer(list) {
  extras = {};
  const box = $("extras");
  box.replaceChildren();
  for (const e of list) {
    extras[e.look] = e;
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = e.text;
    button.dataset.look = e.look;
    button.setAttribute("aria-pressed", String(!!opened && opened.look === e.look));
    button.addEventListener("click", () => look(e.look));
    box.appendChild(button);
  }
  const now = opened && extras[opened.look];
  if (opened && (!now || now.version !== opened.version)) {
    if (now && now.look === "sheet") look("sheet", true); else close();
  }
}

function close() {
  opened = null;
  asking++;
  for (const id of ["hint", "review"]) fill($(id), null);
  $("sheet").hidden = true;
  for (const b of $("extras").children) b.setAttribute("aria-pressed", "false");
}

async function look(name, again) {
  if (opened && opened.look === name && !again) { close(); return; }
  const e = extras[name];
  if (!e) return;
  close();
  opened = e;
  const asked = asking;
  for (const b of $("extras").children) b.setAttribute("aria-pressed", String(b.dataset.look === name));
  note(words.wait);
  const game = "?game=" + encodeURIComponent(gameId);
  try {
    if (name === "sheet") {
      const theme = tg && tg.colorScheme === "dark" ? "dark" : "light";
      const picture = await (await ask("/app/api/sheet" + game + "&v=" + e.version + "&theme=" + theme)).blob();
      if (asked !== asking) return;
      if (sheetUrl) URL.revokeObjectURL(sheetUrl);
      sheetUrl = URL.createObjectURL(picture);
      Object.assign($("sheet"), { src: sheetUrl, alt: e.text, hidden: false });
    } else {
      const answer = await call("/app/api/" + name + game + (name === "hint" ? "&version=" + e.version : ""));
      if (asked !== asking) return;
      if (answer.refused) { close(); note(answer.refused); return; }
      if (name === "hint") { $("hint").textContent = answer.text; $("hint").hidden = false; }  // plain text
      else fill($("review"), answer);  // Telegram HTML, through the same whitelist
    }
    note("");
  } catch (error) {
    if (asked !== asking) return;
    close();
    note(error.text || (error.status === 401 ? words.launch : words.offline));
  }
}

async function ask(path, options) {
  const headers = Object.assign({ Authorization: "tma " + initData }, (options && options.headers) || {});
  const response = await fetch(path, Object.assign({}, options, { headers }));
  if (!response.ok) {  // body.text: the bot's own words for the person (the database's trouble), if any
    const body = await response.json().catch(() => ({}));
    throw Object.assign(new Error(body.error || String(response.status)), { status: response.status, text: body.text });
  }
  return response;
}

async function call(path, options) {
  return (await ask(path, options)).json();
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
  setInterval(tick, 250);
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
