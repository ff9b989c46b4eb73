import type { FastifyInstance } from "fastify";

/**
 * Test kit of the account and profile suites (imported by *.test.ts only): token grants, the outbox, and a real SMTP
 * sink with a small MIME decoder (subject encoded words, quoted-printable or base64 body). API calls go through the
 * one helper, `call(app, endpoint, { as })` of test/call.ts.
 */

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

/**
 * Presents `refreshToken` at `POST /connect/token` in `lang` and answers the status and the OAuth error answer
 * (`{error, error_description, ended_reason?}`), or the token answer's body on success.
 */
export async function refreshAnswer(
  app: FastifyInstance,
  refreshToken: string,
  lang = "en",
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await app.inject({
    method: "POST",
    url: "/connect/token",
    headers: { "content-type": "application/x-www-form-urlencoded", "accept-language": lang },
    payload: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken }).toString(),
  });
  return { status: res.statusCode, body: res.json() };
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

export { decodeMail, startSmtpSink } from "../../../test/smtp-sink.ts";
