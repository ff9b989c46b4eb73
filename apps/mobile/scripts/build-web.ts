import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";
import { apiBaseUrlOf } from "../../web/src/shared/bridge/index.ts";

/**
 * Builds the shells' web directory `apps/mobile/www` (capacitor.config.json webDir): the web app's build
 * (`apps/web/dist`, run `npm run build -w apps/web` first) without its precompressed copies, plus `native-shell.js`
 * (src/shell.ts bundled as one classic script: the bridge over the plugins), loaded by index.html before the boot script so
 * `window.AquaPilotNative` exists before any of the app's code runs. `apiBaseUrl` (default: the environment's
 * `AQUAPILOT_API_URL`, else src/shell-config.ts's production host) is the cloud the app calls, written into
 * native-shell.js and served as the native config's `apiBaseUrl`, since the shell's page comes from the web view's own
 * origin. Throws when the web build is missing or `apiBaseUrl` is not an absolute http(s) URL without credentials,
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
    writeFileSync(file, injectShellScript(readFileSync(file, "utf8")));
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

if (import.meta.url === `file://${process.argv[1]}`) {
  const out = await buildShellWeb();
  console.log(`shell web directory: ${out}`);
}
