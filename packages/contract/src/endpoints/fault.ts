import { z } from "zod";
import { PERMISSIONS } from "../constants.ts";
import { SystemCloseReason } from "../enums.ts";
import { deviceMember } from "./access.ts";
import { endpoint, ZId, ZIsoTime, ZText } from "./define.ts";
import { ZCommandStatus } from "./device-control.ts";

// Faults (spec §2 Other /Fault and the My tab's "faults"; §3 system close reasons; §8 labels), each
// with what the owner can do about it. An extension under the app's /api/run-lucky/device/app/… paths.

const FAULT = "/api/run-lucky/device/app/fault";

/** How far back closes are listed: 30 days (every open and recent fault). */
export const FAULT_RECENT_DAYS = 30;
/** At most this many faults per answer (the newest); open faults always come first. */
export const FAULT_LIST_MAX = 100;

/**
 * What went wrong: the device is offline, the valve closed the water with a system close reason (spec §3), or the
 * cloud refuses the device's reports ("reports-refused": it talks, but what it says is not stored, so its figures stand
 * still; docs/device-protocol.md §5.1). Added kinds are additive: a client shows an unknown one by its label.
 */
export const FAULT_KINDS = ["offline", "close", "reports-refused"] as const;
export type TFaultKind = (typeof FAULT_KINDS)[number];

/**
 * The §8 label of a fault: "Device offline", "System error" or "Excessive flow"; "reportsRefused" ("Reports not
 * accepted") for a device whose reports the cloud refuses.
 */
export const FAULT_LABELS = ["deviceOffline", "systemError", "excessiveFlow", "reportsRefused"] as const;
export type TFaultLabel = (typeof FAULT_LABELS)[number];

/**
 * How an open close is undone, as the valve allows (docs/device-protocol.md §3.5, §7.5): "command" — the valve takes
 * a remote reopen (`forced-switch` on a closed valve reopens it; the app calls reopen-water); "button" — the device
 * cannot hear a command now (offline), so someone presses the button on the valve. Null for anything else.
 */
export const FAULT_REOPEN = ["command", "button"] as const;
export type TFaultReopen = (typeof FAULT_REOPEN)[number];

/**
 * The §8 label of a fault (spec §3 close reasons): offline (null) → "Device offline"; 1025 excessive instantaneous
 * flow → "Excessive flow"; 257 valve button, 513 leak-point signal, 769 continuous use too long and unknown codes →
 * "System error".
 */
export function faultLabelOf(closeReason: number | null): TFaultLabel {
  if (closeReason === null) return "deviceOffline";
  return closeReason === SystemCloseReason.ExcessiveInstantaneousFlow ? "excessiveFlow" : "systemError";
}

/**
 * The seeded help article (server modules/article/content/<lang>/<id>.md) that explains each fault, by close reason
 * (spec §3) or "offline"; {@link FAULT_ARTICLE_FALLBACK} for a code the spec does not list. Stable ids: the app links
 * to them and the article tests check each exists in all five languages.
 */
export const FAULT_ARTICLES: Readonly<Record<"offline" | "257" | "513" | "769" | "1025", string>> = {
  offline: "fault-offline",
  "257": "fault-valve-button",
  "513": "fault-leak",
  "769": "fault-continuous-use",
  "1025": "fault-excessive-flow",
};
/** The general fault article (every close reason and what to do), for close reasons outside spec §3. */
export const FAULT_ARTICLE_FALLBACK = "fault-alarms";

/** The help article id of a fault: by close reason, "offline" for null, else the general fault article. */
export function faultArticleOf(closeReason: number | null): string {
  const key = closeReason === null ? "offline" : String(closeReason);
  return (FAULT_ARTICLES as Record<string, string>)[key] ?? FAULT_ARTICLE_FALLBACK;
}

/**
 * One fault of a device (open or recent). Times are real timestamps (ISO 8601 UTC, when the cloud received the
 * device's report, never the device's own clock): the app shows them in the phone's local time.
 */
export const ZFault = z.object({
  /**
   * Stable per fault: `offline:{deviceId}`, `close:{deviceId}:{eventId}` (or `close:{deviceId}:state`),
   * `reports-refused:{deviceId}:{since}`.
   */
  id: z.string(),
  kind: z.enum(FAULT_KINDS),
  deviceId: z.string(),
  deviceName: z.string(),
  /** Whether the device is connected now. */
  deviceOnline: z.boolean(),
  familyId: z.string(),
  familyName: z.string(),
  /** System close reason (spec §3: 257, 513, 769, 1025); null for offline. */
  closeReason: z.number().int().nullable(),
  label: z.enum(FAULT_LABELS),
  /** When it began; null when the cloud never saw it begin (a close older than its event history). */
  startedAt: ZIsoTime.nullable(),
  /** When it was cleared (the valve reopened); null while open or when the clearing was not seen. */
  clearedAt: ZIsoTime.nullable(),
  /** Still going on now. */
  open: z.boolean(),
  /** For an open close: how to reopen the water ({@link FAULT_REOPEN}); null otherwise. */
  reopen: z.enum(FAULT_REOPEN).nullable(),
  /** The help article that explains this fault ({@link faultArticleOf}). */
  articleId: z.string(),
});
export type TFault = z.infer<typeof ZFault>;

export const faultEndpoints = {
  getFaultList: endpoint({
    method: "GET",
    access: {
      caller: PERMISSIONS.deviceView,
      object: { object: "device", role: "member", in: "query.deviceId", optional: true },
    },
    path: `${FAULT}/get-fault-list`,
    query: z.object({ deviceId: ZId.optional() }),
    body: undefined,
    result: z.array(ZFault),
    summary:
      "Open faults (offline, current close) and the closes of the last 30 days of every device in the caller's " +
      "households, or of one device; open first, then newest first (extension)",
  }),
  reopenWater: endpoint({
    method: "POST",
    access: deviceMember("query.deviceId", PERMISSIONS.deviceControl),
    path: `${FAULT}/reopen-water`,
    query: z.object({ deviceId: ZId, commandId: ZText(64, { min: 1 }).optional() }),
    body: undefined,
    result: ZCommandStatus,
    summary: "Reopen a valve that closed the water (forced-switch on a closed valve; refused when it is open)",
  }),
} as const;
