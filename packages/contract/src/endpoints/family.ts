import { z } from "zod";
import { paged, ZPagedQuery } from "../envelope.js";
import { endpoint, ZId, ZIsoTime } from "./define.js";

// Households: family, family-device, family-user (spec §7 /api/run-lucky/device/app/family…).

export const ZFamily = z.object({
  id: z.string(),
  name: z.string(),
  address: z.string().nullable(),
  longitude: z.number().nullable(),
  latitude: z.number().nullable(),
  avatar: z.string().nullable(),
  /** Whether the caller is this family's administrator (spec §6). */
  isAdmin: z.boolean(),
  memberCount: z.number().int(),
  deviceCount: z.number().int(),
  creationTime: ZIsoTime,
});
export type TFamily = z.infer<typeof ZFamily>;

/** One device in a family's list (spec §3 Device: name, image, online/offline state, sort order; plus live station). */
export const ZFamilyDevice = z.object({
  id: z.string(),
  familyId: z.string(),
  name: z.string(),
  image: z.string().nullable(),
  online: z.boolean(),
  station: z.number().int().min(0).max(8).nullable(),
  sort: z.number().int(),
  mac: z.string(),
  deviceModel: z.string().nullable(),
  lastReportTime: ZIsoTime.nullable(),
});
export type TFamilyDevice = z.infer<typeof ZFamilyDevice>;

/** Household endpoints (spec §7). */
export const familyEndpoints = {
  // family
  getFamilies: endpoint({
    method: "GET",
    path: "/api/run-lucky/device/app/family/",
    query: ZPagedQuery,
    body: undefined,
    result: paged(ZFamily),
    summary: "The caller's families",
  }),

  // family-device
  getFamilyDevices: endpoint({
    method: "GET",
    path: "/api/run-lucky/device/app/family-device/get-list-by-family-id",
    query: z.object({ familyId: ZId }),
    body: undefined,
    result: z.array(ZFamilyDevice),
    summary: "Devices of a family the caller belongs to, in sort order",
  }),
} as const;
