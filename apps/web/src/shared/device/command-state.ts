/**
 * The state machine of one device command (spec §4: every command is confirmed by the device): idle → pending (sent,
 * then accepted with the server's command id) → done on the device's acknowledgement with that id, or failed
 * (the ack says not ok, the call failed, the device is offline, or no answer in time → "Device offline").
 */

/** The controls of spec §4 that send a command. */
export type CommandKind =
  | "vacationEnter"
  | "vacationExit"
  | "forcedRegeneration"
  | "forcedFlushing"
  | "forcedSwitch"
  | "ota"
  | "timeSync";

/**
 * A new command id: random v4 style (spec §9 "Generated ids are random v4 style"), e.g.
 * "3b241101-e2bb-4255-8caf-4136c566a962". It is also the command's idempotency key: a resend with the same
 * id is never applied twice. Needs `crypto.randomUUID` (secure context).
 */
export function newCommandId(): string {
  return globalThis.crypto.randomUUID();
}

/** One acknowledgement as hub 1 carries it (`ack` of ZDeviceChangeMessage). */
export interface CommandAck {
  commandId: string;
  ok: boolean;
  error: string | null;
}

/** Why a command failed: the device is offline / did not answer, the device refused, or the call failed. */
export type CommandFailure =
  | { reason: "offline" }
  | { reason: "refused"; error: string | null }
  | { reason: "error"; message: string };

/** The state of one command. `earlyAcks` keeps acks that arrived before the call answered with the id. */
export type CommandState =
  | { status: "idle" }
  | { status: "pending"; kind: CommandKind; commandId: string | null; sentAt: number; earlyAcks: CommandAck[] }
  | { status: "done"; kind: CommandKind; commandId: string | null }
  | { status: "failed"; kind: CommandKind; failure: CommandFailure };

/** What can happen to a command. */
export type CommandEvent =
  | { type: "send"; kind: CommandKind; at: number }
  | { type: "accepted"; commandId: string | null }
  | { type: "ack"; ack: CommandAck }
  | { type: "timeout" }
  | { type: "offline" }
  | { type: "error"; message: string }
  | { type: "reset" };

/** The initial state. */
export const IDLE: CommandState = { status: "idle" };

function settle(kind: CommandKind, commandId: string | null, ack: CommandAck): CommandState {
  return ack.ok
    ? { status: "done", kind, commandId }
    : { status: "failed", kind, failure: { reason: "refused", error: ack.error } };
}

/**
 * Applies one event (pure). A new `send` is refused while one is pending (the state is returned unchanged);
 * acks with another id are ignored; `accepted` without an id (a server that does not track commands) is done at once.
 */
export function commandReducer(state: CommandState, event: CommandEvent): CommandState {
  switch (event.type) {
    case "send":
      if (state.status === "pending") return state;
      return { status: "pending", kind: event.kind, commandId: null, sentAt: event.at, earlyAcks: [] };
    case "reset":
      return state.status === "pending" ? state : IDLE;
    default:
      break;
  }
  if (state.status !== "pending") return state;
  switch (event.type) {
    case "accepted": {
      if (event.commandId === null) return { status: "done", kind: state.kind, commandId: null };
      const early = state.earlyAcks.find((a) => a.commandId === event.commandId);
      if (early) return settle(state.kind, event.commandId, early);
      return { ...state, commandId: event.commandId, earlyAcks: [] };
    }
    case "ack":
      if (state.commandId === null) return { ...state, earlyAcks: [...state.earlyAcks.slice(-9), event.ack] };
      if (event.ack.commandId !== state.commandId) return state;
      return settle(state.kind, state.commandId, event.ack);
    case "timeout":
    case "offline":
      return { status: "failed", kind: state.kind, failure: { reason: "offline" } };
    case "error":
      return { status: "failed", kind: state.kind, failure: { reason: "error", message: event.message } };
    default:
      return state;
  }
}

/** Whether a command is under way (controls are blocked meanwhile). */
export function isPending(state: CommandState): boolean {
  return state.status === "pending";
}
