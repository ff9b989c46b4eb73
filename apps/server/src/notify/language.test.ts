import { randomUUID } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, openTestDatabase, type TestDatabase } from "../../test/databases.ts";
// The modules' texts this test translates (each module registers its own when loaded).
import "../../test/catalogue.ts";
import { createNotifier, type OutgoingMessage } from "./index.ts";

describe.each(ENGINES)("notifier: the recipient's stored language (%s)", (engine) => {
  let database: TestDatabase;
  const sentMail: OutgoingMessage[] = [];
  const sentSms: OutgoingMessage[] = [];
  let userId: string;

  beforeAll(async () => {
    database = await openTestDatabase(engine);
    userId = randomUUID();
    await database.db
      .insertInto("users")
      .values({
        id: userId,
        user_name: "lang-user",
        name: null,
        email: "lang@example.com",
        phone_number: "612000111",
        country_code: "+34",
        password_hash: "x",
        service_region: 2,
        language_type: "es",
        avatar: null,
        security_stamp: randomUUID(),
        is_deleted: 0,
        creation_time: new Date().toISOString(),
      })
      .execute();
  });
  afterAll(() => database.close());

  const notifier = () =>
    createNotifier({
      db: database.db,
      logger: pino({ level: "silent" }) as unknown as FastifyBaseLogger,
      mailer: { send: async (m) => void sentMail.push(m) },
      sms: { send: async (m) => void sentSms.push(m) },
    });

  it("finds the user by e-mail (any case), by +countrycode phone, or by id; else the caller's language", async () => {
    const n = notifier();
    expect(await n.languageFor("Lang@Example.com", "fr")).toBe("es");
    expect(await n.languageFor("+34612000111", "fr")).toBe("es");
    expect(await n.languageFor("+3461200011", "fr")).toBe("fr");
    expect(await n.languageFor("someone-new@example.com", "ru", userId)).toBe("es");
    expect(await n.languageFor("unknown@example.com", "ru")).toBe("ru");
  });

  it("writes and sends a message from catalogue keys in that language, keeping it in the outbox", async () => {
    const n = notifier();
    const lang = await n.sendLocalized({
      channel: "sms",
      recipient: "+34612000111",
      fallbackLanguage: "en",
      subjectKey: "notify.reset.subject",
      bodyKey: "notify.reset.body",
      params: { code: "123456", minutes: 10 },
    });
    expect(lang).toBe("es");
    expect(sentSms.at(-1)).toEqual({
      recipient: "+34612000111",
      subject: "Restablezca su contraseña de AquaPilot",
      body: "Su código para restablecer la contraseña es 123456. Es válido durante 10 minutos. Si no lo ha solicitado, ignore este mensaje.",
    });
    const kept = await database.db.selectFrom("outbox").selectAll().where("recipient", "=", "+34612000111").execute();
    expect(kept).toHaveLength(1);
    expect(kept[0].channel).toBe("sms");
  });

  it("ignores a deleted user's language", async () => {
    await database.db.updateTable("users").set({ is_deleted: 1 }).where("id", "=", userId).execute();
    expect(await notifier().languageFor("lang@example.com", "fr")).toBe("fr");
  });
});
