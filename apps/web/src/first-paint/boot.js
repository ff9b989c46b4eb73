/*
 * AquaPilot boot (apps/web/src/first-paint/build/prerender-plugin.ts), so a phone paints a first screen before the
 * app's code has run. A classic script written inline at the top of index.html's head (the CSP allows it by its SHA-256
 * hash, so no request holds the parser before the app's code is asked for) that
 * - picks the prerendered copy of the Login screen in the stored language when the page opens on #/login, so it paints
 *   before the app's code has run (without a stored language the app's default, zh-Hans, except inside a native
 *   shell, whose own language may make the app reload);
 * - starts the app's code (its entry and the modules it needs at once, named on this script's data-entry and
 *   data-preload): after the copy's first contentful paint when a copy is showing, so the HTML and CSS do not share
 *   the network with it, at once otherwise; with a copy showing, that screen's own chunks too (data-screen). The
 *   entry runs once the document is parsed, as a module script in the page would.
 * - with a session stored and the page opening on Home, preloads Home's own chunks and its texts in the stored
 *   language (data-home, data-home-texts) with the entry, so they load beside it instead of after it has run; on
 *   /Device the same with the Device screen's chunks, stylesheets and texts (data-device, data-device-texts);
 * - with a session stored and the page opening on /Device, sends the Device screen's first calls (data-device-calls)
 *   at once, beside the app's code, with the headers the app's client will send, and leaves their answers on
 *   window.__aquapilotEarly for the app to take instead of asking again (src/first-paint/early-answers.ts);
 * - with a session stored and the page opening on Home, paints the last Home the owner saw (localStorage
 *   homeSnapshot, written by the app: apps/web/src/first-paint/snapshot.ts) when it was taken today in the language the
 *   app will start in: built node by node (createElement, setAttribute, the CSSOM: never HTML, so the CSP holds and
 *   nothing in it runs) into #root, which stays inert and aria-busy until the app's first render replaces it; the app's
 *   code then starts after that paint, as with the Login copy.
 * - with a session stored and the page opening on /Device for a device (its params name one), paints the prerendered
 *   frame of the Device screen (the screen as it shows while its device loads: features/device DeviceFrame) in the
 *   start language once the Device screen's stylesheets are in, and starts the app's code after that paint, as with the
 *   Login copy; the first calls go out at once, before the paint.
 * - once a copy, frame or snapshot has painted, gives the page's history entry the position the router would give it
 *   at its start (`history.state.idx`), in the wait for the app's code rather than in its first render.
 * Anything unexpected about the copy or the snapshot shows none; the app starts either way.
 */
(() => {
  const script = document.currentScript || document.querySelector("script[data-entry]");
  /** The route path the hash names, lower case, without trailing slashes ("" for Home's "#/"). */
  const routePath = () =>
    (window.location.hash.replace(/^#/, "").split("?")[0] || "/").replace(/\/+$/, "").toLowerCase();
  /** The language of the copy to show, or null for none. */
  const pick = () => {
    const languages = ["zh-Hans", "en", "es", "ru", "fr"];
    if (routePath() !== "/login") return null;
    const lang = startLanguage();
    return languages.indexOf(lang) >= 0 ? lang : null;
  };
  /** Whether a session is stored and the page opens on Home ("/", "/index", "/index/home": the app's rule). */
  const signedInOnHome = () => {
    const path = routePath();
    if (path !== "" && path !== "/index" && path !== "/index/home") return false;
    return window.localStorage.getItem("token") !== null;
  };
  /** Whether a session is stored and the page opens on the Device screen ("/Device", any case: the router's rule). */
  const signedInOnDevice = () => routePath() === "/device" && window.localStorage.getItem("token") !== null;
  /** The language the app will start in: the stored one, else zh-Hans in a browser, unknown (null) in a shell. */
  const startLanguage = () => {
    const stored = window.localStorage.getItem("lang");
    return stored === null ? (window.AquaPilotNative ? null : "zh-Hans") : JSON.parse(stored);
  };
  /** YYYY-MM-DD of today in the phone's time zone (first-paint/snapshot.ts localDay). */
  const today = () => {
    const now = new Date();
    const pad = (n) => String(n).padStart(2, "0");
    return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  };
  /** The /Device route's params (`#/Device?params={…}`), {} when there are none. */
  const routeParams = () => {
    const hash = window.location.hash;
    const search = hash.indexOf("?") >= 0 ? hash.slice(hash.indexOf("?")) : "";
    return JSON.parse(new URLSearchParams(search).get("params") || "{}") || {};
  };
  /** The device id the /Device route's params name, "" when none (the screen then loads nothing). */
  const routeDeviceId = () => {
    const deviceId = routeParams().deviceId;
    return typeof deviceId === "string" ? deviceId : "";
  };
  /**
   * Home's stored snapshot to paint on a signed-in start on Home when it is format 1, taken today, in the start
   * language; else null.
   */
  const snapshotToPaint = () => {
    if (!signedInOnHome()) return null;
    const lang = startLanguage();
    const snapshot = JSON.parse(window.localStorage.getItem("homeSnapshot") || "null");
    if (snapshot?.v !== 1 || !lang || snapshot.lang !== lang) return null;
    if (snapshot.day !== today() || !Array.isArray(snapshot.nodes)) return null;
    return snapshot;
  };
  const SVG = "http://www.w3.org/2000/svg";
  /** Elements a snapshot never brings (first-paint/snapshot.ts leaves them out too). */
  const SKIPPED = /^(script|style|link|iframe|object|embed|template|noscript)$/i;
  /** Builds snapshot `nodes` into `parent`: text, or [name, [attribute, value…], [property, value, priority…], children]. */
  const build = (parent, nodes) => {
    for (const node of nodes) {
      if (typeof node === "string") {
        parent.appendChild(document.createTextNode(node));
        continue;
      }
      const [name, attributes, style, children] = Array.isArray(node) ? node : [];
      if (typeof name !== "string" || ![attributes, style, children].every(Array.isArray)) {
        throw new Error("not a snapshot node");
      }
      if (SKIPPED.test(name)) continue;
      const svg = name === "svg" || (parent.namespaceURI === SVG && parent.localName !== "foreignObject");
      const element = svg ? document.createElementNS(SVG, name) : document.createElement(name);
      for (let i = 0; i + 1 < attributes.length; i += 2) {
        const [attribute, value] = [String(attributes[i]), String(attributes[i + 1])];
        if (/^on/i.test(attribute) || /^\s*javascript:/i.test(value)) continue;
        element.setAttribute(attribute, value);
      }
      for (let i = 0; i + 2 < style.length; i += 3) element.style.setProperty(style[i], style[i + 1], style[i + 2]);
      build(element, children);
      parent.appendChild(element);
    }
  };
  /** The longest a snapshot waits for its stylesheets before the app starts without it, ms. */
  const SNAPSHOT_CSS_LIMIT_MS = 3000;
  /**
   * Links stylesheets the page lacks (the build's own only: /assets/<name>.css); resolves true once all have loaded,
   * false when one is not the build's, fails or has not loaded within SNAPSHOT_CSS_LIMIT_MS.
   */
  const loadSheets = (hrefs) =>
    new Promise((resolve) => {
      let waiting = 0;
      let settled = false;
      const settle = (ok) => {
        if (settled) return;
        settled = true;
        resolve(ok);
      };
      for (const href of hrefs) {
        if (typeof href !== "string" || !/^\/assets\/[\w.-]+\.css$/.test(href)) return settle(false);
        if (document.querySelector(`link[rel="stylesheet"][href="${href}"]`)) continue;
        waiting++;
        const link = document.createElement("link");
        link.rel = "stylesheet";
        // As index.html preloads it and as Vite links a chunk's CSS: one request serves all three.
        link.crossOrigin = "";
        link.href = href;
        link.onload = () => {
          if (--waiting === 0) settle(true);
        };
        link.onerror = () => settle(false);
        add(link);
      }
      if (waiting === 0) settle(true);
      setTimeout(() => settle(false), SNAPSHOT_CSS_LIMIT_MS);
    });
  /** Paints Home's `snapshot` into #root (inert, aria-busy) and marks the page; false when it cannot be built. */
  const paintSnapshot = (snapshot) => {
    const root = document.getElementById("root");
    if (!root) return false;
    const nodes = document.createDocumentFragment();
    try {
      build(nodes, snapshot.nodes);
    } catch {
      return false; // a node of another shape: no snapshot
    }
    root.replaceChildren(nodes);
    root.inert = true;
    root.setAttribute("aria-busy", "true");
    document.documentElement.setAttribute("data-snapshot", "home");
    document.documentElement.lang = snapshot.lang;
    return true;
  };

  /**
   * Shows the prerendered `screen` ("login", "device") in `lang`: styles.css shows the copy the page's data-prerender
   * and data-prerender-screen name.
   */
  const showPrerendered = (screen, lang) => {
    document.documentElement.setAttribute("data-prerender", lang);
    document.documentElement.setAttribute("data-prerender-screen", screen);
    document.documentElement.lang = lang;
  };

  /** The Device screen's stylesheets (those of data-device). */
  const deviceSheets = () => (script?.dataset.device || "").split(" ").filter((href) => /\.css$/.test(href));

  let shown = false;
  let toPaint = null;
  /** The language of the Device screen's frame to paint (a signed-in start on /Device), else null. */
  let frameLang = null;
  try {
    const lang = pick();
    if (lang) {
      showPrerendered("login", lang);
      shown = true;
    } else {
      toPaint = snapshotToPaint();
      if (signedInOnDevice() && deviceSheets().length > 0 && routeDeviceId()) frameLang = startLanguage();
    }
  } catch {
    // no storage, bad JSON: no copy, no snapshot
  }

  /** The longest the app's code waits for the copy's first paint, ms. */
  const AFTER_PAINT_LIMIT_MS = 1000;
  const entry = script?.dataset.entry;
  if (!entry) return;
  const add = (element) => document.head.appendChild(element);
  /**
   * The opening screen's chunks (and stylesheets) and its texts' in the language the app will start in, when a
   * session is stored and the page opens on Home ("/", "/index", "/index/home": the app's first-screen rule) or on
   * /Device; else none.
   */
  const screenChunks = () => {
    try {
      const [files, textList] = signedInOnHome()
        ? [script.dataset.home, script.dataset.homeTexts]
        : signedInOnDevice()
          ? [script.dataset.device, script.dataset.deviceTexts]
          : [null, null];
      if (files == null) return [];
      const lang = startLanguage();
      const texts = {};
      for (const part of (textList || "").split(" ")) {
        const at = part.indexOf("=");
        if (at > 0) texts[part.slice(0, at)] = part.slice(at + 1).split(",");
      }
      return files.split(" ").concat((lang && texts[lang]) || []);
    } catch {
      return []; // no storage, bad JSON: the app loads them itself
    }
  };
  /**
   * On a signed-in page opening on /Device, outside a native shell (whose tenant only the app knows), with a stored
   * token not about to expire (data-token-margin, ms: the app would refresh it first) and a device id in the route's
   * params: sends each call of data-device-calls ("METHOD url|…", the query values `__deviceId__` and `__familyId__`
   * filled from the params, form-encoded as the app's client encodes a query; a call naming a missing one is skipped)
   * with the app's headers — Accept, the start language, the phone's time zone (data-time-zone-header), the token, a
   * fresh Idempotency-Key on a POST — and puts { method, url, headers, at, response } on window.__aquapilotEarly; a
   * failed request answers null.
   */
  const sendEarlyCalls = () => {
    try {
      const calls = (script.dataset.deviceCalls || "").split("|").filter(Boolean);
      if (calls.length === 0 || !signedInOnDevice() || window.AquaPilotNative || !window.fetch) return;
      const token = JSON.parse(window.localStorage.getItem("token"));
      const margin = Number(script.dataset.tokenMargin);
      if (typeof token?.accessToken !== "string" || !(token.expiresAt - Date.now() > margin)) return;
      const lang = startLanguage();
      const params = routeParams();
      if (!lang || typeof params.deviceId !== "string" || !params.deviceId) return;
      let zone = null;
      try {
        zone = window.Temporal?.Now?.timeZoneId?.() || Intl.DateTimeFormat().resolvedOptions().timeZone || null;
      } catch {
        zone = null;
      }
      const early = [];
      for (const call of calls) {
        const at = call.indexOf(" ");
        const method = call.slice(0, at);
        let missing = false;
        const url = call.slice(at + 1).replace(/__(deviceId|familyId)__/g, (_, name) => {
          const value = params[name];
          if (typeof value !== "string" || !value) missing = true;
          return new URLSearchParams([["v", String(value)]]).toString().slice(2);
        });
        if (at <= 0 || missing) continue;
        const headers = { Accept: "application/json", "Accept-Language": lang };
        if (zone && script.dataset.timeZoneHeader) headers[script.dataset.timeZoneHeader] = zone;
        headers.Authorization = `Bearer ${token.accessToken}`;
        if (method === "POST") headers["Idempotency-Key"] = crypto.randomUUID();
        const response = fetch(url, { method, headers }).catch(() => null);
        early.push({ method, url, headers, at: Date.now(), response });
      }
      window.__aquapilotEarly = early;
    } catch {
      // no storage, bad JSON, no crypto: the app sends its calls itself
    }
  };
  /**
   * Preloads the entry and its imports, and with `screen` the prerendered screen's own chunks too, else the opening
   * screen's ({@link screenChunks}); a stylesheet among them is fetched, not applied (the app links it with its chunk).
   */
  const preload = (screen, from = 0, count = Infinity) => {
    // One insertion for all the links (one at a time costs a style pass each on a slow phone).
    const links = document.createDocumentFragment();
    const hrefs = (script.dataset.preload || "").split(" ").concat(entry);
    const all = (screen ? hrefs.concat((script.dataset.screen || "").split(" ")) : hrefs.concat(screenChunks())).filter(
      Boolean,
    );
    for (const href of all.slice(from, from + count)) {
      const link = document.createElement("link");
      if (/\.css$/.test(href)) {
        link.rel = "preload";
        link.as = "style";
      } else {
        link.rel = "modulepreload";
      }
      link.crossOrigin = "";
      link.href = href;
      links.appendChild(link);
    }
    add(links);
    return all.length;
  };
  /** Links per task when the page is already painted: each link starts a download, about a millisecond on a slow phone. */
  const PRELOAD_GROUP = 4;
  /**
   * {@link preload} of the opening screen's files PRELOAD_GROUP links per task, the first group beside the app's entry
   * ({@link run}): after the snapshot has painted, every task counts towards the time the page does not answer a tap
   * (Lighthouse's total blocking time), and a dozen links with the entry were one task of 40-50 ms on a slow phone.
   */
  const preloadInGroups = (from) => {
    const total = preload(false, from, PRELOAD_GROUP);
    if (from + PRELOAD_GROUP < total) setTimeout(() => preloadInGroups(from + PRELOAD_GROUP), 0);
  };
  /**
   * Gives the page's history entry the router's position (`history.state.idx` 0, what React Router's hash history
   * writes when it starts on an entry without one), in a task of its own once a copy, frame or snapshot has painted:
   * that one `replaceState` was 7-14 ms of the app's first render on this machine, right after its code arrived (it
   * delayed the Device screen's time to interactive); here it falls in the wait for that code. An entry that has a
   * position (a reload after the app ran) keeps it.
   */
  const markHistoryEntry = () => {
    try {
      const state = window.history.state;
      if (state && state.idx != null) return;
      window.history.replaceState(Object.assign({}, state, { idx: 0 }), "");
    } catch {
      // no history API, or a state that cannot be copied: the router writes its own
    }
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
  /**
   * Links the stylesheets of `wanted` the page lacks (beside its own, data-css) now; once they are in and the page is
   * parsed, calls `paint` (true when it painted a snapshot or frame into the page) and starts the app's code after that
   * paint, the opening screen's preloads a few per task; at once, with every preload, when nothing was painted.
   */
  const paintThenStart = (wanted, paint) => {
    const own = (script.dataset.css || "").split(" ");
    const sheets = loadSheets(wanted.filter((href) => href && own.indexOf(href) < 0));
    whenParsed(() => {
      sheets.then((loaded) => {
        if (loaded && paint()) {
          afterPaint(() => {
            run();
            preloadInGroups(0);
            setTimeout(markHistoryEntry, 0);
          });
        } else {
          preload(false);
          run();
        }
      });
    });
  };
  if (shown) {
    afterPaint(() => {
      preload(true);
      whenParsed(run);
      setTimeout(markHistoryEntry, 0);
    });
  } else if (toPaint) {
    // Home's stylesheets (data-home-css, which the page preloads) before its snapshot.
    paintThenStart((script.dataset.homeCss || "").split(" "), () => paintSnapshot(toPaint));
  } else if (frameLang) {
    // The Device screen's frame: its first calls go out first. A page without the frame in that language (an older
    // index.html) starts the app as it would without one.
    sendEarlyCalls();
    paintThenStart(deviceSheets(), () => {
      if (!document.querySelector(`.prerender[data-screen="device"][lang="${frameLang}"]`)) return false;
      showPrerendered("device", frameLang);
      return true;
    });
  } else {
    preload(false);
    sendEarlyCalls();
    whenParsed(run);
  }
})();
