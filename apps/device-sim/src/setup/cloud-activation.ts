/**
 * The device's side of activation over HTTP (docs/device-protocol.md §13.4; contract `ACTIVATION_PATHS`): one JSON
 * POST per step, any refusal, unreachable cloud, non-JSON answer or timeout counting as that step failing, the setup
 * ticket the phone handed the module sent with step two (§13.4 "Setup tickets"), and the corrupted secret of failure
 * "activation-2".
 */
import { ACTIVATION_PATHS, type TActivationComplete, ZActivationError } from "@aquapilot/contract";

/**
 * The setup ticket a phone handed the module during network setup (Bluetooth or access point), 22 base64url
 * characters (contract `SETUP_TICKET_PATTERN`), or undefined when the phone gave none: activation step two sends it
 * as `setupTicket`, so the phone can learn from the cloud which module it set up.
 */
export type SetupTicketParameter = string | undefined;

/**
 * The body of activation step two: `{mac, nonce, secret}`, with `setupTicket` only when the phone handed the module
 * one (a module given none sends what stock firmware sends).
 */
export function activationStepTwoBody(input: {
  mac: string;
  nonce: string;
  secret: string;
  setupTicket?: SetupTicketParameter;
}): TActivationComplete {
  const { mac, nonce, secret, setupTicket } = input;
  return setupTicket === undefined ? { mac, nonce, secret } : { mac, nonce, secret, setupTicket };
}

/** What {@link postActivationStep} sends and where. */
export interface ActivationStepRequest {
  /** The cloud's base URL, e.g. http://127.0.0.1:8080. */
  serverUrl: string;
  /** The step's path: `ACTIVATION_PATHS.begin` or `ACTIVATION_PATHS.complete`. */
  path: string;
  /** The JSON body (step one `{mac, model, firmwareVersion}`, step two `{mac, nonce, secret}`). */
  body: Record<string, unknown>;
  /** "step one" or "step two", for the log. */
  step: string;
  /** Aborted when the attempt ends: the call is then dropped without a log line. */
  signal: AbortSignal;
  /** The longest wait for the answer, ms (SetupTiming.httpTimeout). */
  timeoutMs: number;
  /** Diagnostics (never the body: it may hold the secret). */
  log?: (message: string) => void;
  /**
   * The setup ticket the phone handed the module, added to the body of step two (`ACTIVATION_PATHS.complete`) as
   * `setupTicket`; ignored for step one. Undefined: the body goes as given.
   */
  setupTicket?: SetupTicketParameter;
}

/**
 * POSTs one activation step as JSON, step two with `request.setupTicket` as `setupTicket` when given. @returns the
 * parsed answer of a 2xx, or null when the cloud refused (the log names the HTTP status and the contract's `error`
 * code), was unreachable, answered no JSON, or did not answer within `timeoutMs`. Never rejects.
 */
export async function postActivationStep(request: ActivationStepRequest): Promise<unknown> {
  const { step, signal, log, setupTicket } = request;
  const body =
    setupTicket !== undefined && request.path === ACTIVATION_PATHS.complete
      ? { ...request.body, setupTicket }
      : request.body;
  try {
    const res = await fetch(new URL(request.path, request.serverUrl), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.any([signal, AbortSignal.timeout(request.timeoutMs)]),
    });
    const json: unknown = await res.json().catch(() => null);
    if (!res.ok) {
      const error = ZActivationError.safeParse(json);
      log?.(`activation ${step} refused: HTTP ${res.status}${error.success ? ` ${error.data.error}` : ""}`);
      return null;
    }
    return json;
  } catch (err) {
    if (!signal.aborted) log?.(`activation ${step} failed: ${(err as Error).message}`);
    return null;
  }
}

const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/**
 * A copy of the base64url `secret` with every character changed (the next one of the base64url alphabet), so the
 * cloud refuses step two with 401 bad-credentials: failure "activation-2" (docs/device-sim.md §13.2).
 */
export function corruptedSecret(secret: string): string {
  return Array.from(secret, (c) => BASE64URL[(BASE64URL.indexOf(c) + 1) % BASE64URL.length]).join("");
}
