import { z } from "zod";
import { DOMAIN_EVENT_KINDS } from "./constants.ts";
import { ZStationTiming } from "./endpoints/device.ts";
import { ZDeviceLink } from "./endpoints/family.ts";

/**
 * What hub 1 sends, serialised as a JSON string (spec §7: "listens for DeviceChangContentTypeMessage (JSON string)").
 * `kind` says what changed: reported state, online flag, an event, or a command acknowledgement.
 */
export const ZDeviceChangeMessage = z.object({
  kind: z.enum(["state", "online", "event", "ack"]),
  deviceId: z.string(),
  mac: z.string(),
  familyId: z.string().nullable(),
  online: z.boolean(),
  station: z.number().int().min(0).max(8).nullable(),
  stationRemainingSeconds: z.number().nullable(),
  ...ZStationTiming.shape,
  remainingWaterL: z.number().nullable(),
  flowRateLpm: z.number().nullable(),
  lastReportTime: z.string().nullable(),
  /**
   * How the cloud hears the device now (ZDeviceLink: last heard, refused since and why), so an open screen shows a
   * refusal or its end at once; absent from servers before they were added.
   */
  ...ZDeviceLink.shape,
  /** Present for kind "event": the system close reason or event name. */
  event: z
    .object({
      type: z.string(),
      closeReason: z.number().int().nullable(),
      /** For "ota-progress": percent of the firmware update done. */
      progress: z.number().nullable().optional(),
      /** For "ota-failed": why ("download", "hash", "signature" or "boot", docs/device-protocol.md §3.7). */
      reason: z.string().nullable().optional(),
    })
    .nullable()
    .optional(),
  /**
   * Present for kind "ack": command id and outcome, and the command's name (docs/device-protocol.md §3.5: `query`,
   * `forced-regeneration`, `sync-time`…; absent from servers before it was added), so a phone can tell a report asked
   * for (`query`, sent by every Device screen opened) from a command that changed the softener.
   */
  ack: z
    .object({ commandId: z.string(), ok: z.boolean(), error: z.string().nullable(), command: z.string().optional() })
    .nullable()
    .optional(),
});
export type TDeviceChangeMessage = z.infer<typeof ZDeviceChangeMessage>;

/**
 * What hub 1 sends as `DomainEvent` (one object argument; docs/messages-push.md "Domain events"): one change made by
 * a call or a device, naming what changed and the ids involved, and nothing else (no names, no values, no secrets):
 * the app fetches what it shows again. `familyId` set: every session of every member of that household receives it;
 * `userId` set: every session of that user too (the member who joined, left or was removed; the owner of per-user
 * data). `cause` is the contract name of the call that made it (`updateDeviceName`…), for logs and tests.
 */
export const ZDomainEvent = z.object({
  kind: z.enum(DOMAIN_EVENT_KINDS),
  familyId: z.string().nullable(),
  deviceId: z.string().nullable(),
  userId: z.string().nullable(),
  cause: z.string(),
});
export type TDomainEvent = z.infer<typeof ZDomainEvent>;
