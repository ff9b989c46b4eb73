import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";
import {
  contentSecurityPolicy,
  hubSources,
  inlineScriptHashes,
  mapHosts,
} from "../../server/src/http/security-headers.ts";
import { apiBaseUrlOf } from "../../web/src/shared/bridge/index.ts";
import { DEFAULT_API_BASE_URL } from "../src/shell-config.ts";

/**
 * Builds the shells' web directory `apps/mobile/www` (capacitor.config.json webDir): the web app's build
 * (`apps/web/dist`, run `npm run build -w apps/web` first) without its precompressed copies, plus `native-shell.js`
 * (src/shell.ts bundled as one classic script: the bridge over the plugins), loaded by index.html before the boot script so
 * `window.AquaPilotNative` exists before any of the app's code runs. `apiBaseUrl` (default: the environment's
 * `AQUAPILOT_API_URL`, else src/shell-config.ts's production host) is the cloud the app calls, written into
 * native-shell.js and served as the native config's `apiBaseUrl`, since the shell's page comes from the web view's own
 * origin. Every page also gets the served page's Content-Security-Policy as a meta tag
 * ({@link shellContentSecurityPolicy}): the web view's files carry no HTTP headers. Throws when the web build is missing or `apiBaseUrl` is not an absolute http(s) URL without credentials,
 * query or fragment.
 */
export async function buildShellWeb(
  options: { webDist?: string; outDir?: string; apiBaseUrl?: string } = {},
): Promise<string> {
  const here = dirname(fileURLToPath(import.meta.url));
  const mobile = resolve(here, "..");
  const webDist = options.webDist ?? resolve(mobile, "../web/dist");
  const outDir = options.outDir ?? join(mobile, "www");
  if (!existsSync(join(webDist, "index.html"))) {
    throw new Error(`${webDist}/index.html missing: run \`npm run build -w apps/web\` first`);
  }
  const requested = options.apiBaseUrl ?? process.env.AQUAPILOT_API_URL ?? "";
  const apiBaseUrl = requested === "" ? "" : apiBaseUrlOf(requested);
  if (apiBaseUrl === null) {
    throw new Error(
      `AQUAPILOT_API_URL ${JSON.stringify(requested)}: expected an absolute http(s) URL, e.g. https://app.aquapilot.cn`,
    );
  }
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  cpSync(webDist, outDir, { recursive: true, filter: (src) => !/\.(br|gz)$/.test(src) });
  await build({
    configFile: false,
    logLevel: "warn",
    root: mobile,
    // "" keeps shell-config.ts's default host
    define: { __AQUAPILOT_API_URL__: JSON.stringify(apiBaseUrl) },
    build: {
      outDir,
      emptyOutDir: false,
      minify: true,
      lib: {
        entry: join(mobile, "src/shell.ts"),
        formats: ["iife"],
        name: "AquaPilotShell",
        fileName: () => "native-shell.js",
      },
    },
  });
  for (const name of readdirSync(outDir).filter((n) => n.endsWith(".html"))) {
    const file = join(outDir, name);
    const page = injectShellScript(readFileSync(file, "utf8"));
    writeFileSync(file, injectPolicy(page, shellContentSecurityPolicy(page, apiBaseUrl || DEFAULT_API_BASE_URL)));
  }
  return outDir;
}

/**
 * Puts `<script src="./native-shell.js"></script>` right before the boot script (inline in the page: the tag
 * carrying `data-entry`), or at the end of the head, once. Throws when the page has neither.
 */
export function injectShellScript(html: string): string {
  const tag = '<script src="./native-shell.js"></script>';
  if (html.includes(tag)) return html;
  const boot = html.indexOf("<script data-entry=");
  if (boot >= 0) return `${html.slice(0, boot)}${tag}\n    ${html.slice(boot)}`;
  const head = html.indexOf("</head>");
  if (head < 0) throw new Error("index.html has no </head>");
  return `${html.slice(0, head)}${tag}\n${html.slice(head)}`;
}

/** The map providers' MAP_TYPE values (server http/security-headers.ts `mapHosts`; spec §1: 1 AMap, 2 Baidu, 3 Tencent, 4 Tianditu). */
const MAP_TYPES = [1, 2, 3, 4];

/**
 * The Content-Security-Policy of the shells' page `html`, as the value of a `<meta http-equiv>` tag: the policy the
 * cloud serves with the page (server http/security-headers.ts `contentSecurityPolicy`, with the hashes of `html`'s own
 * inline scripts), plus what differs in a web view whose page comes from its own origin: the cloud at `apiBaseUrl` in
 * connections (API, token, its hubs' ws/wss address) and images (uploads), and every map provider's hosts (the cloud's
 * MAP_TYPE picks one at run time, which a build cannot know). frame-ancestors is left out: a meta policy cannot carry
 * it, and nothing frames the shell's web view. So an outside image, script or connection is refused in the shells as
 * on the web.
 */
export function shellContentSecurityPolicy(html: string, apiBaseUrl: string): string {
  const cloud = new URL(apiBaseUrl).origin;
  const directives: Record<string, string[]> = contentSecurityPolicy(
    { MAP_TYPE: 1, PUBLIC_ORIGIN: cloud },
    inlineScriptHashes(html),
  );
  const add = (name: string, sources: readonly string[]) => {
    const list = directives[name] ?? [];
    for (const source of sources) if (!list.includes(source)) list.push(source);
    directives[name] = list;
  };
  add("connect-src", [cloud, ...hubSources(cloud)]);
  add("img-src", [cloud]);
  for (const type of MAP_TYPES) {
    const hosts = mapHosts(type);
    add("img-src", hosts.img);
    add("connect-src", hosts.connect);
    add("script-src", hosts.script);
  }
  delete directives["frame-ancestors"];
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(" ")}`)
    .join("; ");
}

/**
 * Puts `<meta http-equiv="Content-Security-Policy" content="…">` with `policy` first in the head (before any script,
 * which it must govern), replacing one already there. Throws when the page has no `<head>`.
 */
export function injectPolicy(html: string, policy: string): string {
  const tag = `<meta http-equiv="Content-Security-Policy" content="${policy.replaceAll('"', "&quot;")}">`;
  const without = html.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>\s*/i, "");
  const head = /<head[^>]*>/i.exec(without);
  if (!head) throw new Error("index.html has no <head>");
  const at = head.index + head[0].length;
  return `${without.slice(0, at)}\n    ${tag}${without.slice(at)}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const out = await buildShellWeb();
  console.log(`shell web directory: ${out}`);
}
