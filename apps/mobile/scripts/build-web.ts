import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";

/**
 * Builds the shells' web directory `apps/mobile/www` (capacitor.config.json webDir; issue 15): the web app's build
 * (`apps/web/dist`, run `npm run build -w apps/web` first) without its precompressed copies, plus `native-shell.js`
 * (src/shell.ts bundled as one classic script: the bridge over the plugins), loaded by index.html before the boot script so
 * `window.AquaPilotNative` exists before any of the app's code runs. Throws when the web build is missing.
 */
export async function buildShellWeb(options: { webDist?: string; outDir?: string } = {}): Promise<string> {
  const here = dirname(fileURLToPath(import.meta.url));
  const mobile = resolve(here, "..");
  const webDist = options.webDist ?? resolve(mobile, "../web/dist");
  const outDir = options.outDir ?? join(mobile, "www");
  if (!existsSync(join(webDist, "index.html"))) {
    throw new Error(`${webDist}/index.html missing: run \`npm run build -w apps/web\` first`);
  }
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  cpSync(webDist, outDir, { recursive: true, filter: (src) => !/\.(br|gz)$/.test(src) });
  await build({
    configFile: false,
    logLevel: "warn",
    root: mobile,
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
 * Puts `<script src="./native-shell.js"></script>` right before the boot script (inline since decision 52: the tag
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
