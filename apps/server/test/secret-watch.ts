import type { FastifyInstance } from "fastify";

/**
 * The parameters of the owner API (query and body names of packages/contract's routes, plus the OAuth form and
 * answers of /connect/token) that carry a secret, chosen by hand: a password, a verification or share code, a token,
 * a ticket, a device's factory secret, a push subscription's keys, an installation id. Written independently of the
 * log redaction rule (src/security/log-redaction.ts), so a secret that rule misses is still caught here.
 */
export const SECRET_PARAMETERS: ReadonlySet<string> = new Set([
  "password",
  "confirmPassword",
  "currentPassword",
  "newPassword",
  "code",
  "ticket",
  "secret",
  "keys",
  "installationId",
  "access_token",
  "refresh_token",
  "client_secret",
]);

/**
 * The fields of answers that carry a secret: the tokens of /connect/token and the ticket of a password check. An
 * answer's `code` is an error code or a region code, not a secret; a share code an answer hands out is watched when
 * the traffic sends it back (the `code` of a scan or join).
 */
export const SECRET_ANSWER_FIELDS: ReadonlySet<string> = new Set(["access_token", "refresh_token", "ticket"]);

/**
 * The contract's other parameters, reviewed as plain data. secret-watch.test.ts fails when a route gains a parameter
 * in neither list, so every new parameter is judged once by hand.
 */
export const PLAIN_PARAMETERS: ReadonlySet<string> = new Set(
  (
    "account address attachDiagnostics avatar bindType category city command commandId contactPhone countryCode date " +
    "days description deviceId deviceIds deviceModel district email endpoint expirationTime familyId familyUserId " +
    "handled hardnessUnit id ids image ipAddress isOpen isRead keyword languageType latitude levelKg longitude mac " +
    "maxResultCount name params parentId phoneNumber photos platform preview province purpose rebind refresh " +
    "registrationId reportTimeType serviceRegion settings skipCount time ts type userId userName version volumeUnit"
  ).split(" "),
);

/** Values shorter than this are not watched: a wrong one-digit code would match unrelated log text. */
const MIN_SECRET_LENGTH = 6;

/**
 * Collects every secret a test app's traffic carried and finds the ones its log lines hold. The secrets are the
 * values of {@link SECRET_PARAMETERS} in queries and JSON and form bodies and of {@link SECRET_ANSWER_FIELDS} in JSON
 * answers (at any depth), the
 * credentials of Authorization headers, and values handed to {@link SecretWatch.remember} (codes read from the
 * development outbox, whose answers are read for codes too).
 */
export interface SecretWatch {
  /** Adds one secret value (ignored when shorter than 6 characters). */
  remember(value: string): void;
  /** Adds the hooks that collect the traffic's secrets to `app` (before it is ready). */
  watch(app: FastifyInstance): void;
  /** The secrets (masked to their first two characters) that appear in `lines`, with the first line holding each. */
  leaks(lines: readonly string[]): string[];
}

/** Creates an empty {@link SecretWatch}. */
export function createSecretWatch(): SecretWatch {
  const secrets = new Set<string>();

  function remember(value: string): void {
    if (value.length >= MIN_SECRET_LENGTH) secrets.add(value);
  }

  /**
   * Remembers the values in `data` under a name of `names`, walking objects and arrays down to 32 levels (the fuzz
   * suite sends bodies nested thousands deep, which the server refuses; their secrets are nowhere near the bottom).
   */
  function collect(data: unknown, names: ReadonlySet<string>, secretContext = false, depth = 0): void {
    if (depth > 32) return;
    if (typeof data === "string") {
      if (secretContext) remember(data);
      return;
    }
    if (typeof data === "number") {
      if (secretContext) remember(String(data));
      return;
    }
    if (Array.isArray(data)) {
      for (const item of data) collect(item, names, secretContext, depth + 1);
      return;
    }
    if (data !== null && typeof data === "object") {
      for (const [key, value] of Object.entries(data)) {
        collect(value, names, secretContext || names.has(key), depth + 1);
      }
    }
  }

  function collectQuery(url: string): void {
    const query = url.indexOf("?");
    if (query < 0) return;
    for (const [key, value] of new URLSearchParams(url.slice(query + 1))) {
      if (SECRET_PARAMETERS.has(key)) remember(value);
    }
  }

  return {
    remember,
    watch(app) {
      app.addHook("onRequest", async (request) => {
        collectQuery(request.url);
        const authorization = request.headers.authorization;
        if (authorization) remember(authorization.replace(/^\S+\s+/, ""));
      });
      app.addHook("preValidation", async (request) => {
        collect(request.body, SECRET_PARAMETERS);
      });
      app.addHook("onSend", async (request, reply, payload) => {
        const type = String(reply.getHeader("content-type") ?? "");
        if (typeof payload !== "string" || !type.includes("json")) return payload;
        // The development outbox holds the messages sent: every code in them was a secret of its recipient.
        if (request.url.startsWith("/dev/outbox")) {
          for (const code of payload.match(/\b\d{6}\b/g) ?? []) remember(code);
          return payload;
        }
        try {
          collect(JSON.parse(payload), SECRET_ANSWER_FIELDS);
        } catch {
          // Not JSON after all: nothing to collect.
        }
        return payload;
      });
    },
    leaks(lines) {
      const found: string[] = [];
      for (const secret of secrets) {
        // Digits count only as a whole number, so a code does not match inside a timestamp.
        const escaped = secret.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        const pattern = /^\d+$/.test(secret) ? new RegExp(`(?<![\\d.])${escaped}(?![\\d.])`) : new RegExp(escaped);
        const line = lines.find((l) => pattern.test(l));
        if (line !== undefined)
          found.push(`${secret.slice(0, 2)}… in: ${line.replace(pattern, "«secret»").slice(0, 300)}`);
      }
      return found;
    },
  };
}
