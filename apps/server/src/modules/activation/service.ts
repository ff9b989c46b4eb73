import { randomBytes } from "node:crypto";
import {
  ACTIVATION_NONCE_SECONDS,
  ACTIVATION_TOKEN_MINUTES,
  type ActivationError,
  normaliseMac,
  type TActivationBegin,
  type TActivationBeginResult,
  type TActivationComplete,
  type TActivationCompleteResult,
} from "@aquapilot/contract";
import { verifyPassword } from "../../auth/passwords.ts";
import type { Db } from "../../db/index.ts";
import type { DeviceAccountsPort } from "../../ports.ts";
import { signNonce, verifyNonce } from "./nonce.ts";
import { hashActivationToken, insertActivation } from "./queries.ts";

/** What the activation services need. */
export interface ActivationDeps {
  db: Db;
  now: () => Date;
  /** HMAC key of the nonces (DATA_DIR/activation.secret). */
  nonceKey: Uint8Array;
  /** The broker URL devices are told, without credentials (see {@link deviceBrokerUrl}). */
  mqttUrl: string;
  /**
   * The broker's device accounts (an external broker the server provisions): step two, holding the device's checked
   * secret, provisions its account before answering, so the CONNECT that follows is accepted. Absent: nothing to
   * provision.
   */
  accounts?: DeviceAccountsPort;
}

/** HTTP status of each activation error (`{error}` bodies; packages/contract/src/activation.ts). */
export const ACTIVATION_ERROR_STATUS: Record<ActivationError, number> = {
  "invalid-request": 400,
  "bad-credentials": 401,
  "unknown-device": 404,
  "nonce-invalid": 409,
  "rate-limited": 429,
};

/** A refused activation call; the routes answer `{error}` with {@link ACTIVATION_ERROR_STATUS}. */
export class ActivationFailure extends Error {
  readonly status: number;
  readonly error: ActivationError;
  constructor(error: ActivationError) {
    super(`activation refused: ${error}`);
    this.error = error;
    this.name = "ActivationFailure";
    this.status = ACTIVATION_ERROR_STATUS[error];
  }
}

/**
 * `url` without user name, password, query or fragment and without a trailing slash (e.g. "mqtt://h:1883"), so a
 * broker URL can be handed to a device. Not a URL → returned unchanged.
 */
export function withoutCredentials(url: string): string {
  if (!URL.canParse(url)) return url;
  const u = new URL(url);
  u.username = "";
  u.password = "";
  u.search = "";
  u.hash = "";
  return u.toString().replace(/\/$/, "");
}

/**
 * The broker URL of activation step one (docs/device-protocol.md §13.4): MQTT_PUBLIC_URL when set, else the device
 * link's broker URL (`linkUrl`), else one derived from the configuration (MQTT_URL, or the embedded broker at
 * MQTT_HOST:MQTT_PORT, 0.0.0.0 / :: read as 127.0.0.1) — always without credentials.
 */
export function deviceBrokerUrl(
  config: { MQTT_PUBLIC_URL?: string; MQTT_URL?: string; MQTT_HOST: string; MQTT_PORT: number },
  linkUrl?: string,
): string {
  if (config.MQTT_PUBLIC_URL) return withoutCredentials(config.MQTT_PUBLIC_URL);
  if (linkUrl) return withoutCredentials(linkUrl);
  if (config.MQTT_URL) return withoutCredentials(config.MQTT_URL);
  const host = config.MQTT_HOST === "0.0.0.0" || config.MQTT_HOST === "::" ? "127.0.0.1" : config.MQTT_HOST;
  return `mqtt://${host.includes(":") ? `[${host}]` : host}:${config.MQTT_PORT}`;
}

/**
 * Activation step one (docs/device-protocol.md §13.4; `POST /iot/v1/activation/begin`): the device must be known
 * from the factory (a `devices` row with its MAC). Answers a stateless nonce valid {@link ACTIVATION_NONCE_SECONDS}
 * (120 s), the server's clock (ISO 8601 UTC) and the broker URL (no credentials). Writes nothing; `model` and
 * `firmwareVersion` are accepted and ignored (the device reports them in its MQTT state).
 * @throws ActivationFailure unknown-device (404) when the MAC was never registered.
 */
export async function beginActivation(deps: ActivationDeps, input: TActivationBegin): Promise<TActivationBeginResult> {
  const mac = normaliseMac(input.mac);
  const device = await deps.db.selectFrom("devices").select("id").where("mac", "=", mac).executeTakeFirst();
  if (!device) throw new ActivationFailure("unknown-device");
  const now = deps.now();
  return {
    nonce: signNonce(deps.nonceKey, mac, new Date(now.getTime() + ACTIVATION_NONCE_SECONDS * 1000)),
    expiresInSeconds: ACTIVATION_NONCE_SECONDS,
    serverTime: now.toISOString(),
    mqttUrl: deps.mqttUrl,
  };
}

/**
 * Activation step two (docs/device-protocol.md §13.4; `POST /iot/v1/activation/complete`): checks the nonce (signed
 * for this MAC, not expired) before anything costly, then the factory secret against `devices.secret_hash`
 * (argon2id; an unknown MAC spends the same time). Issues a pairing code `MAC:TOKEN` — TOKEN is 16 random bytes,
 * base64url (22 characters) — stored only as its SHA-256 with an expiry of {@link ACTIVATION_TOKEN_MINUTES}
 * (10 minutes), in one transaction that also deletes the device's used and expired codes. The binding call accepts
 * the code once (modules/devices/service.ts `bindDevice`). With `deps.accounts` the device's broker account (username
 * and client id = MAC, password = the checked secret, its own topics) is written before answering; a broker that is
 * down or refuses does not fail the call (the account is retried with backoff and the device retries its CONNECT).
 * @returns `{pairingCode, expiresAt}` (ISO 8601 UTC).
 * @throws ActivationFailure nonce-invalid (409), bad-credentials (401).
 */
export async function completeActivation(
  deps: ActivationDeps,
  input: TActivationComplete,
): Promise<TActivationCompleteResult> {
  const mac = normaliseMac(input.mac);
  const now = deps.now();
  if (!verifyNonce(deps.nonceKey, mac, input.nonce, now, ACTIVATION_NONCE_SECONDS * 1000)) {
    throw new ActivationFailure("nonce-invalid");
  }
  const device = await deps.db
    .selectFrom("devices")
    .select(["id", "secret_hash"])
    .where("mac", "=", mac)
    .executeTakeFirst();
  const valid = await verifyPassword(device?.secret_hash ?? null, input.secret);
  if (!device || !valid) throw new ActivationFailure("bad-credentials");

  await deps.accounts?.provision(mac, input.secret);

  const token = randomBytes(16).toString("base64url");
  const expiresAt = new Date(now.getTime() + ACTIVATION_TOKEN_MINUTES * 60_000).toISOString();
  await deps.db.transaction().execute((trx) =>
    insertActivation(trx, {
      deviceId: device.id,
      tokenHash: hashActivationToken(token),
      createdAt: now.toISOString(),
      expiresAt,
    }),
  );
  return { pairingCode: `${mac}:${token}`, expiresAt };
}
