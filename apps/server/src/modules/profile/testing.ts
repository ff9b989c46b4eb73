import type { AddressInfo } from "node:net";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { SMTPServer } from "smtp-server";

/**
 * Test kit of the account and profile suites (imported by *.test.ts only): HTTP shortcuts over `app.inject`, token
 * grants, and a real SMTP sink with a small MIME decoder (subject encoded words, quoted-printable or base64 body).
 */

/** Calls the app: `token` is an access token (without "Bearer"), `lang` the Accept-Language. */
export function call(
  app: FastifyInstance,
  method: "GET" | "POST" | "PUT" | "DELETE",
  url: string,
  opts: { token?: string; query?: Record<string, string>; body?: unknown; lang?: string } = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url,
    query: opts.query,
    headers: {
      "accept-language": opts.lang ?? "en",
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
    },
    ...(opts.body !== undefined ? { payload: opts.body as object } : {}),
  });
}

/** Both tokens of a password grant. @throws when the sign-in fails. */
export async function signIn(
  app: FastifyInstance,
  username: string,
  password: string,
): Promise<{ access: string; refresh: string }> {
  const res = await app.inject({
    method: "POST",
    url: "/connect/token",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: new URLSearchParams({ grant_type: "password", username, password }).toString(),
  });
  if (res.statusCode !== 200) throw new Error(`sign-in of ${username} failed: ${res.body}`);
  const body = res.json() as { access_token: string; refresh_token: string };
  return { access: body.access_token, refresh: body.refresh_token };
}

/** The status of a refresh_token grant with `refreshToken`. */
export async function refreshStatus(app: FastifyInstance, refreshToken: string): Promise<number> {
  const res = await app.inject({
    method: "POST",
    url: "/connect/token",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken }).toString(),
  });
  return res.statusCode;
}

/** The outbox (GET /dev/outbox), newest first, for one recipient. */
export async function outbox(
  app: FastifyInstance,
  recipient: string,
): Promise<Array<{ channel: string; subject: string; body: string }>> {
  return (await app.inject({ method: "GET", url: "/dev/outbox", query: { recipient } })).json();
}

/** The 6-digit code of the newest outbox message to `recipient`. @throws when there is none. */
export async function codeFor(app: FastifyInstance, recipient: string): Promise<string> {
  const [latest] = await outbox(app, recipient);
  const code = latest?.body.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no code sent to ${recipient}`);
  return code;
}

/** A different 6-digit code than `code`. */
export function otherCode(code: string): string {
  return String((Number(code) + 1) % 1_000_000).padStart(6, "0");
}

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

/** A real SMTP server on a free port that keeps every message (decoded with {@link decodeMail}). */
export async function startSmtpSink(): Promise<{
  url: string;
  mails: Array<{ to: string; subject: string; text: string }>;
  close(): Promise<void>;
}> {
  const mails: Array<{ to: string; subject: string; text: string }> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const mail = decodeMail(Buffer.concat(chunks).toString("utf8"));
        mails.push({ ...mail, to: session.envelope.rcptTo.map((r) => r.address).join(",") });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
