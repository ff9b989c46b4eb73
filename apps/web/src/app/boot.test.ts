import { readFileSync } from "node:fs";
import path from "node:path";
import { DEFAULT_LANGUAGE, LANGUAGES } from "@aquapilot/contract/wire";
import { afterEach, describe, expect, it, vi } from "vitest";

/** public/boot.js, the classic script in index.html's head that picks the prerendered Login copy (issue 12). */
const BOOT = readFileSync(path.join(import.meta.dirname, "../../public/boot.js"), "utf8");

function boot(hash: string, storage: Record<string, string>, native = false): string | null {
  window.location.hash = hash;
  localStorage.clear();
  for (const [k, v] of Object.entries(storage)) localStorage.setItem(k, v);
  if (native) (window as unknown as { AquaPilotNative: object }).AquaPilotNative = {};
  document.documentElement.removeAttribute("data-prerender");
  new Function(BOOT)();
  return document.documentElement.getAttribute("data-prerender");
}

describe("boot.js: which prerendered Login copy shows before the app runs", () => {
  afterEach(() => {
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
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 10)));
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
