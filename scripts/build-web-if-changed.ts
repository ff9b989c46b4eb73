/**
 * Builds the web app (`npm run build -w apps/web`) only when its inputs changed since the last build, for `npm start`
 * (a build takes about 40 s; an unchanged app is served from the existing apps/web/dist).
 *
 * The inputs are hashed (SHA-256 over each file's path and bytes, in path order): apps/web's src (the app, its boot
 * script and the build's first-paint plugins under src/first-paint), public, index.html, package.json, tsconfig.json,
 * its vite config and the plugin files beside it (vite*.ts), the packages the app bundles (packages/contract and
 * packages/provisioning: src and package.json), the lockfile (the bundled dependencies' versions) and the environment
 * variables the build reads (WEB_VERSION, API_URL). The hash of a successful build is
 * written to apps/web/dist/.inputs-hash; the build runs when that file is missing (no dist, or a build from elsewhere)
 * or holds another hash.
 *
 * The build's output goes to apps/web/.build.log (not tracked) and is printed only when the build fails; the script
 * then exits with the build's exit code (1 when it ended without one). Prints one line saying whether it built or
 * reused the build. `--force` builds whatever the hash says.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const ROOT = path.join(import.meta.dirname, "..");
const WEB = path.join(ROOT, "apps/web");
const DIST = path.join(WEB, "dist");
const HASH_FILE = path.join(DIST, ".inputs-hash");
const LOG_FILE = path.join(WEB, ".build.log");

/** Files and folders (relative to the repository root) whose contents the build depends on. */
const INPUTS = [
  "apps/web/src",
  "apps/web/public",
  "apps/web/index.html",
  "apps/web/package.json",
  "apps/web/tsconfig.json",
  ...fs
    .readdirSync(WEB)
    .filter((f) => /^vite.*\.ts$/.test(f) && !f.endsWith(".test.ts"))
    .map((f) => `apps/web/${f}`),
  "packages/contract/src",
  "packages/contract/package.json",
  "packages/provisioning/src",
  "packages/provisioning/package.json",
  "package-lock.json",
];

/** Environment variables the web build reads (vite.config.ts). */
const ENV_INPUTS = ["WEB_VERSION", "API_URL"];

/** Every file under `rel` (itself when a file), relative to the root, sorted; none when it does not exist. */
function filesUnder(rel: string): string[] {
  const abs = path.join(ROOT, rel);
  if (!fs.existsSync(abs)) return [];
  if (!fs.statSync(abs).isDirectory()) return [rel];
  return fs
    .readdirSync(abs, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)))
    .sort();
}

/** Hex SHA-256 of the build's inputs (files and environment variables). */
function inputsHash(): string {
  const hash = createHash("sha256");
  for (const file of INPUTS.flatMap(filesUnder)) {
    hash.update(`${file}\0`);
    hash.update(fs.readFileSync(path.join(ROOT, file)));
    hash.update("\0");
  }
  for (const name of ENV_INPUTS) hash.update(`${name}=${process.env[name] ?? ""}\0`);
  return hash.digest("hex");
}

const hash = inputsHash();
const previous = fs.existsSync(HASH_FILE) ? fs.readFileSync(HASH_FILE, "utf8").trim() : null;
if (previous === hash && fs.existsSync(path.join(DIST, "index.html")) && !process.argv.includes("--force")) {
  process.stdout.write("web app unchanged since its last build: serving apps/web/dist as it is\n");
} else {
  process.stdout.write("building the web app (apps/web changed or was never built; output in apps/web/.build.log)…\n");
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const build = spawnSync(npm, ["run", "build", "-w", "apps/web"], { cwd: ROOT, encoding: "utf8", maxBuffer: 1 << 28 });
  fs.writeFileSync(LOG_FILE, `${build.stdout ?? ""}${build.stderr ?? ""}`);
  if (build.status !== 0) {
    process.stderr.write(`${build.stdout ?? ""}${build.stderr ?? ""}`);
    process.stderr.write(`web build failed (exit ${build.status ?? build.signal ?? build.error?.message})\n`);
    process.exit(build.status || 1);
  }
  fs.writeFileSync(HASH_FILE, `${hash}\n`);
  process.stdout.write("web app built\n");
}
