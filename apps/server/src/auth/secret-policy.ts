/**
 * What counts as a weak secret (docs/security.md). Production refuses to start
 * with one: {@link weakSecretProblems} checks the secrets given in the environment (config.ts calls it when
 * APP_ENV=production), {@link isWeakKey} the key files kept in DATA_DIR (auth/secrets.ts, every environment).
 * Messages name the variable or file and never contain the secret.
 */

/**
 * Values that are no secret: placeholders from examples and tutorials, this project's names and its demo password,
 * and the stand-ins its tests use. Compared case-insensitively, ignoring surrounding spaces.
 */
export const KNOWN_WEAK_SECRETS: ReadonlySet<string> = new Set([
  "",
  "secret",
  "secret-key",
  "secretkey",
  "mysecret",
  "my-secret",
  "your-secret",
  "your_secret",
  "yoursecret",
  "supersecret",
  "super-secret",
  "changeme",
  "change-me",
  "change_me",
  "changethis",
  "change-this",
  "password",
  "passw0rd",
  "p@ssw0rd",
  "admin",
  "root",
  "default",
  "example",
  "test",
  "testing",
  "key",
  "dev",
  "development",
  "demo",
  "demo1234",
  "aquapilot",
  "aquapilot-secret",
  "postgres",
  "mosquitto",
  "guest",
  "12345678",
  "123456789",
  "1234567890",
  "0123456789abcdef",
  "0123456789abcdef0123456789abcdef",
  "00000000000000000000000000000000",
  "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
]);

/** Shortest EXTERNAL_CALLBACK_SECRET production accepts (characters): 32, as long as a generated one is bytes. */
export const MIN_CALLBACK_SECRET_LENGTH = 32;
/** Shortest JPUSH_MASTER_SECRET production accepts (the ones JPush hands out have 24 characters). */
export const MIN_JPUSH_SECRET_LENGTH = 16;

/** Whether `value` is a known placeholder or repeats too few characters to be random (fewer than 8 distinct). */
export function isKnownWeak(value: string): boolean {
  const v = value.trim().toLowerCase();
  return KNOWN_WEAK_SECRETS.has(v) || new Set(v).size < 8;
}

/**
 * Whether a key read from a file is too weak to use: shorter than 32 bytes, or so repetitive that it cannot have come
 * from a random generator (fewer than 16 distinct byte values: 32 random bytes have about 30).
 */
export function isWeakKey(key: Uint8Array): boolean {
  return key.length < 32 || new Set(key).size < 16;
}

/** The password of a connection URL, or null when it has none (or the URL does not parse). */
function urlPassword(url: string | undefined): string | null {
  if (!url || !URL.canParse(url)) return null;
  const password = decodeURIComponent(new URL(url).password);
  return password === "" ? null : password;
}

/** The environment secrets {@link weakSecretProblems} looks at (all optional, as in AppConfig). */
export interface SecretSettings {
  EXTERNAL_CALLBACK_SECRET?: string;
  JPUSH_APP_KEY: string;
  JPUSH_MASTER_SECRET: string;
  VAPID_PRIVATE_KEY?: string;
  DATABASE_URL?: string;
  MQTT_URL?: string;
  SMTP_URL?: string;
  REDIS_URL?: string;
}

/**
 * The weak or missing secrets of a production configuration, one line per variable, naming it and the rule it breaks
 * (never the value): EXTERNAL_CALLBACK_SECRET shorter than {@link MIN_CALLBACK_SECRET_LENGTH} or known
 * ({@link isKnownWeak}); JPUSH_MASTER_SECRET missing while JPUSH_APP_KEY is set, shorter than
 * {@link MIN_JPUSH_SECRET_LENGTH} or known; VAPID_PRIVATE_KEY not 32 bytes of base64url or repetitive; the password
 * in DATABASE_URL, MQTT_URL, SMTP_URL or REDIS_URL known. Secrets left unset are generated into DATA_DIR (random,
 * 32 bytes) and are fine. Empty list = nothing to object to.
 */
export function weakSecretProblems(s: SecretSettings): string[] {
  const problems: string[] = [];
  const cb = s.EXTERNAL_CALLBACK_SECRET;
  if (cb !== undefined) {
    if (cb.length < MIN_CALLBACK_SECRET_LENGTH) {
      problems.push(
        `EXTERNAL_CALLBACK_SECRET: too short for production (at least ${MIN_CALLBACK_SECRET_LENGTH} characters; or leave it unset to have one generated)`,
      );
    } else if (isKnownWeak(cb)) {
      problems.push("EXTERNAL_CALLBACK_SECRET: a known or repetitive value; use a random one");
    }
  }
  if (s.JPUSH_APP_KEY && !s.JPUSH_MASTER_SECRET) {
    problems.push("JPUSH_MASTER_SECRET: missing while JPUSH_APP_KEY is set");
  } else if (s.JPUSH_MASTER_SECRET) {
    if (s.JPUSH_MASTER_SECRET.length < MIN_JPUSH_SECRET_LENGTH || isKnownWeak(s.JPUSH_MASTER_SECRET)) {
      problems.push("JPUSH_MASTER_SECRET: too short or a known value; use the master secret of your JPush application");
    }
  }
  if (s.VAPID_PRIVATE_KEY !== undefined) {
    const key = /^[A-Za-z0-9_-]+$/.test(s.VAPID_PRIVATE_KEY)
      ? Buffer.from(s.VAPID_PRIVATE_KEY, "base64url")
      : new Uint8Array();
    if (key.length !== 32 || isWeakKey(key)) {
      problems.push(
        "VAPID_PRIVATE_KEY: not a random P-256 private key (32 bytes, base64url); or leave both VAPID keys unset",
      );
    }
  }
  for (const name of ["DATABASE_URL", "MQTT_URL", "SMTP_URL", "REDIS_URL"] as const) {
    const password = urlPassword(s[name]);
    if (password !== null && KNOWN_WEAK_SECRETS.has(password.trim().toLowerCase())) {
      problems.push(`${name}: its password is a well-known default; set a strong one`);
    }
  }
  return problems;
}
