import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/** One e-mail received by the sink: envelope recipients and the raw RFC 5322 text (headers and body). */
export interface ReceivedMail {
  to: string[];
  from: string;
  raw: string;
}

/** A real SMTP server on 127.0.0.1 that keeps what it receives (the sink for tests; SMTP_URL points at it). */
export interface SmtpSink {
  /** `smtp://127.0.0.1:<port>` for SMTP_URL. */
  url: string;
  received: ReceivedMail[];
  /** Mails whose envelope recipient is `address` (case-insensitive), oldest first. */
  to(address: string): ReceivedMail[];
  close(): Promise<void>;
}

/** Starts an SMTP sink on a free loopback port: no TLS, no authentication needed. */
export async function startSmtpSink(): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        received.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    to: (address) => received.filter((m) => m.to.some((t) => t.toLowerCase() === address.toLowerCase())),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
