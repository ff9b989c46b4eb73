/**
 * Which messages the message center produces, and from what (docs/messages-push.md): device events, an
 * offline period longer than OFFLINE_MESSAGE_MINUTES, a salt forecast that says low. Pure: no database, no clock.
 */
import {
  isSystemCloseReason,
  MESSAGE_TYPES,
  SystemCloseReason,
  type TMessageEvent,
  type TMessageTypeValue,
  type TSaltStatus,
} from "@aquapilot/contract";

/** Device event types (contract ZMqttEvent) that can produce a message; the gateway hook skips the others. */
export const MESSAGE_EVENT_TYPES: readonly string[] = ["close", "regeneration-end", "ota-progress", "ota-failed"];

/** System close reason (spec §3) → message event. */
export const CLOSE_REASON_EVENTS: Readonly<Record<SystemCloseReason, TMessageEvent>> = {
  [SystemCloseReason.ValveButton]: "valve-button",
  [SystemCloseReason.LeakPointSignal]: "leak",
  [SystemCloseReason.ContinuousUseTooLong]: "continuous-use",
  [SystemCloseReason.ExcessiveInstantaneousFlow]: "excessive-flow",
};

/** Catalogue key prefix of each message event (messages.ts: `<prefix>.title`, `<prefix>.content`). */
export const EVENT_TEXT_KEY: Readonly<Record<TMessageEvent, string>> = {
  leak: "message.leak",
  "excessive-flow": "message.excessiveFlow",
  "continuous-use": "message.continuousUse",
  "valve-button": "message.valveButton",
  offline: "message.offline",
  "regeneration-finished": "message.regenerationFinished",
  "salt-low": "message.saltLow",
  "ota-finished": "message.otaFinished",
  "ota-failed": "message.otaFailed",
  "after-sale-answered": "message.afterSaleAnswered",
  "household-removed": "message.familyRemovedBy",
  "household-deleted": "message.familyDeleted",
  "administrator-transferred": "message.administratorReceived",
};

/** What a device message is about: its event, its type (alarm or notice), and the system close reason it carries. */
export interface MessageMeaning {
  event: TMessageEvent;
  type: TMessageTypeValue;
  /** System close reason (spec §3) of an alarm that carries one, else null. */
  closeReason: number | null;
}

const MINUTE_MS = 60_000;

/**
 * What a stored device event means for the owners, or null when it produces no message: "close" with a system close
 * reason → alarm (leak 513, excessive flow 1025, continuous use 769, valve button 257) carrying that reason;
 * "regeneration-end" → regeneration finished; "ota-progress" at 100 % → firmware updated; "ota-failed" → firmware
 * update failed (notices carry no close reason).
 */
export function describeDeviceEvent(row: {
  type: string;
  close_reason: number | null;
  progress: number | null;
}): MessageMeaning | null {
  if (row.type === "close") {
    if (row.close_reason === null || !isSystemCloseReason(row.close_reason)) return null;
    return {
      event: CLOSE_REASON_EVENTS[row.close_reason],
      type: MESSAGE_TYPES.deviceAlarm,
      closeReason: row.close_reason,
    };
  }
  if (row.type === "regeneration-end") {
    return { event: "regeneration-finished", type: MESSAGE_TYPES.deviceNotice, closeReason: null };
  }
  if (row.type === "ota-progress" && (row.progress ?? 0) >= 100) {
    return { event: "ota-finished", type: MESSAGE_TYPES.deviceNotice, closeReason: null };
  }
  if (row.type === "ota-failed") return { event: "ota-failed", type: MESSAGE_TYPES.deviceNotice, closeReason: null };
  return null;
}

/** The meaning of an offline alarm: an offline period longer than OFFLINE_MESSAGE_MINUTES. */
export const OFFLINE_MEANING: Readonly<MessageMeaning> = {
  event: "offline",
  type: MESSAGE_TYPES.deviceAlarm,
  closeReason: null,
};

/**
 * Whether an offline period that began at `since` (ISO) is still within `offlineMinutes` at `now`, so it raises no
 * alarm yet. An unreadable `since` is not within it.
 */
export function isWithinOfflineGrace(since: string, now: Date, offlineMinutes: number): boolean {
  return now.getTime() - Date.parse(since) <= offlineMinutes * MINUTE_MS;
}

/** The meaning of a salt-low notice. */
export const SALT_LOW_MEANING: Readonly<MessageMeaning> = {
  event: "salt-low",
  type: MESSAGE_TYPES.deviceNotice,
  closeReason: null,
};

/**
 * The salt-low notice a salt forecast (modules/statistics/salt.ts) calls for, or null when it does not say low: the
 * days left as its parameter, and the "salt empty" content instead of the usual one when the forecast has no days
 * left or the level is below one regeneration's salt.
 */
export function saltLowNotice(
  status: Pick<TSaltStatus, "lowSalt" | "saltDaysLeft" | "saltLevelKg" | "saltPerRegenerationKg">,
): { params: { days: number }; contentKey: string | undefined } | null {
  if (!status.lowSalt) return null;
  const empty = status.saltDaysLeft === null || (status.saltLevelKg ?? 0) < (status.saltPerRegenerationKg ?? 0);
  return { params: { days: status.saltDaysLeft ?? 0 }, contentKey: empty ? "message.saltEmpty.content" : undefined };
}
