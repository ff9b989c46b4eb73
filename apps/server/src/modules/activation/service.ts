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
  type TSetupTicketCreated,
  type TSetupTicketStatus,
} from "@aquapilot/contract";
import { verifyPassword } from "../../auth/passwords.ts";
import type { Db } from "../../db/index.ts";
import { AppError, ErrorCode } from "../../http/errors.ts";
import type { DeviceAccountsPort } from "../../ports.ts";
import { signNonce, verifyNonce } from "./nonce.ts";
import { hashActivationToken, insertActivation } from "./queries.ts";
import { findOwnSetupTicket, hashSetupTicket, insertSetupTicket, linkSetupTicket } from "./setup-tickets.ts";

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
  "https-required": 403,
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
 * the code once (modules/devices/service.ts `bindDevice`). A well-formed `setupTicket` that is known, unexpired and
 * not taken by another device is marked as taken by this device in the same transaction ({@link linkSetupTicket});
 * any other ticket is left alone and the activation succeeds all the same (§13.4 "Setup tickets"). With
 * `deps.accounts` the device's broker account (username and client id = MAC, password = the checked secret, its own
 * topics) is written before answering; a broker that is down or refuses does not fail the call (the account is retried with backoff and the device retries its CONNECT).
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

  const { setupTicket } = input;
  return deps.db.transaction().execute(async (trx) => {
    const issued = await issuePairingCode(trx, { id: device.id, mac }, now);
    if (setupTicket) await linkSetupTicket(trx, setupTicket, device.id, now.toISOString());
    return issued;
  });
}

/**
 * Issues a pairing code `MAC:TOKEN` for device `device` (docs/device-protocol.md §13.4): TOKEN is 16 random bytes,
 * base64url (22 characters), stored only as its SHA-256 with an expiry of {@link ACTIVATION_TOKEN_MINUTES} (10 minutes)
 * after `now`, after deleting the device's used and expired codes ({@link insertActivation}). Run it in a transaction.
 * @returns `{pairingCode, expiresAt}` (ISO 8601 UTC).
 */
export async function issuePairingCode(
  db: Db,
  device: { id: string; mac: string },
  now: Date,
): Promise<TActivationCompleteResult> {
  const token = randomBytes(16).toString("base64url");
  const expiresAt = new Date(now.getTime() + ACTIVATION_TOKEN_MINUTES * 60_000).toISOString();
  await insertActivation(db, {
    deviceId: device.id,
    tokenHash: hashActivationToken(token),
    createdAt: now.toISOString(),
    expiresAt,
  });
  return { pairingCode: `${device.mac}:${token}`, expiresAt };
}

/**
 * Creates a setup ticket for household `familyId` on behalf of `userId`, whom the route has checked to administer it
 * (docs/device-protocol.md §13.4 "Setup tickets"): 16 random bytes, base64url (22 characters), stored only as its
 * SHA-256, valid {@link ACTIVATION_TOKEN_MINUTES} (10 minutes).
 * @returns `{ticket, expiresAt}` (ISO 8601 UTC).
 */
export async function createSetupTicket(
  deps: Pick<ActivationDeps, "db" | "now">,
  userId: string,
  familyId: string,
): Promise<TSetupTicketCreated> {
  const now = deps.now();
  const ticket = randomBytes(16).toString("base64url");
  const expiresAt = new Date(now.getTime() + ACTIVATION_TOKEN_MINUTES * 60_000).toISOString();
  await deps.db.transaction().execute((trx) =>
    insertSetupTicket(trx, {
      ticketHash: hashSetupTicket(ticket),
      familyId,
      createdBy: userId,
      createdAt: now.toISOString(),
      expiresAt,
    }),
  );
  return { ticket, expiresAt };
}

/**
 * What setup ticket `ticket` of `userId` says (docs/device-protocol.md §13.4 "Setup tickets"): `expired` (nulls) from
 * its expiry on; `activated` with the MAC of the device that took it and a fresh pairing code for that device, issued
 * exactly as activation step two issues one ({@link issuePairingCode}: single use, stored hashed, 10 minutes); else
 * `waiting` (nulls).
 * @throws AppError NotFound (setupTicket.notFound) for an unknown ticket or another user's, alike.
 */
export async function readSetupTicket(
  deps: Pick<ActivationDeps, "db" | "now">,
  userId: string,
  ticket: string,
): Promise<TSetupTicketStatus> {
  const now = deps.now();
  return deps.db.transaction().execute(async (trx) => {
    const row = await findOwnSetupTicket(trx, userId, ticket);
    if (!row) throw new AppError(ErrorCode.NotFound, "setupTicket.notFound");
    if (row.expiresAt <= now.toISOString()) return { state: "expired", mac: null, pairingCode: null };
    if (!row.deviceId || !row.mac) return { state: "waiting", mac: null, pairingCode: null };
    const { pairingCode } = await issuePairingCode(trx, { id: row.deviceId, mac: row.mac }, now);
    return { state: "activated", mac: row.mac, pairingCode };
  });
}
