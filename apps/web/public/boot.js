/*
 * AquaPilot boot (issue 12 "A phone opens the app fast"; apps/web/vite-prerender.ts). A classic script in the head of
 * index.html (the CSP allows no inline script): when the page opens on #/login, it picks the prerendered copy of the
 * Login screen in the stored language, so it paints before the app's JavaScript has run. Without a stored language
 * the app's default (zh-Hans) is shown, except inside a native shell, whose own language may make the app reload.
 * Anything unexpected shows nothing: the app renders as without it.
 */
(() => {
  try {
    const languages = ["zh-Hans", "en", "es", "ru", "fr"];
    const path = (window.location.hash.replace(/^#/, "").split("?")[0] || "/").replace(/\/+$/, "").toLowerCase();
    if (path !== "/login") return;
    const stored = window.localStorage.getItem("lang");
    let lang = "zh-Hans";
    if (stored !== null) lang = JSON.parse(stored);
    else if (window.AquaPilotNative) return;
    if (languages.indexOf(lang) < 0) return;
    document.documentElement.setAttribute("data-prerender", lang);
    document.documentElement.lang = lang;
  } catch {
    // no storage, bad JSON: no prerendered screen
  }
})();
