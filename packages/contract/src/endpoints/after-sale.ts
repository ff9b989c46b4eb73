import { z } from "zod";
import { PERMISSIONS } from "../constants.ts";
import { paged, ZPagedQuery } from "../envelope.ts";
import { deviceMember, ownerOf } from "./access.ts";
import { endpoint, noQuery, ZBoolQuery, ZId, ZIsoTime, ZMultilineText, ZText } from "./define.ts";

// After-sales requests (spec §3 "After-sales request: device, description, handled or unhandled";
// §7 /api/run-lucky/device/app/post-sale; screens AfterSaleList, AfterSaleCreate).

/** An uploaded photo: the relative path answered by the file upload ({@link ZUploadedFile}.fileUrl). */
export const ZPhotoPath = ZText(512, { trim: true, min: 1 });

/**
 * The device's diagnostics attached to a request with the owner's consent: firmware version, the current settings,
 * the events of the last 30 days and 30 days of daily water use (L). Frozen when attached.
 */
export const ZDiagnostics = z.object({
  collectedTime: ZIsoTime,
  firmwareVersion: z.string().nullable(),
  model: z.string().nullable(),
  online: z.boolean(),
  lastReportTime: ZIsoTime.nullable(),
  settings: z.record(z.string(), z.unknown()).nullable(),
  events: z.array(z.object({ time: ZIsoTime, type: z.string(), closeReason: z.number().int().nullable() })),
  dailyUsage: z.array(z.object({ date: z.string(), waterL: z.number(), regenerations: z.number().int() })),
});
export type TDiagnostics = z.infer<typeof ZDiagnostics>;

/** One after-sales request. `handled` is set by the service team (operator CLI); the owner edits only unhandled ones. */
export const ZAfterSale = z.object({
  id: z.string(),
  deviceId: z.string(),
  deviceName: z.string(),
  familyId: z.string(),
  description: z.string(),
  photos: z.array(z.string()),
  contactPhone: z.string().nullable(),
  handled: z.boolean(),
  handledTime: ZIsoTime.nullable(),
  /** The service team's answer, when handled. */
  reply: z.string().nullable(),
  diagnostics: ZDiagnostics.nullable(),
  creationTime: ZIsoTime,
  lastModificationTime: ZIsoTime.nullable(),
});
export type TAfterSale = z.infer<typeof ZAfterSale>;

/** Body of `createAfterSale`: a device of the caller's household, 5–500 characters, up to 6 photos. */
export const ZAfterSaleCreate = z.object({
  deviceId: ZId,
  /** What is wrong, in the owner's words: 5–500 characters, may span lines. */
  description: ZMultilineText(500, { trim: true, min: 5 }),
  photos: z.array(ZPhotoPath).max(6).default([]),
  contactPhone: ZText(32, { trim: true }).nullish(),
  /** The owner's consent to attach the device's diagnostics. */
  attachDiagnostics: z.boolean().default(false),
});
export type TAfterSaleCreate = z.input<typeof ZAfterSaleCreate>;

/** Body of `updateAfterSale`: the same fields except the device. */
export const ZAfterSaleUpdate = ZAfterSaleCreate.omit({ deviceId: true });
export type TAfterSaleUpdate = z.input<typeof ZAfterSaleUpdate>;

const ZIdParams = z.object({ id: ZId });

export const afterSaleEndpoints = {
  createAfterSale: endpoint({
    method: "POST",
    access: deviceMember("body.deviceId", PERMISSIONS.afterSale),
    path: "/api/run-lucky/device/app/post-sale/",
    query: noQuery,
    body: ZAfterSaleCreate,
    result: ZAfterSale,
    summary: "File an after-sales request for a device of the caller's household",
  }),
  getAfterSaleList: endpoint({
    method: "GET",
    access: { caller: PERMISSIONS.afterSale },
    path: "/api/run-lucky/device/app/post-sale/",
    query: ZPagedQuery.extend({ handled: ZBoolQuery.optional() }),
    body: undefined,
    result: paged(ZAfterSale),
    summary: "The caller's after-sales requests, newest first; filter handled / unhandled",
  }),
  updateAfterSale: endpoint({
    method: "PUT",
    access: ownerOf("afterSale", "params.id", PERMISSIONS.afterSale),
    path: "/api/run-lucky/device/app/post-sale/{id}",
    query: noQuery,
    params: ZIdParams,
    body: ZAfterSaleUpdate,
    result: ZAfterSale,
    summary: "Edit one of the caller's unhandled requests",
  }),
  deleteAfterSale: endpoint({
    method: "DELETE",
    access: ownerOf("afterSale", "params.id", PERMISSIONS.afterSale),
    path: "/api/run-lucky/device/app/post-sale/{id}",
    query: noQuery,
    params: ZIdParams,
    body: undefined,
    result: z.null(),
    summary: "Withdraw one of the caller's unhandled requests",
  }),
  getAfterSale: endpoint({
    method: "GET",
    access: ownerOf("afterSale", "params.id", PERMISSIONS.afterSale),
    path: "/api/run-lucky/device/app/post-sale/{id}",
    query: noQuery,
    params: ZIdParams,
    body: undefined,
    result: ZAfterSale,
    summary: "One of the caller's requests",
  }),
} as const;
