/*
 * AquaPilot boot (issue 12 "A phone opens the app fast"; apps/web/vite-prerender.ts, docs/decisions.md 34). A classic
 * script at the top of index.html's head (the CSP allows no inline script) that
 * - picks the prerendered copy of the Login screen in the stored language when the page opens on #/login, so it paints
 *   before the app's code has run (without a stored language the app's default, zh-Hans, except inside a native
 *   shell, whose own language may make the app reload);
 * - starts the app's code (its entry and the modules it needs at once, named on this script's data-entry and
 *   data-preload): after the copy's first contentful paint when a copy is showing, so the HTML and CSS do not share
 *   the network with it, at once otherwise; with a copy showing, that screen's own chunks too (data-screen). The
 *   entry runs once the document is parsed, as a module script in the page would.
 * - with a session stored and the page opening on Home, preloads Home's own chunks and its texts in the stored
 *   language (data-home, data-home-texts) with the entry, so they load beside it instead of after it has run.
 * Anything unexpected about the copy shows no copy; the app starts either way.
 */
(() => {
  const script = document.currentScript || document.querySelector("script[data-entry]");
  /** The route path the hash names, lower case, without trailing slashes ("" for Home's "#/"). */
  const routePath = () =>
    (window.location.hash.replace(/^#/, "").split("?")[0] || "/").replace(/\/+$/, "").toLowerCase();
  /** The language of the copy to show, or null for none. */
  const pick = () => {
    const languages = ["zh-Hans", "en", "es", "ru", "fr"];
    const path = routePath();
    if (path !== "/login") return null;
    const stored = window.localStorage.getItem("lang");
    if (stored === null) return window.AquaPilotNative ? null : "zh-Hans";
    const lang = JSON.parse(stored);
    return languages.indexOf(lang) >= 0 ? lang : null;
  };
  let shown = false;
  try {
    const lang = pick();
    if (lang) {
      document.documentElement.setAttribute("data-prerender", lang);
      document.documentElement.lang = lang;
      shown = true;
    }
  } catch {
    // no storage, bad JSON: no copy
  }

  /** The longest the app's code waits for the copy's first paint, ms. */
  const AFTER_PAINT_LIMIT_MS = 1000;
  const entry = script?.dataset.entry;
  if (!entry) return;
  const add = (element) => document.head.appendChild(element);
  /**
   * Home's chunks and its texts' in the language the app will start in, when a session is stored and the page opens
   * on Home ("/", "/index", "/index/home": the app's first-screen rule); else none.
   */
  const homeChunks = () => {
    try {
      const path = routePath();
      if (path !== "" && path !== "/index" && path !== "/index/home") return [];
      if (!window.localStorage.getItem("token")) return [];
      const stored = window.localStorage.getItem("lang");
      const lang = stored === null ? (window.AquaPilotNative ? null : "zh-Hans") : JSON.parse(stored);
      const texts = {};
      for (const part of (script.dataset.homeTexts || "").split(" ")) {
        const at = part.indexOf("=");
        if (at > 0) texts[part.slice(0, at)] = part.slice(at + 1).split(",");
      }
      return (script.dataset.home || "").split(" ").concat((lang && texts[lang]) || []);
    } catch {
      return []; // no storage, bad JSON: the app loads them itself
    }
  };
  /** Preloads the entry and its imports, and with `screen` the prerendered screen's own chunks too. */
  const preload = (screen) => {
    // One insertion for all the links (one at a time costs a style pass each on a slow phone).
    const links = document.createDocumentFragment();
    const hrefs = (script.dataset.preload || "").split(" ").concat(entry);
    for (const href of screen ? hrefs.concat((script.dataset.screen || "").split(" ")) : hrefs.concat(homeChunks())) {
      if (!href) continue;
      const link = document.createElement("link");
      link.rel = "modulepreload";
      link.crossOrigin = "";
      link.href = href;
      links.appendChild(link);
    }
    add(links);
  };
  const run = () => {
    const module = document.createElement("script");
    module.type = "module";
    module.crossOrigin = "";
    module.src = entry;
    add(module);
  };
  const whenParsed = (f) => {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", f, { once: true });
    else f();
  };
  /**
   * Calls `f` in a task of its own once the copy has painted: on the browser's first-contentful-paint entry, which
   * arrives after that paint (the app's downloads then never count towards it), else after one frame; at the latest
   * after AFTER_PAINT_LIMIT_MS (a hidden tab paints nothing).
   */
  const afterPaint = (f) => {
    let started = false;
    const start = () => {
      if (started) return;
      started = true;
      setTimeout(f, 0);
    };
    setTimeout(start, AFTER_PAINT_LIMIT_MS);
    const Observer = window.PerformanceObserver;
    if (Observer && (Observer.supportedEntryTypes || []).includes("paint")) {
      const observer = new Observer((list) => {
        if (list.getEntriesByName("first-contentful-paint").length === 0) return;
        observer.disconnect();
        start();
      });
      observer.observe({ type: "paint", buffered: true });
    } else {
      requestAnimationFrame(start);
    }
  };
  if (shown) {
    afterPaint(() => {
      preload(true);
      whenParsed(run);
    });
  } else {
    preload(false);
    whenParsed(run);
  }
})();
