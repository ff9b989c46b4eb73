import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { freePort } from "./free-port.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** Connection string of a PostgreSQL server for the data-layer tests (a maintenance database), or null. */
    pgUrl: string | null;
    /** Why there is no PostgreSQL, when pgUrl is null. */
    pgProblem: string | null;
  }
}

function findPgBin(): string | null {
  const root = "/usr/lib/postgresql";
  if (!fs.existsSync(root)) return null;
  const versions = fs
    .readdirSync(root)
    .filter((v) => fs.existsSync(path.join(root, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(root, versions[0], "bin") : null;
}

/**
 * Vitest globalSetup of the server project: provides `pgUrl` for the data-layer tests on PostgreSQL.
 * Uses TEST_DATABASE_URL when set; otherwise starts a throwaway cluster (initdb + pg_ctl, as the `postgres` OS user
 * when running as root, since PostgreSQL refuses root) on 127.0.0.1 and a free port, with fsync off, and stops and
 * deletes it after the run. Without binaries it provides null and the reason; test/databases.ts then fails loudly
 * unless SKIP_POSTGRES=1.
 */
export default async function setup(project: TestProject) {
  project.provide("pgProblem", null);
  if (process.env.TEST_DATABASE_URL) {
    project.provide("pgUrl", process.env.TEST_DATABASE_URL);
    return;
  }
  project.provide("pgUrl", null);
  if (process.env.SKIP_POSTGRES === "1") {
    project.provide("pgProblem", "SKIP_POSTGRES=1");
    return;
  }
  const bin = findPgBin();
  if (!bin) {
    project.provide("pgProblem", "no PostgreSQL binaries under /usr/lib/postgresql/*/bin (apt-get install postgresql)");
    return;
  }
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
  project.provide("pgUrl", `postgres://postgres@127.0.0.1:${port}/postgres`);

  return () => {
    try {
      run("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
}
