import { endpoints, type TSetupTicketCreated, type TSetupTicketStatus } from "@aquapilot/contract/wire";
import { api } from "../../../shared/api/client.ts";

/**
 * Setup tickets (docs/device-protocol.md §13.4 "Setup tickets"): before network setup the app creates a ticket and
 * hands it to the module (Bluetooth or access point); the module sends it with activation step two, and the app
 * learns from the cloud which module it set up — with a pairing code to bind it — even when the module's firmware
 * hands the app none (stock Bouffalo Lab blsync_ble, BroadLink access-point setup).
 */

/**
 * Creates a setup ticket for household `familyId` (its administrator only): `POST
 * /api/run-lucky/device/app/setup-ticket` `{familyId}`. Resolves `{ticket, expiresAt}`: 22 base64url characters to
 * hand the module, valid 10 minutes (ISO 8601 UTC). Errors: ApiError (403 not the administrator, 404 unknown
 * household, 429 rate limited).
 */
export function createSetupTicket(familyId: string): Promise<TSetupTicketCreated> {
  return api(endpoints.createSetupTicket, { body: { familyId } });
}

/**
 * What setup ticket `ticket` says: `GET /api/run-lucky/device/app/setup-ticket/{ticket}` → `{state, mac, pairingCode}`
 * (`waiting`, `activated` with the module's MAC and a fresh single-use pairing code `MAC:TOKEN`, or `expired`).
 * Errors: ApiError (404 unknown ticket or another user's), an AbortError when `signal` aborts.
 */
export function getSetupTicket(ticket: string, signal?: AbortSignal): Promise<TSetupTicketStatus> {
  return api(endpoints.getSetupTicket, { params: { ticket }, signal });
}

/** Why {@link waitForSetupTicket} gave up: the ticket expired, or no module activated with it in time. */
export type SetupTicketFailure = "expired" | "timeout";

/**
 * {@link waitForSetupTicket} gave up: `reason` says why, `messageKey` is the text to show the owner (network-setup
 * locales, `networkSetup.setupTicket.*`, five languages).
 */
export class SetupTicketError extends Error {
  readonly reason: SetupTicketFailure;
  readonly messageKey: `networkSetup.setupTicket.${SetupTicketFailure}`;
  constructor(reason: SetupTicketFailure, message: string) {
    super(message);
    this.name = "SetupTicketError";
    this.reason = reason;
    this.messageKey = `networkSetup.setupTicket.${reason}`;
  }
}

/** Options of {@link waitForSetupTicket}. */
export interface WaitForSetupTicketOptions {
  /** Stops the wait: the promise rejects with the signal's reason (an AbortError by default). */
  signal?: AbortSignal;
  /** Pause between two reads, ms (default 1,000). */
  intervalMs?: number;
  /** Longest wait from the call, ms; absent: until the ticket expires (the cloud answers `expired`). */
  timeoutMs?: number;
}

/**
 * Reads setup ticket `ticket` ({@link getSetupTicket}) every `intervalMs` until a module activated with it. The first
 * read is made at once; a read under way when the time is up is abandoned.
 * @returns `{mac, pairingCode}` of the module that activated with it (pairingCode binds it once, within 10 minutes).
 * @throws SetupTicketError `expired` when the cloud says the ticket expired, `timeout` when `timeoutMs` passed first;
 *   the signal's reason when `signal` aborts; ApiError when a read fails (404: not the caller's ticket).
 */
export async function waitForSetupTicket(
  ticket: string,
  { signal, intervalMs = 1000, timeoutMs }: WaitForSetupTicketOptions = {},
): Promise<{ mac: string; pairingCode: string }> {
  signal?.throwIfAborted();
  const stop = new AbortController();
  const onAbort = () => stop.abort(signal?.reason);
  signal?.addEventListener("abort", onAbort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (timeoutMs !== undefined) {
    timer = setTimeout(
      () =>
        stop.abort(new SetupTicketError("timeout", `no module activated with the setup ticket within ${timeoutMs} ms`)),
      timeoutMs,
    );
  }
  try {
    for (;;) {
      const status = await abortable(getSetupTicket(ticket, stop.signal), stop.signal);
      if (status.state === "activated" && status.mac && status.pairingCode) {
        return { mac: status.mac, pairingCode: status.pairingCode };
      }
      if (status.state === "expired") {
        throw new SetupTicketError("expired", "the setup ticket expired before a module activated with it");
      }
      await pause(intervalMs, stop.signal);
    }
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
}

/** `promise`, or a rejection with `signal`'s reason as soon as it aborts (whichever comes first). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(signal.aborted ? signal.reason : err);
      },
    );
  });
}

/** Waits `ms`; rejects with `signal`'s reason when it aborts first. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
