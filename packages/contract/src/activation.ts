import { z } from "zod";
import { SETUP_TICKET_PATTERN } from "./constants.ts";
import { ZText } from "./endpoints/define.ts";

/**
 * Device activation over HTTP (docs/device-protocol.md §13.4): the two steps a module takes after joining
 * the owner's Wi-Fi and before its persistent MQTT connection. Plain JSON (not the app's ABP envelope), device-facing.
 *
 * 1. `POST /iot/v1/activation/begin` `{mac, model?, firmwareVersion?}` → `{nonce, expiresInSeconds, serverTime,
 *    mqttUrl}`: the cloud knows the device from the factory and tells it where its broker is and what time it is
 *    (a module has no clock). Unknown MAC → 404 `unknown-device` ("activation step one failed").
 * 2. `POST /iot/v1/activation/complete` `{mac, nonce, secret, setupTicket?}` → `{pairingCode, expiresAt}`: the device
 *    proves its factory secret within the nonce's lifetime; the cloud issues a single-use pairing code `MAC:TOKEN`
 *    that expires after {@link ACTIVATION_TOKEN_MINUTES} minutes, which the module hands to the app. `setupTicket`,
 *    the value the phone handed the module during setup, links the activation to the phone's setup ticket so the
 *    phone can learn the outcome from the cloud (§13.4 "Setup tickets"). Wrong secret → 401 `bad-credentials`, stale
 *    or foreign nonce → 409 `nonce-invalid` ("activation step two failed").
 *
 * Both answer 400 `invalid-request` on a malformed body and 429 `rate-limited` when asked too often, and in production
 * 403 `https-required` to a call that did not come over HTTPS (docs/device-protocol.md §1.1).
 */
export const ACTIVATION_PATHS = {
  begin: "/iot/v1/activation/begin",
  complete: "/iot/v1/activation/complete",
} as const;

/** Minutes a pairing code from activation stays valid. */
export const ACTIVATION_TOKEN_MINUTES = 10;
/** Seconds a step-one nonce stays valid. */
export const ACTIVATION_NONCE_SECONDS = 120;

const ZMac = ZText(32, { trim: true }).refine(
  (m) => m.replace(/[^0-9a-fA-F]/g, "").length === 12,
  "mac needs 12 hex digits",
);

export const ZActivationBegin = z.object({
  mac: ZMac,
  model: ZText(64).optional(),
  firmwareVersion: ZText(32).optional(),
});
export type TActivationBegin = z.infer<typeof ZActivationBegin>;

export const ZActivationBeginResult = z.object({
  /** Opaque, to be sent back in step two. */
  nonce: z.string().min(16).max(512),
  expiresInSeconds: z.number().int().positive(),
  /** The cloud's clock, ISO 8601 UTC. */
  serverTime: z.string(),
  /** The broker the device connects to, without credentials (e.g. mqtt://127.0.0.1:1883). */
  mqttUrl: z.string(),
});
export type TActivationBeginResult = z.infer<typeof ZActivationBeginResult>;

/** A setup ticket as sent by a client: exactly {@link SETUP_TICKET_PATTERN} (22 base64url characters). */
export const ZSetupTicket = ZText(22, { min: 22 }).refine(
  (v) => SETUP_TICKET_PATTERN.test(v),
  "22 base64url characters",
);

export const ZActivationComplete = z.object({
  mac: ZMac,
  nonce: ZText(512, { min: 16 }),
  secret: ZText(256, { min: 16 }),
  /**
   * The setup ticket the phone handed the module (§13.4 "Setup tickets"), absent from modules that were given none
   * (stock firmware). Malformed → 400 `invalid-request`; well-formed but unknown, expired or already taken by another
   * module → activation proceeds without linking it.
   */
  setupTicket: ZSetupTicket.optional(),
});
export type TActivationComplete = z.infer<typeof ZActivationComplete>;

export const ZActivationCompleteResult = z.object({
  /** `MAC:TOKEN`, the pairing code the app binds with (spec §7 device POST /, field `code`). */
  pairingCode: z.string().min(14).max(256),
  /** ISO 8601 UTC. */
  expiresAt: z.string(),
});
export type TActivationCompleteResult = z.infer<typeof ZActivationCompleteResult>;

/** Error codes of the activation calls (`{error}` bodies). */
export const ACTIVATION_ERRORS = [
  "invalid-request",
  "unknown-device",
  "bad-credentials",
  "nonce-invalid",
  "rate-limited",
  "https-required",
] as const;
export type ActivationError = (typeof ACTIVATION_ERRORS)[number];
export const ZActivationError = z.object({ error: z.enum(ACTIVATION_ERRORS) });
