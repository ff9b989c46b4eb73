/**
 * Secrets never reach a log line, whatever a field or a parameter is called: every line the server's logger writes
 * passes through {@link redactLogLine} (pino's `hooks.streamWrite`, app.ts `createLogger`), which judges each field and
 * each query parameter by its name ({@link isSecretName}) and each text by its shape (a bearer credential, a JSON Web
 * Token), instead of a list of known paths that a new parameter (`confirmPassword`, `smsCode`) would slip past.
 * docs/security.md "Logs" states the rule.
 */

/** What replaces a secret in a log line. */
export const REDACTED = "[redacted]";

/**
 * Words that make a name a secret's wherever they stand in it: `password`, `newPassword`, `confirm_password`,
 * `client_secret`, `refreshToken`, `setupTicket`; `x-api-key`'s `api` + `key` is judged by the last word below.
 */
const SECRET_WORDS = new Set([
  "password",
  "passwd",
  "pwd",
  "passphrase",
  "secret",
  "token",
  "authorization",
  "cookie",
  "credential",
  "credentials",
  "otp",
  "totp",
  "pin",
  "signature",
  "apikey",
  "installationid",
  "ticket",
]);

/**
 * Words before a final "code" that make it a description rather than a secret: `statusCode`, `errorCode`,
 * `countryCode`, `languageCode`, `regionCode`, `exitCode`, `reasonCode`, `resultCode`, `areaCode`.
 */
const DESCRIPTIVE_CODES = new Set([
  "status",
  "error",
  "country",
  "language",
  "region",
  "exit",
  "reason",
  "result",
  "area",
]);

/** The lower-case words of a name in camelCase, snake_case, kebab-case or dotted form. */
function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/**
 * Whether a field or parameter called `name` holds a secret: a name with a word of {@link SECRET_WORDS} (password,
 * secret, token, cookie, …), or one ending in "code" (a verification, share or authorization code) unless a
 * descriptive word comes before it ({@link DESCRIPTIVE_CODES}: statusCode, errorCode), or ending in "key"
 * (apiKey, privateKey, idempotency keys). A bare "code" is a secret; an error's code is spared by the caller
 * ({@link redactValue} leaves the `err` object's own `code`).
 */
export function isSecretName(name: string): boolean {
  const words = wordsOf(name);
  if (words.length === 0) return false;
  if (words.some((w) => SECRET_WORDS.has(w)) || SECRET_WORDS.has(words.join(""))) return true;
  const last = words[words.length - 1];
  if (last === "code") return !(words.length > 1 && DESCRIPTIVE_CODES.has(words[words.length - 2]));
  return last === "key";
}

/** `name=value` pairs of a URL's query or a form body: the name, then the value up to `&`, `#`, a quote or a space. */
const PARAMETER = /(^|[?&;\s])([^=&#?\s"']+)=([^&#\s"']*)/g;
/**
 * A URL path segment and the one after it (`/setup-ticket/<ticket>`): a value in a path is named by the segment
 * before it, as a query value is by its parameter name.
 */
const PATH_VALUE = /(?<=\/([A-Za-z0-9_.-]+)\/)[^/?#\s"']+/g;
/** `Bearer <credential>` and `Basic <credential>` in any text (an Authorization header copied into a message). */
const AUTH_SCHEME = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi;
/** A JSON Web Token: three base64url parts, the first a JSON header (`eyJ…`). */
const JWT = /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g;
/** `userinfo@` of a URL with a password (`smtp://user:pass@host`, `redis://:pass@host`). */
const URL_PASSWORD = /(\b[a-z][a-z0-9+.-]*:\/\/[^:/@\s]*:)[^@/\s]+@/gi;

/**
 * `text` with every secret it carries replaced by {@link REDACTED}: values of secret query and form parameters
 * (by {@link isSecretName}), path segments that follow a segment named like a secret (`/setup-ticket/<ticket>`),
 * bearer and basic credentials, JSON Web Tokens and passwords in URLs.
 */
export function redactText(text: string): string {
  return text
    .replace(PARAMETER, (all, sep: string, name: string) => (isSecretName(name) ? `${sep}${name}=${REDACTED}` : all))
    .replace(PATH_VALUE, (value, name: string) => (isSecretName(name) ? REDACTED : value))
    .replace(AUTH_SCHEME, (_all, scheme: string) => `${scheme} ${REDACTED}`)
    .replace(JWT, REDACTED)
    .replace(URL_PASSWORD, `$1${REDACTED}@`);
}

/**
 * A copy of a parsed log value with secrets redacted: under a secret name ({@link isSecretName}) the whole value
 * becomes {@link REDACTED}; texts go through {@link redactText}; objects and arrays are walked. Inside an `err` object
 * (pino's serialized error) the error's own `code` stays: it names the failure (ECONNREFUSED, FST_ERR_…).
 */
export function redactValue(value: unknown, key?: string, parentKey?: string): unknown {
  if (key !== undefined && isSecretName(key) && !(key === "code" && parentKey === "err")) {
    return value === null || value === undefined || value === "" ? value : REDACTED;
  }
  if (typeof value === "string") return redactText(value);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, undefined, key));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactValue(v, k, key);
    return out;
  }
  return value;
}

/**
 * One line the logger is about to write, redacted: a JSON line (pino's) is parsed, redacted by {@link redactValue}
 * and written back with its newline; a line that is not JSON goes through {@link redactText}.
 */
export function redactLogLine(line: string): string {
  const newline = line.endsWith("\n") ? "\n" : "";
  const body = newline ? line.slice(0, -1) : line;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return redactText(line);
  }
  return JSON.stringify(redactValue(parsed)) + newline;
}
