import { z } from "zod";
import { PERMISSIONS } from "../constants.ts";
import { paged, ZPagedQuery } from "../envelope.ts";
import { deviceMember, familyAdmin, familyMember, OPEN, SIGNED_IN } from "./access.ts";
import { endpoint, noQuery, ZId, ZIsoTime, ZIsoTimeInput, ZNumber, ZRecord, ZText } from "./define.ts";
import { ZDeviceLink, ZFamilyDevice } from "./family.ts";

// Devices: device, device-control, device-lookup, device-model (spec §7 /api/run-lucky/device/app/device…).

/**
 * How far the current station is, for a countdown that never runs backwards. Device seconds
 * (a time-scaled simulator runs `clockRate` of them per real second; a real valve 1). The station ends
 * `stationDurationSeconds − stationElapsedSeconds` device seconds after `reportedAt` (server time of that report).
 */
export const ZStationTiming = z.object({
  /** Seconds of the current station done when it was reported (device clock `ts − stationStartedAt`); null in service. */
  stationElapsedSeconds: z.number().nullable().optional(),
  /** Total length of the current station, s; null in service or when the device does not say. */
  stationDurationSeconds: z.number().nullable().optional(),
  /** Seconds until the valve is back in service, as reported; null in service or unknown. */
  serviceRemainingSeconds: z.number().nullable().optional(),
  /** When the server received that report (ISO UTC, real time — the time to show the owner). */
  reportedAt: z.string().nullable().optional(),
  /** Device seconds per real second, measured by the server between reports (1 for a real valve). */
  clockRate: z.number().optional(),
});
export type TStationTiming = z.infer<typeof ZStationTiming>;

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
  ...ZStationTiming.shape,
  remainingWaterL: z.number().nullable(),
  capacityL: z.number().nullable(),
  flowRateLpm: z.number().nullable(),
  totalWaterL: z.number().nullable(),
  vacation: z.boolean(),
  closeReason: z.number().int().nullable(),
  lastReportTime: ZIsoTime.nullable(),
  /** When the device was registered with the cloud at the factory (ISO UTC): what its age counts from (spec §9). */
  registeredAt: ZIsoTime.nullable().optional(),
  /** Id of the query command sent to the device; its acknowledgement arrives on hub 1. */
  commandId: z.string().nullable(),
  ...ZDeviceLink.shape,
});
export type TDeviceInfo = z.infer<typeof ZDeviceInfo>;

/** A partial set of advanced settings as sent or reported: numbers, or "HH:mm" / ISO text for time fields. */
export const ZDeviceSettings = z.record(z.string(), z.union([z.number(), z.string()]));
export type TDeviceSettings = z.infer<typeof ZDeviceSettings>;

/**
 * Advanced settings as a client sends them: at most 64 names of at most 64 characters, each a finite number
 * within ±1e9 or a single-line text of at most 64 characters ("HH:mm", ISO time). Which names and values a model
 * takes is checked by the server against the model's bounds (device-model settings).
 */
export const ZDeviceSettingsInput = ZRecord(ZText(64), z.union([ZNumber(-1e9, 1e9), ZText(64)]), 64);

/**
 * How one advanced setting is entered (spec §3 "Time entry units are Hr/Min or Min/Second"): `type` number (with
 * `min`/`max`/`step` in `unit`), time (a time of day "HH:mm", picker Hr/Min), datetime (ISO 8601 device clock) or
 * enum (`options` values with their meaning). `picker` names the time picker for durations.
 */
export const ZSettingDescriptor = z.object({
  name: z.string(),
  type: z.enum(["number", "time", "datetime", "enum"]),
  /** min, L, L/min, kg, days, count, mg/L CaCO₃, … ; null for enums and times of day. */
  unit: z.string().nullable(),
  /** "Hr/Min" for times of day, "Min/Second" for station durations (value in minutes, decimals allowed). */
  picker: z.enum(["Hr/Min", "Min/Second"]).nullable(),
  min: z.number().nullable(),
  max: z.number().nullable(),
  step: z.number().nullable(),
  options: z.array(z.object({ value: z.number(), label: z.string() })).nullable(),
  /** Reported by the device, not set from the app. */
  readOnly: z.boolean(),
});
export type TSettingDescriptor = z.infer<typeof ZSettingDescriptor>;

/** Which advanced settings a model has, with units and bounds (device-lookup/get-device-model-setting). */
export const ZDeviceModelSetting = z.object({
  deviceModel: z.string(),
  fields: z.array(ZSettingDescriptor),
  /** Where the bounds come from (manual titles and addresses; docs/device-protocol.md "Advanced settings"). */
  sources: z.array(z.string()),
});
export type TDeviceModelSetting = z.infer<typeof ZDeviceModelSetting>;

/**
 * A device model of the catalogue: name (in the caller's Accept-Language where the catalogue has it) and product
 * images (relative paths; the client prefixes the API host).
 */
export const ZDeviceModel = z.object({
  deviceModel: z.string(),
  name: z.string(),
  mainImage: z.string().nullable(),
  images: z.array(z.string()),
});
export type TDeviceModel = z.infer<typeof ZDeviceModel>;

/** A device with its live state, settings and model (device/get-device-with--data, family-device/get-device-detail). */
export const ZDeviceWithData = ZDeviceInfo.omit({ commandId: true }).extend({
  familyId: z.string().nullable(),
  image: z.string().nullable(),
  sort: z.number().int(),
  /** Last reported advanced settings (spec §3 names), null before the first report. */
  settings: ZDeviceSettings.nullable(),
  deviceModel: ZDeviceModel.nullable(),
});
export type TDeviceWithData = z.infer<typeof ZDeviceWithData>;

/**
 * Body of device POST / (bind a device to a household): the pairing code "MAC:SECRET" printed by the device, or
 * `mac` and `secret` apart. `rebind` true moves a device bound to another household (after a reset) here.
 */
export const ZDeviceBind = z.object({
  familyId: ZId,
  code: ZText(256, { trim: true, min: 3 }).optional(),
  mac: ZText(17, { trim: true, min: 12 }).optional(),
  secret: ZText(256, { min: 1 }).optional(),
  name: ZText(32, { trim: true, min: 1 }).optional(),
  rebind: z.boolean().optional(),
});
export type TDeviceBind = z.infer<typeof ZDeviceBind>;

/** A device name (spec §4 DeviceNameUpdate: label "Device name", field "Name"): 1–32 characters after trimming. */
export const ZDeviceName = ZText(32, { trim: true, min: 1 });
/** A device image: a relative path (e.g. "/device-images/aq-s25-front.svg"); never a URL with a host. */
export const ZDeviceImage = ZText(512, { trim: true, min: 1 }).refine(
  (v) => !/^[a-z][a-z0-9+.-]*:/i.test(v) && !v.startsWith("//"),
  "A relative path is expected",
);

/** A MAC address as typed: 12 hex digits with or without separators (12–17 characters). */
const ZMacText = ZText(17, { trim: true, min: 12 });
/** A device model name (device-model catalogue key). */
const ZModelName = ZText(64, { trim: true, min: 1 });
const ZMacQuery = z.object({ mac: ZMacText });
const ZModelQuery = z.object({ deviceModel: ZModelName });

/** Device, device-lookup, device-model, family-device details and the external callback (spec §7). */
export const deviceCatalogueEndpoints = {
  bindDevice: endpoint({
    method: "POST",
    access: familyAdmin("body.familyId"),
    path: "/api/run-lucky/device/app/device",
    query: noQuery,
    body: ZDeviceBind,
    // `alreadyInFamily` (extension): the device was in this household already; nothing changed.
    result: ZFamilyDevice.extend({ alreadyInFamily: z.boolean().optional() }),
    summary: "Bind a provisioned device to a household (administrator; pairing code MAC:SECRET)",
  }),
  getDeviceWithData: endpoint({
    method: "GET",
    access: deviceMember("query.deviceId"),
    path: "/api/run-lucky/device/app/device/get-device-with--data",
    query: z.object({ deviceId: ZId }),
    body: undefined,
    result: ZDeviceWithData,
    summary: "A device with its state, settings and model",
  }),
  updateDeviceName: endpoint({
    method: "POST",
    access: deviceMember("query.deviceId", PERMISSIONS.deviceSetting),
    path: "/api/run-lucky/device/app/device/update-device-name",
    query: z.object({ deviceId: ZId, name: ZDeviceName }),
    body: undefined,
    result: ZFamilyDevice,
    summary: "Rename a device (DeviceNameUpdate)",
  }),
  updateDeviceImage: endpoint({
    method: "POST",
    access: deviceMember("query.deviceId", PERMISSIONS.deviceSetting),
    path: "/api/run-lucky/device/app/device/update-device-image",
    query: z.object({ deviceId: ZId, image: ZDeviceImage }),
    body: undefined,
    result: ZFamilyDevice,
    summary: "Change a device's image (DeviceImage; relative path)",
  }),
  getImagesByDeviceModel: endpoint({
    method: "GET",
    access: SIGNED_IN,
    path: "/api/run-lucky/device/app/device-model/get-images-by-device-model",
    query: ZModelQuery,
    body: undefined,
    result: z.array(z.string()),
    summary: "Images of a device model (relative paths)",
  }),
  getMainImageByDeviceModel: endpoint({
    method: "GET",
    access: SIGNED_IN,
    path: "/api/run-lucky/device/app/device-model/get-main-image-by-device-model",
    query: ZModelQuery,
    body: undefined,
    result: z.string().nullable(),
    summary: "Main image of a device model",
  }),
  getMainImageByDeviceMac: endpoint({
    method: "GET",
    access: { caller: "signedIn", object: { object: "deviceMac", role: "member", in: "query.mac" } },
    path: "/api/run-lucky/device/app/device-model/get-main-image-by-device-mac",
    query: ZMacQuery,
    body: undefined,
    result: z.string().nullable(),
    summary: "Main image of the model of a device the caller may use",
  }),
  getImagesByDeviceMac: endpoint({
    method: "GET",
    access: { caller: "signedIn", object: { object: "deviceMac", role: "member", in: "query.mac" } },
    path: "/api/run-lucky/device/app/device-model/get-images-by-device-mac",
    query: ZMacQuery,
    body: undefined,
    result: z.array(z.string()),
    summary: "Images of the model of a device the caller may use",
  }),
  getDeviceDetail: endpoint({
    method: "GET",
    access: deviceMember("query.deviceId"),
    path: "/api/run-lucky/device/app/family-device/get-device-detail",
    query: z.object({ deviceId: ZId }),
    body: undefined,
    result: ZDeviceWithData,
    summary: "A household device with its state, settings and model",
  }),
  updateDeviceSort: endpoint({
    method: "PUT",
    access: familyMember("body.familyId"),
    path: "/api/run-lucky/device/app/family-device/update-device-sort",
    query: noQuery,
    body: z.object({ familyId: ZId, deviceIds: z.array(ZId).min(1).max(500) }),
    result: z.array(ZFamilyDevice),
    summary: "Reorder a household's devices (DeviceSort); every device of the family, in the new order",
  }),
  deleteDevice: endpoint({
    method: "DELETE",
    access: { caller: PERMISSIONS.familyManage, object: { object: "device", role: "admin", in: "query.deviceId" } },
    path: "/api/run-lucky/device/app/family-device/delete-device",
    query: z.object({ deviceId: ZId }),
    body: undefined,
    result: z.null(),
    summary: "Unbind a device from its household (administrator); it stays provisioned",
  }),
  getDeviceList: endpoint({
    method: "GET",
    access: {
      caller: PERMISSIONS.deviceView,
      object: { object: "family", role: "member", in: "query.familyId", optional: true },
    },
    path: "/api/run-lucky/device/app/device-lookup/get-device-list",
    query: ZPagedQuery.extend({ familyId: ZId.optional() }),
    body: undefined,
    result: paged(ZFamilyDevice),
    summary: "The caller's devices (of one household, or of all of them), paged",
  }),
  getDeviceModelSetting: endpoint({
    method: "GET",
    access: {
      caller: PERMISSIONS.deviceView,
      object: { object: "device", role: "member", in: "query.deviceId", optional: true },
    },
    path: "/api/run-lucky/device/app/device-lookup/get-device-model-setting",
    query: z.object({ deviceModel: ZModelName.optional(), deviceId: ZId.optional() }),
    body: undefined,
    result: ZDeviceModelSetting,
    summary: "Which advanced settings a model has, with units and bounds",
  }),
  sendDeviceConfigChangeMessage: endpoint({
    method: "POST",
    access: OPEN,
    path: "/api/run-lucky/Iot/app/external-callback/send-device-config-change-message",
    query: noQuery,
    body: z.object({ mac: ZMacText, settings: ZDeviceSettingsInput, ts: ZIsoTimeInput.optional() }),
    result: z.object({ deviceId: z.string(), settings: ZDeviceSettings }),
    summary: "A configuration change made at the valve (integration call; header x-external-callback-secret)",
  }),
} as const;

/** Device endpoints (spec §7). */
export const deviceEndpoints = {
  // device-control
  queryDeviceInfo: endpoint({
    method: "POST",
    access: deviceMember("query.deviceId"),
    path: "/api/run-lucky/device/app/device-control/query-device-info",
    query: z.object({ deviceId: ZId }),
    body: undefined,
    result: ZDeviceInfo,
    summary: "Ask the device to report now; answers the last known state",
  }),
  ...deviceCatalogueEndpoints,
} as const;
