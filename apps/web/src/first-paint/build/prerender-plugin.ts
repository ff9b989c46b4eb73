import { readFileSync } from "node:fs";
import path from "node:path";
import type { Language } from "@aquapilot/contract/wire";
import react from "@vitejs/plugin-react";
import { createServer, type HtmlTagDescriptor, minifySync, type Plugin, type Rolldown } from "vite";
import { iconPlugin } from "../../../vite-icons.ts";
import { localeFile, TEXT_GROUPS } from "../../shared/i18n/groups.ts";
import type { BootCalls } from "../prerender.tsx";
import { FIRST_SCREENS, type FirstScreen, screenModules } from "./first-screen-chunks.ts";

type OutputBundle = Rolldown.OutputBundle;
type OutputChunk = Rolldown.OutputChunk;

/**
 * The prerendered first screen, so a phone paints it before the app's code has run: the build renders the Login screen
 * in each of the five languages into index.html, hidden; the boot script (apps/web/src/first-paint/boot.js, inline at
 * the top of the head: the server's CSP allows it by its hash) shows the stored language's copy when the page opens on
 * `#/login`, so the screen paints as soon as the HTML and CSS are in, seconds before the JavaScript has run. The app's
 * first render replaces it with the same screen, element for element (the route waits for its chunk and texts first).
 */

/** The module (under Vite's SSR loader) that renders the Login screen and names the languages to render. */
const RENDER_MODULE = "/src/first-paint/prerender.tsx";

/** A regular expression matching a module id that ends with `file` (a path relative to apps/web). */
const endsWith = (file: string) => new RegExp(`/${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);

/** The Login screen's module: its chunk's CSS must be in the head for the prerendered copy to paint styled. */
const LOGIN_MODULE = endsWith(FIRST_SCREENS.login.modules[0]);

/**
 * The boot script's source (apps/web/src/first-paint/boot.js), written inline into index.html by {@link deferEntry}.
 */
export const BOOT_SOURCE = path.join(import.meta.dirname, "../boot.js");

/**
 * The boot script as it goes into the page: {@link BOOT_SOURCE} minified (oxc, through Vite), about 3.9 KB. Inline,
 * it runs as soon as the parser reaches it, instead of after a request of its own that holds the parser (on a phone's
 * link that request is a round trip or two, before the app's code is even asked for); the server's CSP allows exactly
 * this text by its SHA-256 (apps/server/src/http/security-headers.ts `inlineScriptHashes`).
 * @throws Error when the minifier reports an error.
 */
export function bootScript(source: string = readFileSync(BOOT_SOURCE, "utf8")): string {
  const result = minifySync("boot.js", source);
  if (result.errors.length > 0) throw new Error(`boot.js: ${result.errors.map((e) => e.message).join("; ")}`);
  return result.code.trim();
}

/**
 * Inline styles the screen's components set (antd-mobile-icons' `vertical-align`), as the class styles.css gives the
 * same declaration inside `.prerender`: in markup the CSP's `style-src 'self'` would drop the attribute (React sets
 * it through the DOM, which the CSP allows).
 */
export const PRERENDER_STYLE_CLASSES: Readonly<Record<string, string>> = {
  "vertical-align:-0.125em": "prerender-icon",
};

/**
 * One language's prerendered markup of `screen` made safe to paint before the app runs: test ids, route names and
 * element ids removed (tests and the app find only the real page; five copies would repeat the ids), known inline styles turned
 * into classes ({@link PRERENDER_STYLE_CLASSES}), inside a `div.prerender` wrapper that carries the screen
 * (`data-screen`: "login", or "device" for the Device screen's frame) and the language, is hidden until boot.js
 * picks it (styles.css) and is `inert` (a tap or typing before the app runs does nothing, so nothing typed is lost
 * when the real page replaces it).
 * @throws Error when the markup has another style attribute (the copy would not look like the page) or a script.
 */
export function prerenderCopy(lang: Language, markup: string, screen: PrerenderedScreen = "login"): string {
  if (/<script/i.test(markup)) throw new Error(`prerendered ${screen} (${lang}) has a script`);
  let clean = markup.replace(/\s(data-testid|data-route|id)="[^"]*"/g, "");
  clean = clean.replace(/<([a-z][\w-]*)([^>]*?)\sstyle="([^"]*)"([^>]*)>/gi, (tag, name, before, style, after) => {
    const cls = PRERENDER_STYLE_CLASSES[style];
    if (!cls) throw new Error(`prerendered ${screen} (${lang}) has a style attribute the CSP would drop: ${tag}`);
    const attrs = `${before}${after}`;
    const withClass = /\sclass="/.test(attrs)
      ? attrs.replace(/\sclass="([^"]*)"/, (_m, c) => ` class="${c} ${cls}"`)
      : `${attrs} class="${cls}"`;
    return `<${name}${withClass}>`;
  });
  return `<div class="prerender" data-screen="${screen}" lang="${lang}" inert="">${clean}</div>`;
}

/** The screens index.html holds prerendered: Login, and the Device screen's frame while its device loads. */
export type PrerenderedScreen = "login" | "device";

/** One prerendered copy: a screen's markup in one language ({@link prerenderCopy}). */
export interface PrerenderedCopy {
  lang: Language;
  markup: string;
  /** "login" when left out. */
  screen?: PrerenderedScreen;
}

/**
 * index.html with the copies in `#root` (React's first render clears them), each as {@link prerenderCopy} makes it.
 * @throws Error when index.html has no empty `<div id="root"></div>`.
 */
export function injectPrerender(html: string, copies: readonly PrerenderedCopy[]): string {
  const root = '<div id="root"></div>';
  if (!html.includes(root)) throw new Error('index.html: no empty <div id="root"></div> to prerender into');
  const body = copies.map((c) => prerenderCopy(c.lang, c.markup, c.screen)).join("");
  return html.replace(root, () => `<div id="root">${body}</div>`);
}

/** `text` as an HTML attribute value (between double quotes). */
const attribute = (text: string): string =>
  text.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

/**
 * Hands the start of the app's code to boot.js: the entry's `<script type="module">` and Vite's `modulepreload` links
 * leave the HTML and their URLs go on the boot script (`data-entry`, `data-preload`), whose code (`bootCode`,
 * {@link bootScript}) is written inline right after the `<title>`, before the stylesheets (a classic script after them
 * would wait for them). boot.js then requests the
 * code after the first paint when a prerendered copy is showing (the HTML and CSS paint without sharing the network
 * with it), at once otherwise. `screen`: the prerendered screen's own chunks (URLs; {@link chunkClosure}), named on
 * `data-screen` less those already preloaded: boot.js preloads them with the rest when the copy shows, in one
 * insertion, so Vite's lazy-import helper finds them there instead of adding a link (and a style pass) per file.
 * `home`: Home's chunks and, per language, its texts' chunks ({@link homeChunks}), on `data-home` (less those already
 * preloaded) and `data-home-texts` ("zh-Hans=a.js,b.js en=…"): boot.js preloads them with the entry when a signed-in
 * page opens on Home, so they load beside it instead of after it has run. `data-css`: the page's own stylesheets (those
 * in the HTML and `stylesheets`, added with it); `data-home-css`: Home's stylesheets (`home.css`, which the page
 * preloads), which boot.js links before it paints a Home snapshot. `device`: the Device screen's chunks and
 * stylesheets on `data-device` and its texts on `data-device-texts`, which boot.js preloads with the entry when a
 * signed-in page opens on /Device (it must be interactive within 2 s). `calls`: the Device screen's first calls
 * (`data-device-calls`, "METHOD url" joined by `|`), the time-zone header's name and the token margin, with which
 * boot.js sends those calls itself beside the entry (src/first-paint/early-answers.ts).
 * @throws Error when the HTML has no module entry or no `</title>` (the boot script would have nowhere to go), or when
 * `bootCode` holds `</script` or `<!--` (it would end the inline script early).
 */
export function deferEntry(
  html: string,
  bootCode: string,
  screen: readonly string[] = [],
  home: HomeChunks = { js: [], css: [], texts: {} },
  stylesheets: readonly string[] = [],
  device: ScreenChunks = { js: [], css: [], texts: {} },
  calls?: BootCalls,
): string {
  const entry = /\s*<script type="module" crossorigin src="([^"]+)"><\/script>/.exec(html);
  if (!entry) throw new Error("index.html: no module entry script");
  const preloads: string[] = [];
  let out = html.replace(entry[0], "");
  out = out.replace(/\s*<link rel="modulepreload" crossorigin href="([^"]+)">/g, (_m, href: string) => {
    preloads.push(href);
    return "";
  });
  if (!out.includes("</title>")) throw new Error("index.html: no </title> to put the boot script after");
  if (/<\/script|<!--/i.test(bootCode)) throw new Error("boot script: holds </script or <!--, cannot go inline");
  const notPreloaded = (list: readonly string[]) =>
    list.filter((href) => href !== entry[1] && !preloads.includes(href));
  const own = notPreloaded(screen);
  // The page's own stylesheets: those in the HTML and those added with it (`stylesheets`).
  const sheets = [...out.matchAll(/<link rel="stylesheet"[^>]*\shref="([^"]+)"/g)].map((m) => m[1] as string);
  for (const href of stylesheets) if (!sheets.includes(href)) sheets.push(href);
  const textList = (texts: ScreenChunks["texts"]) =>
    Object.entries(texts)
      .map(([lang, files]) => `${lang}=${files.join(",")}`)
      .join(" ");
  const deviceFiles = [...notPreloaded(device.js), ...device.css.filter((href) => !sheets.includes(href))];
  const boot =
    `<script data-entry="${entry[1]}" data-preload="${preloads.join(" ")}" ` +
    `data-screen="${own.join(" ")}" data-home="${notPreloaded(home.js).join(" ")}" ` +
    `data-home-texts="${textList(home.texts)}" data-css="${sheets.join(" ")}" data-home-css="${home.css.join(" ")}"` +
    (deviceFiles.length > 0
      ? ` data-device="${deviceFiles.join(" ")}" data-device-texts="${textList(device.texts)}"`
      : "") +
    (calls && calls.device.length > 0
      ? ` data-device-calls="${attribute(calls.device.join("|"))}" data-time-zone-header="${attribute(calls.timeZoneHeader)}" data-token-margin="${calls.tokenMarginMs}"`
      : "") +
    `>${bootCode}</script>`;
  return out.replace("</title>", () => `</title>\n    ${boot}`);
}

/**
 * The chunk that holds a module whose id matches `module`: the chunk built from it (its facade) when there is one, else
 * the chunk it was put in (a first-screen group, first-screen-chunks.ts); undefined when no chunk holds it.
 */
export function chunkOf(bundle: OutputBundle, module: RegExp): OutputChunk | undefined {
  const chunks = Object.values(bundle).filter((o): o is OutputChunk => o.type === "chunk");
  const matches = (id: string | null) => id !== null && module.test(id.replaceAll("\\", "/"));
  return chunks.find((c) => matches(c.facadeModuleId)) ?? chunks.find((c) => c.moduleIds.some(matches));
}

/**
 * The chunk that holds `module` ({@link chunkOf}) and every chunk it imports statically, recursively: their
 * JavaScript files (the screen's own first) and their stylesheets, as built file names (`assets/…`), each once, first
 * found first; both empty when no chunk holds that module.
 */
export function chunkClosure(bundle: OutputBundle, module: RegExp): { js: string[]; css: string[] } {
  const start = chunkOf(bundle, module);
  const js: string[] = [];
  const css: string[] = [];
  const visit = (chunk: OutputChunk) => {
    if (js.includes(chunk.fileName)) return;
    js.push(chunk.fileName);
    const meta = (chunk as OutputChunk & { viteMetadata?: { importedCss: Set<string> } }).viteMetadata;
    for (const file of meta?.importedCss ?? []) if (!css.includes(file)) css.push(file);
    for (const name of chunk.imports) {
      const next = bundle[name];
      if (next?.type === "chunk") visit(next);
    }
  };
  if (start) visit(start);
  return { js, css };
}

/** What a first screen loads besides the entry (see {@link screenChunks}), as URLs. */
export interface ScreenChunks {
  /** The chunks of the screen's routes and of its data starter, with what they import. */
  js: string[];
  /**
   * The stylesheets those chunks bring. Home's are preloaded by index.html (`<link rel="preload" as="style">`): a Home
   * snapshot that boot.js paints needs them, and would otherwise ask for them only once boot.js has run (a later
   * largest contentful paint); the Device screen's are preloaded by boot.js when the page opens on it.
   */
  css: string[];
  /** Per language, the chunks of the texts the screen shows (its routes' text groups). */
  texts: Record<string, string[]>;
}

/** What Home's first screen loads besides the entry ({@link screenChunks} of `FIRST_SCREENS.home`). */
export type HomeChunks = ScreenChunks;

/**
 * A first screen's own chunks (its modules and data starter, `screenModules(screen)`, with their static imports, each
 * once), their stylesheets, and, for each language, the chunks of the locale files of the text groups the screen shows
 * (`screen.textGroups`, as app/routes.ts declares for its route), as built file names (`assets/…`), each once (a
 * first-screen group holds several); a module or locale file in no chunk is left out.
 */
export function screenChunks(bundle: OutputBundle, screen: FirstScreen, languages: readonly string[]): ScreenChunks {
  const js: string[] = [];
  const css: string[] = [];
  for (const facade of screenModules(screen).map(endsWith)) {
    const closure = chunkClosure(bundle, facade);
    for (const file of closure.js) if (!js.includes(file)) js.push(file);
    for (const file of closure.css) if (!css.includes(file)) css.push(file);
  }
  const areas = screen.textGroups.flatMap((group) => TEXT_GROUPS[group]);
  const texts: Record<string, string[]> = {};
  for (const lang of languages) {
    const files: string[] = [];
    for (const area of areas) {
      const chunk = chunkOf(bundle, endsWith(localeFile(area, lang)));
      if (chunk && !files.includes(chunk.fileName)) files.push(chunk.fileName);
    }
    texts[lang] = files;
  }
  return { js, css, texts };
}

/** Home's own chunks, stylesheets and texts per language: {@link screenChunks} of the tab layout, screen and starter. */
export function homeChunks(bundle: OutputBundle, languages: readonly string[]): HomeChunks {
  return screenChunks(bundle, FIRST_SCREENS.home, languages);
}

/**
 * Installs a happy-dom window as the globals the app's modules read at load (window, document, localStorage,
 * navigator…) for the time of `run`, then puts the old ones back.
 */
async function withBrowserGlobals<T>(run: () => Promise<T>): Promise<T> {
  const { Window } = await import("happy-dom");
  const window = new Window({ url: "http://localhost/" });
  const names = ["window", "document", "localStorage", "sessionStorage", "navigator", "location", "history", "self"];
  const values: Record<string, unknown> = {
    window,
    document: window.document,
    localStorage: window.localStorage,
    sessionStorage: window.sessionStorage,
    navigator: window.navigator,
    location: window.location,
    history: window.history,
    self: window,
  };
  const saved = names.map((n) => [n, Object.getOwnPropertyDescriptor(globalThis, n)] as const);
  for (const n of names) Object.defineProperty(globalThis, n, { value: values[n], configurable: true, writable: true });
  try {
    return await run();
  } finally {
    for (const [n, d] of saved) {
      if (d) Object.defineProperty(globalThis, n, d);
      else delete (globalThis as Record<string, unknown>)[n];
    }
    await window.happyDOM.close();
  }
}

/**
 * Renders the Login screen and the Device screen's frame (first-paint/prerender.tsx) in every language of spec §1 with
 * the app's own modules (a Vite server in SSR mode over this project, CSS left out), with the `define`s of the build.
 */
async function renderCopies(
  root: string,
  define: Record<string, unknown>,
  alias: unknown,
): Promise<{ copies: PrerenderedCopy[]; calls: BootCalls }> {
  const server = await createServer({
    configFile: false,
    root,
    logLevel: "error",
    // The build's icon transform too (apps/web/vite-icons.ts), with the icons inlined: the copy must draw the app's
    // paths.
    plugins: [react(), iconPlugin()],
    define,
    resolve: {
      // React itself renders the copy: the build's Preact aliases (preact.ts: to "preact/…" or to preact-react.js)
      // are left out.
      alias: (alias as Array<{ replacement: unknown }>).filter(
        (a) => !/^preact\/|preact-react\.js$/.test(String(a.replacement)),
      ) as never,
      dedupe: ["react", "react-dom"],
    },
    ssr: { noExternal: ["antd-mobile", "antd-mobile-icons"] },
    server: { middlewareMode: true, hmr: false, watch: null, ws: false },
    appType: "custom",
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  try {
    return await withBrowserGlobals(async () => {
      const mod = (await server.ssrLoadModule(RENDER_MODULE)) as {
        LANGUAGES: readonly Language[];
        renderLoginScreen: (lang: Language) => Promise<string>;
        renderDeviceFrame: (lang: Language) => Promise<string>;
        bootCalls: () => BootCalls;
      };
      const copies: PrerenderedCopy[] = [];
      for (const lang of mod.LANGUAGES) copies.push({ lang, markup: await mod.renderLoginScreen(lang) });
      for (const lang of mod.LANGUAGES) {
        copies.push({ lang, markup: await mod.renderDeviceFrame(lang), screen: "device" });
      }
      return { copies, calls: mod.bootCalls() };
    });
  } finally {
    await server.close();
  }
}

/**
 * The build step: index.html gets the prerendered Login copies and Device frames ({@link injectPrerender}), the Login
 * chunk's stylesheets, and the boot script ({@link bootScript}) starting the app's code ({@link deferEntry}). Runs on
 * the built index.html before the service worker's shell list and the compressed copies are made.
 */
export function prerenderPlugin(): Plugin {
  let root = process.cwd();
  let define: Record<string, unknown> = {};
  let alias: unknown = [];
  let base = "/";
  return {
    name: "aquapilot-prerender",
    apply: "build",
    configResolved(config) {
      root = config.root;
      define = config.define ?? {};
      alias = config.resolve.alias;
      base = config.base;
    },
    transformIndexHtml: {
      order: "post",
      async handler(html, ctx) {
        if (!ctx.bundle) return html;
        const { copies, calls } = await renderCopies(root, define, alias);
        const languages = [...new Set(copies.map((c) => c.lang))];
        const login = chunkClosure(ctx.bundle, LOGIN_MODULE);
        const home = homeChunks(ctx.bundle, languages);
        const device = screenChunks(ctx.bundle, FIRST_SCREENS.device, languages);
        const href = (file: string) => path.posix.join(base, file);
        const tags: HtmlTagDescriptor[] = login.css
          .map(href)
          .filter((href) => !html.includes(`href="${href}"`))
          .map((href) => ({ tag: "link", attrs: { rel: "stylesheet", crossorigin: true, href }, injectTo: "head" }));
        const styled = new Set(tags.map((t) => String(t.attrs?.href)));
        // Home's stylesheets load with the page (preloaded, not applied), for the snapshot boot.js may paint.
        const preloads: HtmlTagDescriptor[] = home.css
          .map(href)
          .filter((href) => !html.includes(`href="${href}"`) && !styled.has(href))
          .map((href) => ({
            tag: "link",
            attrs: { rel: "preload", as: "style", crossorigin: true, href },
            injectTo: "head",
          }));
        const urls = (chunks: ScreenChunks): ScreenChunks => ({
          js: chunks.js.map(href),
          css: chunks.css.map(href),
          texts: Object.fromEntries(Object.entries(chunks.texts).map(([lang, files]) => [lang, files.map(href)])),
        });
        const added = tags.map((t) => String(t.attrs?.href));
        return {
          html: deferEntry(
            injectPrerender(html, copies),
            bootScript(),
            login.js.map(href),
            urls(home),
            added,
            urls(device),
            calls,
          ),
          tags: [...tags, ...preloads],
        };
      },
    },
  };
}
