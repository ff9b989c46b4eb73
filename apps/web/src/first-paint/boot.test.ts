import { readFileSync } from "node:fs";
import path from "node:path";
import { DEFAULT_LANGUAGE, LANGUAGES } from "@aquapilot/contract/wire";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { localDay, saveSnapshot } from "./snapshot.ts";

/**
 * One frame of the fake clock and the task after it: the fake requestAnimationFrame runs its callbacks at 16 ms, and
 * what they schedule with a zero delay runs once the clock has passed that moment.
 */
const FRAME_MS = 17;

/** Fake timers and frames (Vitest's default leaves requestAnimationFrame real), so boot.js's waits run on demand. */
function useFakeClock(): void {
  vi.useFakeTimers({
    toFake: [
      "setTimeout",
      "clearTimeout",
      "setInterval",
      "clearInterval",
      "Date",
      "requestAnimationFrame",
      "cancelAnimationFrame",
    ],
  });
}

/** apps/web/src/first-paint/boot.js, the inline script in index.html's head that picks the prerendered Login copy. */
const BOOT = readFileSync(path.join(import.meta.dirname, "boot.js"), "utf8");

function boot(hash: string, storage: Record<string, string>, native = false): string | null {
  window.location.hash = hash;
  localStorage.clear();
  for (const [k, v] of Object.entries(storage)) localStorage.setItem(k, v);
  if (native) (window as unknown as { AquaPilotNative: object }).AquaPilotNative = {};
  document.documentElement.removeAttribute("data-prerender");
  document.documentElement.removeAttribute("data-prerender-screen");
  new Function(BOOT)();
  return document.documentElement.getAttribute("data-prerender");
}

describe("boot.js: which prerendered Login copy shows before the app runs", () => {
  afterEach(() => {
    vi.useRealTimers();
    delete (window as unknown as { AquaPilotNative?: object }).AquaPilotNative;
    localStorage.clear();
    window.location.hash = "";
  });

  it("on #/login, the stored language's copy; the html element's lang follows", () => {
    for (const lang of LANGUAGES) {
      expect(boot("#/login", { lang: JSON.stringify(lang) })).toBe(lang);
      expect(document.documentElement.lang).toBe(lang);
    }
    expect(boot("#/Login/?x=1", { lang: '"fr"' })).toBe("fr");
  });

  it("with no stored language, the app's default in a browser, nothing in a native shell (its language may reload)", () => {
    expect(boot("#/login", {})).toBe(DEFAULT_LANGUAGE);
    expect(boot("#/login", {}, true)).toBeNull();
  });

  it("nothing on any other route, or with a stored language the app does not have or cannot read", () => {
    expect(boot("#/index/home", { lang: '"en"' })).toBeNull();
    expect(boot("", { lang: '"en"' })).toBeNull();
    expect(boot("#/Register", { lang: '"en"' })).toBeNull();
    expect(boot("#/login", { lang: '"de"' })).toBeNull();
    expect(boot("#/login", { lang: "{bad" })).toBeNull();
  });

  it("starts the app's code at once when no copy shows, and only after the first paint when one does", async () => {
    // What boot.js adds to the head, recorded instead of added (happy-dom loads no script file).
    let added: Element[] = [];
    const append = vi.spyOn(document.head, "appendChild").mockImplementation((node) => {
      // A fragment brings its children (boot.js adds the preload links in one go).
      const nodes = node instanceof DocumentFragment ? [...node.children] : [node as unknown as Element];
      added.push(...nodes);
      return node;
    });
    const started = () => ({
      preloads: added.filter((e) => e.getAttribute("rel") === "modulepreload").map((e) => e.getAttribute("href")),
      entry: added.find((e) => e.getAttribute("type") === "module")?.getAttribute("src") ?? null,
    });
    useFakeClock();
    const tag = document.createElement("script");
    tag.dataset.entry = "/assets/index-1.js";
    tag.dataset.preload = "/assets/react-1.js /assets/i18n-1.js";
    tag.dataset.screen = "/assets/login-1.js";
    document.body.append(tag);
    try {
      boot("#/index/home", { lang: '"en"' });
      expect(started()).toEqual({
        preloads: ["/assets/react-1.js", "/assets/i18n-1.js", "/assets/index-1.js"],
        entry: "/assets/index-1.js",
      });
      added = [];

      boot("#/login", { lang: '"en"' });
      expect(started()).toEqual({ preloads: [], entry: null });
      // No paint entries here (happy-dom): the app starts one frame later, in a task of its own.
      await vi.advanceTimersByTimeAsync(FRAME_MS - 1);
      expect(started().entry).toBeNull();
      await vi.advanceTimersByTimeAsync(1);
      expect(started().entry).toBe("/assets/index-1.js");
      // With the copy showing, the Login screen's own chunks load with the rest (Home's start above did not).
      expect(started().preloads).toEqual([
        "/assets/react-1.js",
        "/assets/i18n-1.js",
        "/assets/index-1.js",
        "/assets/login-1.js",
      ]);
    } finally {
      append.mockRestore();
      tag.remove();
    }
  });

  it("signed in on Home, preloads Home's chunks and its texts in the start-up language with the entry", () => {
    const added: Element[] = [];
    const append = vi.spyOn(document.head, "appendChild").mockImplementation((node) => {
      added.push(...(node instanceof DocumentFragment ? [...node.children] : [node as unknown as Element]));
      return node;
    });
    const preloads = (hash: string, storage: Record<string, string>, native = false) => {
      added.length = 0;
      boot(hash, storage, native);
      return added.filter((e) => e.getAttribute("rel") === "modulepreload").map((e) => e.getAttribute("href"));
    };
    const tag = document.createElement("script");
    tag.dataset.entry = "/assets/index-1.js";
    tag.dataset.preload = "/assets/react-1.js";
    tag.dataset.home = "/assets/home-1.js /assets/prefetch-1.js";
    tag.dataset.homeTexts = "zh-Hans=/assets/zh-Hans-1.js,/assets/zh-Hans-2.js en=/assets/en-1.js";
    document.body.append(tag);
    const token = JSON.stringify({ accessToken: "a", refreshToken: "r", expiresAt: 1 });
    const base = ["/assets/react-1.js", "/assets/index-1.js"];
    const home = ["/assets/home-1.js", "/assets/prefetch-1.js"];
    try {
      for (const hash of ["#/index/home", "#/index/home?params=%7B%7D", "", "#/", "#/index"]) {
        expect(preloads(hash, { token, lang: '"en"' }), hash).toEqual([...base, ...home, "/assets/en-1.js"]);
      }
      // No stored language: the app's default in a browser; inside a shell the language is the shell's.
      expect(preloads("#/index/home", { token })).toEqual([
        ...base,
        ...home,
        "/assets/zh-Hans-1.js",
        "/assets/zh-Hans-2.js",
      ]);
      expect(preloads("#/index/home", { token }, true)).toEqual([...base, ...home]);
      // Signed out (the first screen is Login), another route, or a language without texts of its own: no texts.
      expect(preloads("#/index/home", { lang: '"en"' })).toEqual(base);
      expect(preloads("#/Device?params=%7B%7D", { token, lang: '"en"' })).toEqual(base);
      expect(preloads("#/index/my", { token, lang: '"en"' })).toEqual(base);
      expect(preloads("#/index/home", { token, lang: '"de"' })).toEqual([...base, ...home]);
    } finally {
      append.mockRestore();
      tag.remove();
    }
  });

  it("signed in on /Device, preloads the Device screen's chunks and texts once its stylesheet is in (no frame to show)", async () => {
    const added: Element[] = [];
    const append = recordHead((e) => added.push(e));
    useFakeClock();
    const links = async (hash: string, storage: Record<string, string>) => {
      added.length = 0;
      boot(hash, storage);
      // The stylesheet "loads" in the next task; the preloads follow it.
      await vi.advanceTimersByTimeAsync(1);
      return added
        .filter((e) => e.localName === "link")
        .map(
          (e) =>
            `${e.getAttribute("rel")}${e.getAttribute("as") ? `:${e.getAttribute("as")}` : ""} ${e.getAttribute("href")}`,
        );
    };
    const tag = document.createElement("script");
    tag.dataset.entry = "/assets/index-1.js";
    tag.dataset.preload = "/assets/react-1.js";
    tag.dataset.home = "/assets/home-1.js";
    tag.dataset.homeTexts = "en=/assets/en-home-1.js";
    tag.dataset.device = "/assets/device-1.js /assets/device-1.css";
    tag.dataset.deviceTexts = "zh-Hans=/assets/zh-Hans-device-1.js en=/assets/en-device-1.js,/assets/en-fault-1.js";
    document.body.append(tag);
    const token = JSON.stringify({ accessToken: "a", refreshToken: "r", expiresAt: 1 });
    const base = ["modulepreload /assets/react-1.js", "modulepreload /assets/index-1.js"];
    // The stylesheet is linked first (for the Device screen's frame, which this page does not hold), then the rest.
    const device = ["modulepreload /assets/device-1.js", "preload:style /assets/device-1.css"];
    try {
      const params = encodeURIComponent(JSON.stringify({ deviceId: "d1", familyId: "f1" }));
      const en = ["modulepreload /assets/en-device-1.js", "modulepreload /assets/en-fault-1.js"];
      for (const hash of [`#/Device?params=${params}`, `#/device?params=${params}`, `#/Device/?params=${params}`]) {
        expect(await links(hash, { token, lang: '"en"' }), hash).toEqual([
          "stylesheet /assets/device-1.css",
          ...base,
          ...device,
          ...en,
        ]);
      }
      expect(await links(`#/Device?params=${params}`, { token })).toEqual([
        "stylesheet /assets/device-1.css",
        ...base,
        ...device,
        "modulepreload /assets/zh-Hans-device-1.js",
      ]);
      // A link naming no device: no frame, so no stylesheet first; the screen's files all the same.
      expect(await links("#/Device", { token, lang: '"en"' })).toEqual([...base, ...device, ...en]);
      // Signed out (the first screen is Login) or another device route: only the entry.
      expect(await links("#/Device", { lang: '"en"' })).toEqual(base);
      expect(await links("#/DeviceAttribute", { token, lang: '"en"' })).toEqual(base);
    } finally {
      append.mockRestore();
      tag.remove();
    }
  });

  it("with a copy showing, waits for the browser's first-contentful-paint entry, else at most a second", async () => {
    // A browser that reports paints: the entry arrives when the test says it painted.
    const observers: Array<{ cb: (list: { getEntriesByName(n: string): unknown[] }) => void; off: boolean }> = [];
    class FakeObserver {
      static supportedEntryTypes = ["paint", "largest-contentful-paint"];
      private readonly self: (typeof observers)[number];
      constructor(cb: (typeof observers)[number]["cb"]) {
        this.self = { cb, off: false };
        observers.push(this.self);
      }
      observe(options: { type: string; buffered: boolean }): void {
        expect(options).toEqual({ type: "paint", buffered: true });
      }
      disconnect(): void {
        this.self.off = true;
      }
    }
    const paint = (name: string) => {
      for (const o of observers.filter((x) => !x.off)) o.cb({ getEntriesByName: (n) => (n === name ? [{}] : []) });
    };
    vi.stubGlobal("PerformanceObserver", FakeObserver);
    // The module scripts boot.js adds to the head, recorded instead of added (happy-dom loads no script file).
    const entries: string[] = [];
    const append = vi.spyOn(document.head, "appendChild").mockImplementation((node) => {
      if (node instanceof HTMLScriptElement) entries.push(node.src);
      return node;
    });
    const started = () => entries.length > 0;
    const tag = document.createElement("script");
    tag.dataset.entry = "/assets/index-1.js";
    document.body.append(tag);
    vi.useFakeTimers();
    try {
      boot("#/login", { lang: '"en"' });
      await vi.advanceTimersByTimeAsync(500);
      expect(started()).toBe(false);
      paint("first-paint");
      await vi.advanceTimersByTimeAsync(10);
      expect(started()).toBe(false);
      paint("first-contentful-paint");
      await vi.advanceTimersByTimeAsync(10);
      expect(started()).toBe(true);
      expect(observers.every((o) => o.off)).toBe(true);

      // No paint at all (a hidden tab): the app starts after a second anyway, once.
      entries.length = 0;
      boot("#/login", { lang: '"en"' });
      await vi.advanceTimersByTimeAsync(990);
      expect(started()).toBe(false);
      await vi.advanceTimersByTimeAsync(20);
      expect(entries).toHaveLength(1);
      paint("first-contentful-paint");
      await vi.advanceTimersByTimeAsync(10);
      expect(entries).toHaveLength(1);
    } finally {
      vi.useRealTimers();
      vi.unstubAllGlobals();
      append.mockRestore();
      tag.remove();
    }
  });

  it("knows the same five languages as the app (spec §1)", () => {
    const list = /const languages = (\[[^\]]*\])/.exec(BOOT)?.[1];
    expect(JSON.parse(list ?? "null")).toEqual([...LANGUAGES]);
  });
});

/**
 * Records what boot.js adds to the head instead of adding it (happy-dom would fetch the files): each element (a
 * fragment's children one by one) goes to `record`; a stylesheet "loads" in the next task, or fails when its href
 * holds "gone". @returns the spy, to restore
 */
function recordHead(record: (element: Element) => void) {
  return vi.spyOn(document.head, "appendChild").mockImplementation((node) => {
    const nodes = node instanceof DocumentFragment ? [...node.children] : [node as unknown as Element];
    for (const n of nodes) {
      record(n);
      if (n instanceof HTMLLinkElement && n.rel === "stylesheet") {
        const fail = n.getAttribute("href")?.includes("gone");
        setTimeout(() => n.dispatchEvent(new Event(fail ? "error" : "load")), 0);
      }
    }
    return node;
  });
}

describe("boot.js: the last Home's snapshot painted before the app runs", () => {
  const token = JSON.stringify({ accessToken: "a", refreshToken: "r", expiresAt: 1 });
  let root: HTMLElement;
  let added: Element[] = [];
  let append: ReturnType<typeof vi.spyOn>;

  beforeEach(() => {
    root = document.createElement("div");
    root.id = "root";
    root.innerHTML = '<div class="prerender" lang="en" inert="">login copy</div>';
    document.body.append(root);
    const tag = document.createElement("script");
    tag.dataset.entry = "/assets/index-1.js";
    tag.dataset.css = "/assets/app-1.css";
    tag.dataset.homeCss = "/assets/app-1.css /assets/home-1.css";
    tag.id = "boot-tag";
    document.body.append(tag);
    added = [];
    append = recordHead((n) => added.push(n));
    useFakeClock();
  });
  afterEach(() => {
    vi.useRealTimers();
    append.mockRestore();
    root.remove();
    document.getElementById("boot-tag")?.remove();
    document.documentElement.removeAttribute("data-snapshot");
    localStorage.clear();
    window.location.hash = "";
  });

  /** A snapshot as the app stores it (first-paint/snapshot.ts), taken today in `lang`. */
  function stored(lang: string, over: Record<string, unknown> = {}): string {
    return JSON.stringify({
      v: 1,
      lang,
      day: localDay(),
      nodes: [
        [
          "div",
          ["class", "home", "data-testid", "home-screen", "onclick", "alert(1)"],
          ["--adm-color", "red", ""],
          [
            ["span", ["class", "home__total-value"], [], ["50.4 L"]],
            ["svg", ["viewBox", "0 0 48 48"], ["vertical-align", "-0.125em", ""], [["path", ["d", "M1 1"], [], []]]],
            ["script", [], [], ["alert(2)"]],
            ["a", ["href", "javascript:alert(3)"], [], ["x"]],
          ],
        ],
        " ",
      ],
      ...over,
    });
  }

  async function bootOn(hash: string, storage: Record<string, string>): Promise<void> {
    boot(hash, storage);
    // Home's stylesheets "load" in the next task; the snapshot paints after them.
    await vi.advanceTimersByTimeAsync(1);
  }

  const entryStarted = () => added.some((e) => e.getAttribute("type") === "module");

  it("signed in on Home, today, in the start language: builds it into an inert #root, Home's stylesheets first", async () => {
    await bootOn("#/index/home", { token, lang: '"en"', homeSnapshot: stored("en") });
    expect(document.documentElement.getAttribute("data-snapshot")).toBe("home");
    expect(root.inert).toBe(true);
    expect(root.getAttribute("aria-busy")).toBe("true");
    expect(root.querySelector(".prerender")).toBeNull();
    const home = root.querySelector<HTMLElement>('[data-testid="home-screen"]');
    expect(home?.querySelector(".home__total-value")?.textContent).toBe("50.4 L");
    // Styles through the CSSOM (the CSP drops style attributes in markup); SVG in its namespace.
    expect(home?.style.getPropertyValue("--adm-color")).toBe("red");
    const svg = home?.querySelector("svg");
    expect(svg?.namespaceURI).toBe("http://www.w3.org/2000/svg");
    expect(svg?.querySelector("path")?.namespaceURI).toBe("http://www.w3.org/2000/svg");
    // Nothing in it can run: no handler attribute, no script, no javascript: link.
    expect(home?.hasAttribute("onclick")).toBe(false);
    expect(root.querySelector("script")).toBeNull();
    expect(root.querySelector("a")?.hasAttribute("href")).toBe(false);
    expect(added.filter((e) => e.getAttribute("rel") === "stylesheet").map((e) => e.getAttribute("href"))).toEqual([
      "/assets/home-1.css",
    ]);
  });

  it("shows nothing when Home's stylesheets do not load or are not the build's own", async () => {
    for (const homeCss of ["/assets/gone-1.css", "https://evil.example/x.css"]) {
      document.getElementById("boot-tag")?.setAttribute("data-home-css", homeCss);
      added = [];
      await bootOn("#/index/home", { token, lang: '"en"', homeSnapshot: stored("en") });
      expect(document.documentElement.hasAttribute("data-snapshot"), homeCss).toBe(false);
      expect(root.querySelector(".prerender"), homeCss).not.toBeNull();
      expect(entryStarted(), homeCss).toBe(true);
    }
  });

  it("shows nothing on another route, signed out, on another day, in another language or of another format", async () => {
    const cases: Array<[string, Record<string, string>]> = [
      ["#/Device", { token, lang: '"en"', homeSnapshot: stored("en") }],
      ["#/index/home", { lang: '"en"', homeSnapshot: stored("en") }],
      ["#/index/home", { token, lang: '"en"', homeSnapshot: stored("en", { day: "2020-01-01" }) }],
      ["#/index/home", { token, lang: '"fr"', homeSnapshot: stored("en") }],
      ["#/index/home", { token, homeSnapshot: stored("en") }],
      ["#/index/home", { token, lang: '"en"', homeSnapshot: stored("en", { v: 2 }) }],
      ["#/index/home", { token, lang: '"en"', homeSnapshot: stored("en", { nodes: [[1, 2]] }) }],
      ["#/index/home", { token, lang: '"en"', homeSnapshot: "{bad" }],
    ];
    for (const [hash, storage] of cases) {
      added = [];
      await bootOn(hash, storage);
      const what = `${hash} ${JSON.stringify(storage).slice(90)}`;
      expect(document.documentElement.hasAttribute("data-snapshot"), what).toBe(false);
      expect(root.inert, what).toBe(false);
      expect(root.querySelector(".prerender"), what).not.toBeNull();
      // The app starts either way.
      expect(entryStarted(), what).toBe(true);
    }
  });

  it("rebuilds what the app kept (first-paint/snapshot.ts saveSnapshot) node for node", async () => {
    const screen = document.createElement("div");
    screen.innerHTML =
      '<div class="home" data-testid="home-screen"><header class="home__hero"><span class="home__total-value">50.4 L' +
      '</span></header>\n <div class="device-card"><svg viewBox="0 0 48 48"><g fill="none"><path d="M1 1"></path></g>' +
      "</svg><span>Softener 1</span><!-- a comment --></div></div>";
    screen.querySelector<HTMLElement>(".home")?.style.setProperty("--adm-color-primary", "#0093dd");
    screen.querySelector("svg")?.style.setProperty("vertical-align", "-0.125em");
    saveSnapshot(screen, "en");
    // Comments and test ids are not kept (only the live screen has the ids tests look for).
    const expected = screen.innerHTML.replace("<!-- a comment -->", "").replace(' data-testid="home-screen"', "");
    await bootOn("#/index/home", { token, lang: '"en"', homeSnapshot: localStorage.getItem("homeSnapshot") ?? "" });
    expect(document.documentElement.getAttribute("data-snapshot")).toBe("home");
    expect(root.innerHTML).toBe(expected);
  });

  it("after the snapshot, adds the entry and the opening screen's preloads a few per task, every one of them", async () => {
    const tag = document.getElementById("boot-tag") as HTMLScriptElement;
    tag.dataset.preload = "/assets/a-1.js /assets/b-1.js /assets/c-1.js /assets/d-1.js /assets/e-1.js";
    tag.dataset.home = "/assets/home-1.js /assets/home-1.css";
    tag.dataset.homeTexts = "";
    const groups: number[] = [];
    const realAppend = append.getMockImplementation();
    append.mockImplementation((node: Node) => {
      if (node instanceof DocumentFragment) groups.push(node.childNodes.length);
      return realAppend ? realAppend(node) : node;
    });
    await bootOn("#/index/home", { token, lang: '"en"', homeSnapshot: stored("en") });
    // The snapshot's paint (one frame, no paint entries in happy-dom), then the groups of preloads, a task each.
    await vi.advanceTimersByTimeAsync(FRAME_MS);
    expect(entryStarted()).toBe(true);
    const preloads = added.filter(
      (e) => e.getAttribute("rel") === "modulepreload" || e.getAttribute("rel") === "preload",
    );
    expect(preloads.map((e) => e.getAttribute("href"))).toEqual([
      "/assets/a-1.js",
      "/assets/b-1.js",
      "/assets/c-1.js",
      "/assets/d-1.js",
      "/assets/e-1.js",
      "/assets/index-1.js",
      "/assets/home-1.js",
      "/assets/home-1.css",
    ]);
    // The links in two insertions, in two tasks: never more than four at once.
    expect(groups).toEqual([4, 4]);
  });

  it("starts the app's code only after the snapshot has painted", async () => {
    vi.stubGlobal("PerformanceObserver", undefined);
    try {
      // No stylesheet to wait for: the snapshot paints as soon as the page is parsed.
      document.getElementById("boot-tag")?.removeAttribute("data-home-css");
      boot("#/index/home", { token, lang: '"en"', homeSnapshot: stored("en") });
      await Promise.resolve();
      await Promise.resolve();
      expect(document.documentElement.getAttribute("data-snapshot")).toBe("home");
      expect(entryStarted()).toBe(false);
      await vi.advanceTimersByTimeAsync(FRAME_MS - 1);
      expect(entryStarted()).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(entryStarted()).toBe(true);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

/** A stored session whose token is an hour from expiry. */
const deviceToken = JSON.stringify({ accessToken: "a", refreshToken: "r", expiresAt: Date.now() + 3_600_000 });
/** The /Device route's params for `deviceId` of household f1, as the hash carries them. */
const deviceParams = (deviceId: string) => encodeURIComponent(JSON.stringify({ deviceId, familyId: "f1" }));

/**
 * The boot script's tag as index.html has it for the Device screen (its entry, stylesheets, first call and token
 * margin) in the body, with `more` data attributes; removed by {@link removeBootTag}.
 */
function addDeviceBootTag(more: Record<string, string> = {}): void {
  const tag = document.createElement("script");
  tag.dataset.entry = "/assets/index-1.js";
  tag.dataset.css = "/assets/app-1.css";
  tag.dataset.device = "/assets/device-1.js /assets/device-1.css";
  tag.dataset.deviceCalls = "POST /api/device/info?deviceId=__deviceId__";
  tag.dataset.tokenMargin = "60000";
  Object.assign(tag.dataset, more);
  tag.id = "boot-tag";
  document.body.append(tag);
}

/** Undoes what a Device start left: the boot tag, the early answers, storage and the hash. */
function removeBootTag(): void {
  document.getElementById("boot-tag")?.remove();
  delete (window as unknown as { __aquapilotEarly?: unknown }).__aquapilotEarly;
  localStorage.clear();
  window.location.hash = "";
}

describe("boot.js: the Device screen's prerendered frame painted before the app runs", () => {
  const token = deviceToken;
  const params = deviceParams;
  let root: HTMLElement;
  let added: Element[] = [];
  let append: ReturnType<typeof vi.spyOn>;
  /** What happened, in order: calls sent, stylesheets linked, the frame shown, the app's entry added. */
  let steps: string[] = [];

  beforeEach(() => {
    root = document.createElement("div");
    root.id = "root";
    // As index.html holds them (apps/web/src/first-paint/build/prerender-plugin.ts): Login's copies and the Device
    // frames, all hidden.
    root.innerHTML =
      '<div class="prerender" data-screen="login" lang="en" inert="">login</div>' +
      '<div class="prerender" data-screen="device" lang="en" inert="">device frame</div>' +
      '<div class="prerender" data-screen="device" lang="zh-Hans" inert="">设备</div>';
    document.body.append(root);
    addDeviceBootTag();
    added = [];
    steps = [];
    const frame = () => document.documentElement.getAttribute("data-prerender-screen");
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) => {
        steps.push(`call ${url} frame=${frame()}`);
        return Response.json({});
      }),
    );
    append = recordHead((n) => {
      added.push(n);
      if (n.getAttribute("rel") === "stylesheet") steps.push(`stylesheet ${n.getAttribute("href")} frame=${frame()}`);
      if (n.getAttribute("type") === "module") steps.push(`entry frame=${frame()}`);
    });
    useFakeClock();
  });
  afterEach(() => {
    vi.useRealTimers();
    append.mockRestore();
    vi.unstubAllGlobals();
    root.remove();
    document.documentElement.removeAttribute("data-prerender");
    document.documentElement.removeAttribute("data-prerender-screen");
    removeBootTag();
  });

  /**
   * Lets the frame paint: the stylesheet's load (next task), the next frame, the app's start and the history mark
   * (tasks after it). Two frames' time: the first callback may wait for the frame after the stylesheet's task.
   */
  const painted = () => vi.advanceTimersByTimeAsync(2 * FRAME_MS);

  it("signed in on a device's screen: calls, stylesheet, the frame in the start language, then the app", async () => {
    vi.stubGlobal("PerformanceObserver", undefined);
    boot(`#/Device?params=${params("d1")}`, { token, lang: '"en"' });
    // At once: the first calls and the stylesheet; the frame waits for the stylesheet, the app for the frame's paint.
    expect(steps).toEqual([
      "call /api/device/info?deviceId=d1 frame=null",
      "stylesheet /assets/device-1.css frame=null",
    ]);
    await vi.advanceTimersByTimeAsync(1);
    expect(document.documentElement.getAttribute("data-prerender")).toBe("en");
    expect(document.documentElement.getAttribute("data-prerender-screen")).toBe("device");
    expect(document.documentElement.lang).toBe("en");
    await painted();
    expect(steps.at(-1)).toBe("entry frame=device");
    // The app's entry and the screen's chunks are preloaded too.
    expect(added.filter((e) => e.getAttribute("rel") === "modulepreload").map((e) => e.getAttribute("href"))).toEqual([
      "/assets/index-1.js",
      "/assets/device-1.js",
    ]);
    // No stored language in a browser: the app's default (zh-Hans), whose frame this page holds too.
    steps = [];
    boot(`#/Device?params=${params("d1")}`, { token });
    await painted();
    expect(document.documentElement.getAttribute("data-prerender")).toBe("zh-Hans");
    expect(steps.at(-1)).toBe("entry frame=device");
  });

  it("after the frame's paint, gives the history entry the router's start position, and keeps one it already has", async () => {
    vi.stubGlobal("PerformanceObserver", undefined);
    history.replaceState({ kept: "yes" }, "");
    boot(`#/Device?params=${params("d1")}`, { token, lang: '"en"' });
    await painted();
    expect(document.documentElement.getAttribute("data-prerender-screen")).toBe("device");
    expect(history.state).toEqual({ kept: "yes", idx: 0 });
    // A reload after the app ran: the entry's position stays.
    history.replaceState({ idx: 3, key: "k" }, "");
    boot(`#/Device?params=${params("d1")}`, { token, lang: '"en"' });
    await painted();
    expect(history.state).toEqual({ idx: 3, key: "k" });
    history.replaceState(null, "");
  });

  it("paints no stored snapshot on a device's screen, neither Home's nor one of that device an earlier version kept: the frame", async () => {
    vi.stubGlobal("PerformanceObserver", undefined);
    const today = (deviceId?: string) =>
      JSON.stringify({ v: 1, lang: "en", day: localDay(), nodes: [["div", [], [], ["Softener 1"]]], deviceId });
    boot(`#/Device?params=${params("d1")}`, {
      token,
      lang: '"en"',
      deviceSnapshot: today("d1"),
      homeSnapshot: today(),
    });
    await painted();
    expect(document.documentElement.hasAttribute("data-snapshot")).toBe(false);
    expect(root.textContent).not.toContain("Softener 1");
    expect(document.documentElement.getAttribute("data-prerender-screen")).toBe("device");
    expect(steps).toEqual([
      "call /api/device/info?deviceId=d1 frame=null",
      "stylesheet /assets/device-1.css frame=null",
      "entry frame=device",
    ]);
  });

  it("no frame signed out, on another route, in a shell without a language, or without the copy", async () => {
    const cases: Array<[string, Record<string, string>, boolean]> = [
      [`#/Device?params=${params("d1")}`, { lang: '"en"' }, false],
      // A link naming no device: the screen loads nothing, so no frame of a device loading.
      ["#/Device", { token, lang: '"en"' }, false],
      [`#/DeviceAttribute?params=${params("d1")}`, { token, lang: '"en"' }, false],
      ["#/index/home", { token, lang: '"en"' }, false],
      [`#/Device?params=${params("d1")}`, { token }, true],
      // A language this page holds no frame in: the app starts as it would without one.
      [`#/Device?params=${params("d1")}`, { token, lang: '"fr"' }, false],
    ];
    for (const [hash, storage, native] of cases) {
      added = [];
      boot(hash, storage, native);
      await painted();
      const what = `${hash} ${JSON.stringify(storage)} native=${native}`;
      expect(document.documentElement.getAttribute("data-prerender-screen"), what).toBeNull();
      expect(
        added.some((e) => e.getAttribute("type") === "module"),
        what,
      ).toBe(true);
      delete (window as unknown as { AquaPilotNative?: object }).AquaPilotNative;
    }
  });
});
