import { randomUUID } from "node:crypto";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import nodemailer from "nodemailer";
import { z } from "zod";
import type { Db } from "../db/index.js";

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
  constructor(
    smtpUrl: string,
    private readonly from = "AquaPilot <no-reply@aquapilot.local>",
  ) {
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
 * Writes the whole message, codes included, to the server log at info level. Used when no SMTP server or SMS
 * provider is configured: in the demo it is the only way to read a code besides GET /dev/outbox.
 */
export class LogSender implements Mailer, SmsSender {
  constructor(
    private readonly logger: FastifyBaseLogger,
    private readonly channel: "email" | "sms",
  ) {}
  async send(message: OutgoingMessage): Promise<void> {
    this.logger.info(
      { channel: this.channel, recipient: message.recipient },
      `outbox ${this.channel} to ${message.recipient}: ${message.subject} — ${message.body}`,
    );
  }
}

/** Sends e-mails and SMS and keeps a copy of each in the `outbox` table. */
export interface Notifier {
  /** Stores the e-mail in the outbox, then delivers it. @throws when delivery fails (the outbox row stays). */
  sendEmail(message: OutgoingMessage): Promise<void>;
  /** Stores the SMS in the outbox, then delivers it. @throws when delivery fails. */
  sendSms(message: OutgoingMessage): Promise<void>;
}

/**
 * The notifier of the app: e-mail through SMTP when `smtpUrl` is set, else to the log; SMS to the log; every message
 * also stored in `outbox`. `mailer` / `sms` replace the defaults (tests, other providers).
 */
export function createNotifier(opts: {
  db: Db;
  logger: FastifyBaseLogger;
  smtpUrl?: string;
  mailer?: Mailer;
  sms?: SmsSender;
  now?: () => Date;
}): Notifier {
  const now = opts.now ?? (() => new Date());
  const mailer = opts.mailer ?? (opts.smtpUrl ? new SmtpMailer(opts.smtpUrl) : new LogSender(opts.logger, "email"));
  const sms = opts.sms ?? new LogSender(opts.logger, "sms");
  const keep = (channel: string, m: OutgoingMessage) =>
    opts.db
      .insertInto("outbox")
      .values({
        id: randomUUID(),
        channel,
        recipient: m.recipient,
        subject: m.subject,
        body: m.body,
        created_at: now().toISOString(),
      })
      .execute();
  return {
    async sendEmail(message) {
      await keep("email", message);
      await mailer.send(message);
    },
    async sendSms(message) {
      await keep("sms", message);
      await sms.send(message);
    },
  };
}

/** One row of GET /dev/outbox. */
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

/**
 * Registers `GET /dev/outbox[?recipient=…]` (JSON list, newest first) — the demo's and the end-to-end tests' way to
 * read codes. Call only outside production: it exposes every code sent.
 */
export function registerDevOutboxRoute(app: FastifyInstance, db: Db): void {
  app.get(
    "/dev/outbox",
    { schema: { querystring: z.object({ recipient: z.string().max(256).optional() }) } },
    async (request) => {
      const { recipient } = request.query as { recipient?: string };
      return listOutbox(db, recipient);
    },
  );
}
