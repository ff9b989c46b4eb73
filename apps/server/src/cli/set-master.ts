/**
 * Operator script (spec §6 "device master"): grants or withdraws the master flag of one account. No HTTP endpoint
 * grants it. Uses the server's configuration (DATABASE_URL or the SQLite file in DATA_DIR).
 *
 *   node apps/server/src/cli/set-master.ts <email> [--off]
 *
 * A running server sees the change within AUTH_CACHE_MS (default 5 s): grantedPolicies come from the signed-in
 * user, whose token check each server process keeps that long, and this script's own process has no way
 * onto the servers' bus. Exit codes: 0 done, 1 no live account with that e-mail, 2 bad usage or configuration.
 */
import { pathToFileURL } from "node:url";
import type { Bus } from "../bus.ts";
import { type Db, openDatabase } from "../db/index.ts";
import { loadCliConfig } from "./cli-config.ts";

/**
 * Sets users.is_master of the live account with `email` (compared trimmed, lower case) to 1 (`master` true) or 0.
 * Answers whether such an account exists. With `bus` (a caller inside a server process) it publishes `user.changed`,
 * so the processes on that bus drop the user's cached token checks at once.
 */
export async function setMaster(db: Db, email: string, master: boolean, bus?: Pick<Bus, "publish">): Promise<boolean> {
  const row = await db
    .updateTable("users")
    .set({ is_master: master ? 1 : 0 })
    .where("email", "=", email.trim().toLowerCase())
    .where("is_deleted", "=", 0)
    .returning("id")
    .executeTakeFirst();
  if (row) bus?.publish({ type: "user.changed", userId: row.id });
  return row !== undefined;
}

async function main(argv: string[]): Promise<number> {
  const args = argv.filter((a) => a !== "--off");
  if (args.length !== 1 || argv.some((a) => a.startsWith("--") && a !== "--off")) {
    process.stderr.write("usage: node apps/server/src/cli/set-master.ts <email> [--off]\n");
    return 2;
  }
  const config = loadCliConfig();
  if (!config) return 2;
  const master = !argv.includes("--off");
  const { db } = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    const found = await setMaster(db, args[0], master);
    if (!found) {
      process.stderr.write(`no live account with e-mail ${args[0]}\n`);
      return 1;
    }
    process.stdout.write(`${args[0]} is ${master ? "now" : "no longer"} a device master\n`);
    return 0;
  } finally {
    await db.destroy();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      process.stderr.write(`${(err as Error).stack ?? err}\n`);
      process.exit(2);
    },
  );
}
