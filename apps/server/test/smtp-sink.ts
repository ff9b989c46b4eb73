import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

function decodeWords(value: string): string {
  return value.replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=\s*(?==\?)?/g, (_w, _cs, enc: string, text: string) =>
    enc.toUpperCase() === "B"
      ? Buffer.from(text, "base64").toString("utf8")
      : decodeQuotedPrintable(text.replace(/_/g, " ")),
  );
}

function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  const src = text.replace(/=\r?\n/g, "");
  for (let i = 0; i < src.length; i++) {
    if (src[i] === "=" && /^[0-9A-Fa-f]{2}$/.test(src.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(src.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(src[i], "utf8"));
  }
  return Buffer.from(bytes).toString("utf8");
}

/** Subject and text of a single-part e-mail as the SMTP sink received it. */
export function decodeMail(raw: string): { subject: string; text: string; to: string } {
  const split = raw.indexOf("\r\n\r\n");
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, " ");
  const body = raw.slice(split + 4);
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, "im").exec(head)?.[1] ?? "";
  const encoding = header("Content-Transfer-Encoding").toLowerCase();
  const text =
    encoding === "base64"
      ? Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8")
      : encoding === "quoted-printable"
        ? decodeQuotedPrintable(body)
        : body;
  return { subject: decodeWords(header("Subject")), text: text.trim(), to: header("To") };
}

/** One e-mail received by the sink: envelope recipients (joined by ","), decoded subject and text, and the raw text. */
export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
  raw: string;
}

/** A real SMTP server on 127.0.0.1 that keeps what it receives (the sink for tests; SMTP_URL points at it). */
export interface SmtpSink {
  /** `smtp://127.0.0.1:<port>` for SMTP_URL. */
  url: string;
  /** Every mail received, oldest first. */
  mails: ReceivedMail[];
  /** Mails whose envelope recipients include `address` (case-insensitive), oldest first. */
  to(address: string): ReceivedMail[];
  close(): Promise<void>;
}

/** Starts an SMTP sink on a free loopback port: no TLS, no authentication needed; mails decoded with {@link decodeMail}. */
export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const mail = decodeMail(raw);
        mails.push({ ...mail, raw, to: session.envelope.rcptTo.map((r) => r.address).join(",") });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    to: (address) => mails.filter((m) => m.to.toLowerCase().split(",").includes(address.toLowerCase())),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
