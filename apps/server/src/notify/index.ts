import { randomUUID } from "node:crypto";
import { LANGUAGES, type Language } from "@aquapilot/contract";
import type { FastifyBaseLogger } from "fastify";
import { sql } from "kysely";
import nodemailer from "nodemailer";
import type { Db } from "../db/index.ts";
import { translate } from "../http/messages.ts";

/** One outgoing e-mail or SMS. */
export interface OutgoingMessage {
  /** E-mail address, or +countrycode phone number. */
  recipient: string;
  subject: string;
  body: string;
}

/** Delivers e-mails (docs/architecture.md "notify"). */
export interface Mailer {
  send(message: OutgoingMessage): Promise<void>;
}

/** Delivers SMS. No provider is wired yet: the default writes to the log. */
export interface SmsSender {
  send(message: OutgoingMessage): Promise<void>;
}

/** Sends e-mails through nodemailer to `smtpUrl` (smtp:// or smtps://user:pass@host:port). */
export class SmtpMailer implements Mailer {
  private readonly transport: nodemailer.Transporter;
  private readonly from: string;
  constructor(smtpUrl: string, from = "AquaPilot <no-reply@aquapilot.local>") {
    this.from = from;
    this.transport = nodemailer.createTransport(smtpUrl);
  }
  async send(message: OutgoingMessage): Promise<void> {
    await this.transport.sendMail({
      from: this.from,
      to: message.recipient,
      subject: message.subject,
      text: message.body,
    });
  }
}

/**
 * Notes in the server log that a message went to the outbox, with its recipient and subject but never its body: a
 * body may hold a code, and no code reaches a log. Used when no SMTP server or SMS provider is configured; outside
 * production the whole message is read at GET /dev/outbox (info level). With `withBody` false (APP_ENV=production,
 * where the outbox keeps no body either) the line is a warning that nothing was delivered.
 */
export class LogSender implements Mailer, SmsSender {
  private readonly logger: FastifyBaseLogger;
  private readonly channel: "email" | "sms";
  private readonly withBody: boolean;
  constructor(logger: FastifyBaseLogger, channel: "email" | "sms", withBody = true) {
    this.logger = logger;
    this.channel = channel;
    this.withBody = withBody;
  }
  async send(message: OutgoingMessage): Promise<void> {
    if (!this.withBody) {
      this.logger.warn(
        { channel: this.channel, recipient: message.recipient },
        `no ${this.channel} provider configured: "${message.subject}" to ${message.recipient} not delivered`,
      );
      return;
    }
    this.logger.info(
      { channel: this.channel, recipient: message.recipient },
      `outbox ${this.channel} to ${message.recipient}: "${message.subject}" (read it at GET /dev/outbox)`,
    );
  }
}

/** The body kept in the `outbox` table in production instead of the message (which may hold a code). */
export const BODY_NOT_KEPT = "[not kept in production]";

/** A message written from catalogue keys (http/messages.ts) in the recipient's language. */
export interface LocalizedMessage {
  channel: "email" | "sms";
  /** E-mail address (normalised) or +countrycode phone number. */
  recipient: string;
  /** The user the message is for, when known (e.g. a code to a new e-mail of that user): their language wins. */
  userId?: string | null;
  /** The caller's language (Accept-Language), used when no user is known for the recipient. */
  fallbackLanguage: Language;
  subjectKey: string;
  bodyKey: string;
  params?: Record<string, string | number>;
}

/** Sends e-mails and SMS and keeps a copy of each in the `outbox` table. */
export interface Notifier {
  /** Stores the e-mail in the outbox, then delivers it. @throws when delivery fails (the outbox row stays). */
  sendEmail(message: OutgoingMessage): Promise<void>;
  /** Stores the SMS in the outbox, then delivers it. @throws when delivery fails. */
  sendSms(message: OutgoingMessage): Promise<void>;
  /**
   * The language to write to a recipient in (spec §7 change_language-type: "e-mails and messages go out in it"):
   * the stored language of `userId` when given, else of the live user whose e-mail or +countrycode phone is
   * `recipient`, else `fallback`.
   */
  languageFor(recipient: string, fallback: Language, userId?: string | null): Promise<Language>;
  /** Writes the message in {@link Notifier.languageFor} and sends it; answers the language used. @throws on failure. */
  sendLocalized(message: LocalizedMessage): Promise<Language>;
}

function asLanguage(value: string | undefined): Language | null {
  return (LANGUAGES as readonly string[]).includes(value ?? "") ? (value as Language) : null;
}

/**
 * The notifier of the app: e-mail through SMTP when `smtpUrl` is set, else to the log; SMS to the log; every message
 * also stored in `outbox`. `mailer` / `sms` replace the defaults (tests, other providers). `db` also answers the
 * recipient's stored language for {@link Notifier.sendLocalized}. `production` (APP_ENV=production): no
 * message body — codes — in the log or the `outbox` table ({@link BODY_NOT_KEPT}); recipient, subject and time stay.
 */
export function createNotifier(opts: {
  db: Db;
  logger: FastifyBaseLogger;
  smtpUrl?: string;
  mailer?: Mailer;
  sms?: SmsSender;
  now?: () => Date;
  production?: boolean;
}): Notifier {
  const now = opts.now ?? (() => new Date());
  const withBody = !opts.production;
  const mailer =
    opts.mailer ?? (opts.smtpUrl ? new SmtpMailer(opts.smtpUrl) : new LogSender(opts.logger, "email", withBody));
  const sms = opts.sms ?? new LogSender(opts.logger, "sms", withBody);
  const keep = (channel: string, m: OutgoingMessage) =>
    opts.db
      .insertInto("outbox")
      .values({
        id: randomUUID(),
        channel,
        recipient: m.recipient,
        subject: m.subject,
        body: withBody ? m.body : BODY_NOT_KEPT,
        created_at: now().toISOString(),
      })
      .execute();
  const notifier: Notifier = {
    async sendEmail(message) {
      await keep("email", message);
      await mailer.send(message);
    },
    async sendSms(message) {
      await keep("sms", message);
      await sms.send(message);
    },
    async languageFor(recipient, fallback, userId) {
      let q = opts.db.selectFrom("users").select("language_type").where("is_deleted", "=", 0);
      if (userId) q = q.where("id", "=", userId);
      else if (recipient.includes("@")) q = q.where("email", "=", recipient.trim().toLowerCase());
      // "||" concatenates text on SQLite and PostgreSQL alike; a phone target is "+<country code><digits>".
      else q = q.where(sql<string>`country_code || phone_number`, "=", recipient.trim());
      const row = await q.executeTakeFirst();
      return asLanguage(row?.language_type) ?? fallback;
    },
    async sendLocalized(m) {
      const lang = await notifier.languageFor(m.recipient, m.fallbackLanguage, m.userId);
      const out = {
        recipient: m.recipient,
        subject: translate(lang, m.subjectKey, m.params),
        body: translate(lang, m.bodyKey, m.params),
      };
      if (m.channel === "email") await notifier.sendEmail(out);
      else await notifier.sendSms(out);
      return lang;
    },
  };
  return notifier;
}

/** One row of the outbox (what the development launcher's GET /dev/outbox answers). */
export interface OutboxEntry {
  id: string;
  channel: string;
  recipient: string;
  subject: string;
  body: string;
  createdAt: string;
}

/** The outbox, newest first, optionally for one recipient (e-mail compared case-insensitively). */
export async function listOutbox(db: Db, recipient?: string, limit = 100): Promise<OutboxEntry[]> {
  let q = db.selectFrom("outbox").selectAll();
  if (recipient) q = q.where("recipient", "=", recipient.includes("@") ? recipient.trim().toLowerCase() : recipient);
  const rows = await q.orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).execute();
  return rows.map((r) => ({
    id: r.id,
    channel: r.channel,
    recipient: r.recipient,
    subject: r.subject,
    body: r.body,
    createdAt: r.created_at,
  }));
}
