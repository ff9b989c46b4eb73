import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The shells' CI check: `cap sync` works offline on a fresh clone, and the committed native projects are what it
 * generates. Copies the tracked files of `apps/mobile` (`git ls-files`, as a fresh clone has them; their working-tree
 * content, so an edit is checked before it is committed) into a temporary repository beside it (`apps/.cap-sync-check-*`, ignored) with a
 * stand-in web directory and the installed node_modules, runs the Capacitor CLI there with every proxy pointed at a closed port (no
 * network), and asks git what changed. Returns the files `cap sync` changed or added outside the projects'
 * .gitignore (paths relative to apps/mobile; empty = in sync) and the CLI's output; throws when `cap sync` fails.
 */
export function checkNativeProjects(): { changed: string[]; output: string } {
  const here = dirname(fileURLToPath(import.meta.url));
  const mobile = resolve(here, "..");
  const repo = resolve(mobile, "../..");
  const tracked = execFileSync("git", ["ls-files", "--", "apps/mobile"], { cwd: repo, encoding: "utf8" })
    .split("\n")
    .filter((f) => f && !f.includes("/__mocks__/"));
  // A sibling of apps/mobile: the same depth, so the generated paths to the repository's node_modules are the same
  // (the CLI writes them relative to the real path of each package).
  const work = mkdtempSync(join(repo, "apps", ".cap-sync-check-"));
  try {
    const app = work;
    for (const file of tracked) {
      const target = join(work, relative("apps/mobile", file));
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, readFileSync(join(repo, file)));
    }
    // the packages as npm ci installs them (found up the tree); a stand-in web build (the e2e test loads the real one)
    mkdirSync(join(app, "www"), { recursive: true });
    writeFileSync(join(app, "www/index.html"), "<!doctype html><title>AquaPilot</title>\n");
    // a repository of the copy, so git says what cap sync changed or added (the projects' own .gitignore applies)
    const git = (...args: string[]) => execFileSync("git", args, { cwd: work, encoding: "utf8" });
    git("init", "-q");
    writeFileSync(join(work, ".git/info/exclude"), "/www/\n");
    git("add", "-A");
    const closed = "http://127.0.0.1:9";
    const output = execFileSync(process.execPath, [join(repo, "node_modules/@capacitor/cli/bin/capacitor"), "sync"], {
      cwd: app,
      encoding: "utf8",
      env: {
        ...process.env,
        CI: "1",
        CAPACITOR_TELEMETRY: "false",
        HTTP_PROXY: closed,
        HTTPS_PROXY: closed,
        http_proxy: closed,
        https_proxy: closed,
        npm_config_offline: "true",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    // " M" changed after staging, "??" new; the stand-in www is excluded
    const changed = git("status", "--porcelain", "--untracked-files=all")
      .split("\n")
      .filter((line) => line && (line[1] !== " " || line.startsWith("??")))
      .map((line) => line.slice(3));
    return { changed, output };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { changed } = checkNativeProjects();
  if (changed.length) {
    console.error(
      `cap sync changed committed files (run \`npm run sync -w apps/mobile\` and commit):\n  ${changed.join("\n  ")}`,
    );
    process.exit(1);
  }
  console.log("native projects in sync with cap sync");
}
