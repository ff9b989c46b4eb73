import { z } from "zod";
import { endpoint, ZId, ZIsoTime } from "./define.js";

// Devices: device, device-control, device-lookup, device-model (spec §7 /api/run-lucky/device/app/device…).

/** Live device information (spec §3 Device info, plus the reported state). Units: L, L/min, s. */
export const ZDeviceInfo = z.object({
  id: z.string(),
  mac: z.string(),
  name: z.string(),
  model: z.string().nullable(),
  deviceSerialNumber: z.string().nullable(),
  serialNumber: z.string().nullable(),
  firmwareVersion: z.string().nullable(),
  online: z.boolean(),
  station: z.number().int().min(0).max(8).nullable(),
  stationRemainingSeconds: z.number().nullable(),
  remainingWaterL: z.number().nullable(),
  capacityL: z.number().nullable(),
  flowRateLpm: z.number().nullable(),
  totalWaterL: z.number().nullable(),
  vacation: z.boolean(),
  closeReason: z.number().int().nullable(),
  lastReportTime: ZIsoTime.nullable(),
  /** Id of the query command sent to the device; its acknowledgement arrives on hub 1. */
  commandId: z.string().nullable(),
});
export type TDeviceInfo = z.infer<typeof ZDeviceInfo>;

/** Device endpoints (spec §7). */
export const deviceEndpoints = {
  // device-control
  queryDeviceInfo: endpoint({
    method: "POST",
    path: "/api/run-lucky/device/app/device-control/query-device-info",
    query: z.object({ deviceId: ZId }),
    body: undefined,
    result: ZDeviceInfo,
    summary: "Ask the device to report now; answers the last known state",
  }),
} as const;
