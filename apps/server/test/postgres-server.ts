import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "./free-port.ts";

/** The newest PostgreSQL binaries folder (Debian: /usr/lib/postgresql/<version>/bin), or null when none is installed. */
export function findPgBin(): string | null {
  const root = "/usr/lib/postgresql";
  if (!fs.existsSync(root)) return null;
  const versions = fs
    .readdirSync(root)
    .filter((v) => fs.existsSync(path.join(root, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(root, versions[0], "bin") : null;
}

/**
 * Starts a throwaway PostgreSQL cluster from `bin` (initdb + pg_ctl, as the `postgres` OS user when running as root,
 * since PostgreSQL refuses root) on 127.0.0.1 and a free port, with fsync off; `url` is the maintenance database of
 * the superuser `postgres` (trust authentication), `stop()` stops it and deletes its folder. The test suite's global
 * setup and the fleet benchmark's scale-out (bench/fleet-scale-out.ts) use it.
 * @throws with the server's log when it does not start.
 */
export async function startThrowawayPostgres(bin: string): Promise<{ url: string; stop: () => void }> {
  const asRoot = process.getuid?.() === 0;
  const run = (cmd: string, args: string[]) =>
    asRoot
      ? execFileSync("runuser", ["-u", "postgres", "--", path.join(bin, cmd), ...args], { stdio: "pipe" })
      : execFileSync(path.join(bin, cmd), args, { stdio: "pipe" });

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "aquapilot-pg-"));
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
    fs.chownSync(dir, uid, gid);
  }
  const data = path.join(dir, "data");
  const port = await freePort();
  try {
    run("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync"]);
    run("pg_ctl", [
      "-D",
      data,
      "-l",
      path.join(dir, "server.log"),
      "-o",
      `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off`,
      "-w",
      "-t",
      "60",
      "start",
    ]);
  } catch (err) {
    const log = fs.existsSync(path.join(dir, "server.log"))
      ? fs.readFileSync(path.join(dir, "server.log"), "utf8")
      : "";
    const stderr = (err as { stderr?: Buffer }).stderr?.toString() ?? "";
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`Could not start a throwaway PostgreSQL: ${(err as Error).message}\n${stderr}\n${log}`);
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => {
      try {
        run("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
