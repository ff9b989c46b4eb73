import { z } from "zod";
import { ZStationTiming } from "./endpoints/device.ts";

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
  /** Present for kind "event": the system close reason or event name. */
  event: z
    .object({
      type: z.string(),
      closeReason: z.number().int().nullable(),
      /** For "ota-progress": percent of the firmware update done. */
      progress: z.number().nullable().optional(),
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
