import {
  isSystemCloseReason,
  Station,
  SystemCloseReason,
  type TDeviceChangeMessage,
  type TFault,
} from "@aquapilot/contract/wire";
import { formatDate } from "../../../shared/ui/date-time-rules.ts";

/**
 * What a fault is about, for its texts (cause in plain words, what to do, the reopen warning): offline, reports the
 * cloud refuses (the device is connected but what it says is not stored), one of the close reasons of spec §3 (257
 * valve button, 513 leak-point signal, 769 continuous use too long, 1025 excessive instantaneous flow), or a code the
 * spec does not list.
 */
export type FaultCause = "offline" | "reports-refused" | `${SystemCloseReason}` | "unknown";

/** How many "what to do" steps each cause has (keys `faults.steps.<cause>.1…n` in the five locales). */
export const ADVICE_STEPS: Readonly<Record<FaultCause, number>> = {
  offline: 3,
  "reports-refused": 2,
  [SystemCloseReason.ValveButton]: 2,
  [SystemCloseReason.LeakPointSignal]: 3,
  [SystemCloseReason.ContinuousUseTooLong]: 3,
  [SystemCloseReason.ExcessiveInstantaneousFlow]: 3,
  unknown: 2,
};

/**
 * The cause of a fault: "offline" for the offline kind, "reports-refused" for that kind, the close reason when spec §3
 * lists it, else "unknown".
 */
export function faultCause(fault: Pick<TFault, "kind" | "closeReason">): FaultCause {
  if (fault.kind === "reports-refused") return "reports-refused";
  if (fault.kind === "offline" || fault.closeReason === null) return "offline";
  return isSystemCloseReason(fault.closeReason) ? `${fault.closeReason}` : "unknown";
}

/** The locale keys of the "what to do" steps of a cause, in order (e.g. `faults.steps.513.1`). */
export function adviceKeys(cause: FaultCause): string[] {
  return Array.from({ length: ADVICE_STEPS[cause] }, (_, i) => `faults.steps.${cause}.${i + 1}`);
}

/**
 * Which warning the reopen confirmation shows (`faults.reopen.confirm.<key>`): the valve button and the leak have
 * their own; excessive flow and continuous use share "flow" (check pipes and taps); anything else "unknown".
 */
export function reopenWarningKey(cause: FaultCause): "257" | "513" | "flow" | "unknown" {
  return REOPEN_WARNING[cause];
}

const REOPEN_WARNING: Readonly<Record<FaultCause, "257" | "513" | "flow" | "unknown">> = {
  offline: "unknown",
  "reports-refused": "unknown",
  [SystemCloseReason.ValveButton]: "257",
  [SystemCloseReason.LeakPointSignal]: "513",
  [SystemCloseReason.ContinuousUseTooLong]: "flow",
  [SystemCloseReason.ExcessiveInstantaneousFlow]: "flow",
  unknown: "unknown",
};

const time = (iso: string | null): number => (iso ? Date.parse(iso) || 0 : 0);

/**
 * The list's two sections (every open and recent fault): open faults, then the resolved ones, each newest
 * first by start (a fault without a known start last), whatever order the answer had.
 */
export function splitFaults(faults: readonly TFault[]): { open: TFault[]; recent: TFault[] } {
  const newestFirst = (a: TFault, b: TFault) => time(b.startedAt) - time(a.startedAt) || a.id.localeCompare(b.id);
  return {
    open: faults.filter((f) => f.open).sort(newestFirst),
    recent: faults.filter((f) => !f.open).sort(newestFirst),
  };
}

/**
 * When a fault happened, as text parts for the phone's local time (the times are real UTC timestamps, spec §9 date
 * format yyyy-MM-dd HH:mm applied by the caller): "since" an open fault's start, the "range" of a resolved one,
 * "clearedUnknown" when it was resolved but the moment was not seen, "unknown" without a start.
 */
export function faultTimeParts(fault: Pick<TFault, "open" | "startedAt" | "clearedAt">): {
  key: "since" | "range" | "clearedUnknown" | "unknown";
  start: Date | null;
  end: Date | null;
} {
  const start = fault.startedAt ? new Date(fault.startedAt) : null;
  const end = fault.clearedAt ? new Date(fault.clearedAt) : null;
  if (!start || Number.isNaN(start.getTime())) return { key: "unknown", start: null, end: null };
  if (fault.open) return { key: "since", start, end: null };
  if (end && !Number.isNaN(end.getTime())) return { key: "range", start, end };
  return { key: "clearedUnknown", start, end: null };
}

/** The phone's local time of a real timestamp in the spec §9 format yyyy-MM-dd HH:mm. */
export function localTime(date: Date): string {
  return formatDate(date, "yyyy-MM-dd HH:mm");
}

/** The end of a time range: only HH:mm when it falls on the start's local day, else the whole yyyy-MM-dd HH:mm. */
export function rangeEnd(start: Date, end: Date): string {
  const sameDay = formatDate(start, "yyyy-MM-dd") === formatDate(end, "yyyy-MM-dd");
  return sameDay ? localTime(end).slice(11) : localTime(end);
}

/**
 * Whether a hub-1 message (spec §7) may change the fault list `faults` (the answer shown now; undefined when none):
 * a close or reset event; an online flag that differs from what the list knows (an offline device without an open
 * offline fault, or a connected one that still has one); a reported station that disagrees with the list (closed,
 * station 5, without an open close; any other station while a close is open). Acknowledgements and ordinary state
 * reports change nothing, so the list is not fetched again for each of them.
 */
export function changesFaults(message: TDeviceChangeMessage, faults: readonly TFault[] | undefined): boolean {
  if (message.kind === "ack") return false;
  if (message.kind === "event") return message.event?.type === "close" || message.event?.type === "reset";
  const own = (faults ?? []).filter((f) => f.deviceId === message.deviceId && f.open);
  const offlineOpen = own.some((f) => f.kind === "offline");
  if (message.online === offlineOpen) return true;
  if (message.kind === "online" || message.station === null) return false;
  const closeOpen = own.some((f) => f.kind === "close");
  return (message.station === Station.Closed) !== closeOpen;
}
