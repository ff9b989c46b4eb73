/**
 * Operator script (platform announcements): stores a type-3 message for every active user, or for the one
 * user with `--user <email>`. Uses the server's configuration (DATABASE_URL or the SQLite file in DATA_DIR).
 *
 *   npm run announce -- --title "Maintenance tonight" --content "The service pauses 02:00–02:30." [--user a@b.c]
 *     [--title-fr "Maintenance ce soir" --content-fr "Le service s'interrompt de 02:00 à 02:30." …]
 *
 * `--title-<lang>`/`--content-<lang>` (lang: zh-Hans, en, es, ru, fr) add the announcement in other languages: each
 * reader gets the one in their current language, and `--title`/`--content` when it is not among them.
 *
 * The messages are stored unpublished; the running server's message worker delivers them (hub 2 ReceiveMessage and
 * push) within seconds, or at its next start. Exit codes: 0 done, 1 no live account with that e-mail, 2 bad usage
 * or configuration.
 */
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { LANGUAGES, type Language } from "@aquapilot/contract";
import { pino } from "pino";
import { InProcessBus } from "../bus.ts";
import type { AppConfig } from "../config.ts";
import { type Db, openDatabase } from "../db/index.ts";
import { MessageCenter } from "../modules/message/index.ts";
import { createPushService } from "../modules/push/index.ts";
import { loadCliConfig } from "./cli-config.ts";

/** Longest announcement title and content accepted, characters. */
export const ANNOUNCE_LIMITS = { title: 200, content: 4000 } as const;

/**
 * Stores an announcement (unpublished, for the server's worker to deliver) for every live user or for the live user
 * with e-mail `userEmail` (trimmed, lower case). Answers the number of messages stored and the source key, or null
 * when `userEmail` names no live account.
 * @throws RangeError when the title or content is empty or longer than {@link ANNOUNCE_LIMITS}.
 */
export async function storeAnnouncement(
  db: Db,
  config: AppConfig,
  input: {
    title: string;
    content: string;
    userEmail?: string;
    texts?: Partial<Record<Language, { title: string; content: string }>>;
  },
): Promise<{ count: number; sourceKey: string } | null> {
  const checked = (t: { title: string; content: string }) => {
    const title = t.title.trim();
    const content = t.content.trim();
    if (!title || title.length > ANNOUNCE_LIMITS.title) throw new RangeError("title must be 1–200 characters");
    if (!content || content.length > ANNOUNCE_LIMITS.content) throw new RangeError("content must be 1–4000 characters");
    return { title, content };
  };
  const { title, content } = checked(input);
  let texts: Partial<Record<Language, { title: string; content: string }>> | undefined;
  for (const [lang, text] of Object.entries(input.texts ?? {})) {
    if (!(LANGUAGES as readonly string[]).includes(lang)) throw new RangeError(`unknown language ${lang}`);
    if (text) texts = { ...texts, [lang]: checked(text) };
  }
  let userIds: string[] | undefined;
  if (input.userEmail !== undefined) {
    const user = await db
      .selectFrom("users")
      .select("id")
      .where("email", "=", input.userEmail.trim().toLowerCase())
      .where("is_deleted", "=", 0)
      .executeTakeFirst();
    if (!user) return null;
    userIds = [user.id];
  }
  const logger = pino({ level: "silent" });
  const bus = new InProcessBus();
  const center = new MessageCenter({
    db,
    bus,
    push: createPushService({ db, config, logger }),
    offlineMinutes: config.OFFLINE_MESSAGE_MINUTES,
    now: () => new Date(),
    logger,
  });
  try {
    return await center.announce({ title, content, userIds, texts }, { publish: false });
  } finally {
    await bus.close();
  }
}

const USAGE =
  'usage: npm run announce -- --title "…" --content "…" [--user <email>] [--title-<lang> "…" --content-<lang> "…"]\n';

async function main(argv: string[]): Promise<number> {
  let values: Record<string, string | undefined>;
  const perLanguage = Object.fromEntries(
    LANGUAGES.flatMap((l) => [
      [`title-${l}`, { type: "string" as const }],
      [`content-${l}`, { type: "string" as const }],
    ]),
  );
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { title: { type: "string" }, content: { type: "string" }, user: { type: "string" }, ...perLanguage },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  if (!values.title || !values.content) {
    process.stderr.write(USAGE);
    return 2;
  }
  const config = loadCliConfig();
  if (!config) return 2;
  const { db } = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    const texts: Partial<Record<Language, { title: string; content: string }>> = {};
    for (const l of LANGUAGES) {
      const t = values[`title-${l}`];
      const c = values[`content-${l}`];
      if (t !== undefined || c !== undefined) texts[l] = { title: t ?? "", content: c ?? "" };
    }
    const result = await storeAnnouncement(db, config, {
      title: values.title,
      content: values.content,
      userEmail: values.user,
      texts,
    });
    if (!result) {
      process.stderr.write(`no live account with e-mail ${values.user}\n`);
      return 1;
    }
    process.stdout.write(
      `announcement stored for ${result.count} user(s) (${result.sourceKey}); the running server delivers it\n`,
    );
    return 0;
  } catch (err) {
    if (err instanceof RangeError) {
      process.stderr.write(`${err.message}\n${USAGE}`);
      return 2;
    }
    throw err;
  } finally {
    await db.destroy();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: Error) => {
      process.stderr.write(`${err.stack ?? err.message}\n`);
      process.exit(2);
    },
  );
}
