/**
 * Operator script of the service team: lists after-sales requests and marks one handled with
 * a reply, which the owner then reads in the app (and can no longer edit or withdraw). Uses the server's
 * configuration (DATABASE_URL or the SQLite file in DATA_DIR).
 *
 *   npm run after-sale -- list [--unhandled] [--limit N] [--json]
 *   npm run after-sale -- handle <id> --reply "…"
 *
 * Exit codes: 0 done, 1 no such request or already handled, 2 bad usage or configuration.
 */
import { pathToFileURL } from "node:url";
import { openDatabase } from "../db/index.ts";
import { handleAfterSale, listAfterSalesForService, type ServiceAfterSale } from "../modules/after-sale/index.ts";
import { loadCliConfig } from "./cli-config.ts";

const USAGE =
  'usage: npm run after-sale -- list [--unhandled] [--limit N] [--json]\n       npm run after-sale -- handle <id> --reply "…"\n';

/** Where the CLI writes; tests pass collectors. */
export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

const oneLine = (s: string, max: number) => {
  const flat = s.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** The human-readable block of one request in `list` output. */
export function formatAfterSale(a: ServiceAfterSale): string {
  const who = [a.userName, a.email, a.phoneNumber].filter(Boolean).join(" / ");
  const lines = [
    `${a.id}  ${a.handled ? "HANDLED" : "OPEN"}  ${a.creationTime}`,
    `  from:    ${who}${a.contactPhone ? `  (contact ${a.contactPhone})` : ""}`,
    `  device:  ${a.deviceName} (${a.deviceId})`,
    `  text:    ${oneLine(a.description, 200)}`,
  ];
  if (a.photos.length > 0) lines.push(`  photos:  ${a.photos.join(" ")}`);
  if (a.diagnostics) {
    const d = a.diagnostics;
    const closes = d.events.filter((e) => e.closeReason !== null).map((e) => e.closeReason);
    lines.push(
      `  diag:    firmware ${d.firmwareVersion ?? "?"}, model ${d.model ?? "?"}, ${d.online ? "online" : "offline"}, ` +
        `${d.events.length} events (closes: ${closes.length ? closes.join(",") : "none"}), ` +
        `${d.dailyUsage.reduce((s, u) => s + u.waterL, 0).toFixed(0)} L / ` +
        `${d.dailyUsage.reduce((s, u) => s + u.regenerations, 0)} regenerations in 30 d`,
    );
  }
  if (a.handled) lines.push(`  reply:   ${oneLine(a.reply ?? "", 200)} (${a.handledTime})`);
  return lines.join("\n");
}

/**
 * Runs the after-sale CLI with `argv` (without node and script) against `db`; answers the exit code.
 * `now` is the clock for the handled time.
 */
export async function runAfterSaleCli(
  db: Parameters<typeof listAfterSalesForService>[0],
  argv: string[],
  io: CliIo,
  now: () => Date = () => new Date(),
): Promise<number> {
  const [command, ...rest] = argv;
  if (command === "list") {
    const allowed = new Set(["--unhandled", "--json", "--limit"]);
    let limit = 100;
    for (let i = 0; i < rest.length; i++) {
      if (!allowed.has(rest[i])) {
        io.err(USAGE);
        return 2;
      }
      if (rest[i] === "--limit") {
        limit = Number(rest[++i]);
        if (!Number.isInteger(limit) || limit < 1) {
          io.err(USAGE);
          return 2;
        }
      }
    }
    const items = await listAfterSalesForService(db, { unhandled: rest.includes("--unhandled"), limit });
    if (rest.includes("--json")) io.out(`${JSON.stringify(items, null, 2)}\n`);
    else if (items.length === 0) io.out("no after-sales requests\n");
    else io.out(`${items.map(formatAfterSale).join("\n\n")}\n`);
    return 0;
  }
  if (command === "handle") {
    const at = rest.indexOf("--reply");
    const reply = at >= 0 ? rest[at + 1] : undefined;
    const others = rest.filter((_, i) => i !== at && i !== at + 1);
    if (others.length !== 1 || others[0].startsWith("--") || !reply?.trim()) {
      io.err(USAGE);
      return 2;
    }
    const result = await handleAfterSale({ db, now }, others[0], reply);
    if (result === "not-found") {
      io.err(`no after-sales request ${others[0]}\n`);
      return 1;
    }
    if (result === "already-handled") {
      io.err(`after-sales request ${others[0]} is already handled\n`);
      return 1;
    }
    io.out(`after-sales request ${result.id} marked handled at ${result.handledTime}\n`);
    return 0;
  }
  io.err(USAGE);
  return 2;
}

async function main(argv: string[]): Promise<number> {
  const config = loadCliConfig();
  if (!config) return 2;
  const { db } = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    return await runAfterSaleCli(db, argv, {
      out: (t) => process.stdout.write(t),
      err: (t) => process.stderr.write(t),
    });
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
