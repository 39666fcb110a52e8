// The browser tests' stand-in for the Telegram client's side of a Mini App. In Telegram, the client opens the
// page with the launch parameters in the URL's fragment (#tgWebAppData=...&tgWebAppThemeParams=...), and Telegram's
// own script (https://telegram.org/js/telegram-web-app.js, which index.html loads) reads them into
// window.Telegram.WebApp and sets the theme's colours as --tg-theme-* CSS variables. The test machine cannot reach
// telegram.org, so the tests serve this file at that address instead: it does the same for what our page uses,
// and nothing more. Written for the tests, from Telegram's documentation of the Mini App's launch parameters.
"use strict";
(() => {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const initData = fragment.get("tgWebAppData") || "";
  const fields = new URLSearchParams(initData);
  const themeParams = JSON.parse(fragment.get("tgWebAppThemeParams") || "{}");
  for (const [key, value] of Object.entries(themeParams)) {
    document.documentElement.style.setProperty("--tg-theme-" + key.replace(/_/g, "-"), value);
  }
  function dark(colour) {  // as Telegram's script tells the scheme: by the background's brightness
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));
    return 0.299 * r + 0.587 * g + 0.114 * b < 120;
  }
  const calls = [];  // what the page asked of the client, for the tests to read
  window.Telegram = {
    WebApp: {
      initData,
      initDataUnsafe: {
        user: fields.has("user") ? JSON.parse(fields.get("user")) : undefined,
        start_param: fields.get("start_param") || undefined,
      },
      themeParams,
      colorScheme: dark(themeParams.bg_color || "#ffffff") ? "dark" : "light",
      platform: fragment.get("tgWebAppPlatform") || "unknown",
      version: fragment.get("tgWebAppVersion") || "6.0",
      calls,
      ready() { calls.push("ready"); },
      expand() { calls.push("expand"); },
      HapticFeedback: { selectionChanged() { calls.push("haptic"); } },
    },
  };
})();
