import { z } from "zod";
import { FAMILY_AVATAR_PRESETS, PERMISSIONS } from "../constants.ts";
import { paged, ZPagedQuery } from "../envelope.ts";
import { familyAdmin, familyMember, ownerOf, SIGNED_IN } from "./access.ts";
import { ZUploadedImage } from "./account.ts";
import { endpoint, noQuery, ZBoolQuery, ZId, ZIsoTime, ZNumber, ZQueryNumber, ZText } from "./define.ts";

// Households: family, family-device, family-user (spec §7 /api/run-lucky/device/app/family…).

export const ZFamily = z.object({
  id: z.string(),
  name: z.string(),
  address: z.string().nullable(),
  longitude: z.number().nullable(),
  latitude: z.number().nullable(),
  /** Region path chosen with the address (names from travel-location-lookup), when given. */
  province: z.string().nullable(),
  city: z.string().nullable(),
  district: z.string().nullable(),
  avatar: z.string().nullable(),
  /** Whether the caller is this family's administrator (spec §6). */
  isAdmin: z.boolean(),
  memberCount: z.number().int(),
  deviceCount: z.number().int(),
  creationTime: ZIsoTime,
});
export type TFamily = z.infer<typeof ZFamily>;

/**
 * How the cloud hears a device (docs/device-protocol.md §5.1, §5.2), additive fields of the device answers; all
 * server times, ISO 8601 UTC instants:
 * - `lastHeardAt`: when the cloud last accepted a state or telemetry report of the device (receive time), null when
 *   never — for "last heard HH:mm". `online` is true only while this (or the device's last connection) lies within
 *   the report interval plus margin (DEVICE_REPORT_INTERVAL_SECONDS + DEVICE_REPORT_MARGIN_SECONDS) and the device's
 *   status says online.
 * - `reportsRefusedSince`: since when the cloud refuses the device's reports (null while it accepts them): the device
 *   talks, but what it says is not stored, so its figures are as of `lastHeardAt`.
 * - `reportsRefusedReason`: why, a gateway refusal reason: "invalid" (outside the protocol's schema), "not-json",
 *   "too-large"; null while accepted.
 */
export const ZDeviceLink = z.object({
  lastHeardAt: ZIsoTime.nullable().optional(),
  reportsRefusedSince: ZIsoTime.nullable().optional(),
  reportsRefusedReason: z.string().nullable().optional(),
});
export type TDeviceLink = z.infer<typeof ZDeviceLink>;

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
  ...ZDeviceLink.shape,
});
export type TFamilyDevice = z.infer<typeof ZFamilyDevice>;

/**
 * The badges of one device on the Home dashboard: vacation mode on; a cycle running
 * (stations 1–4 and 6–8); firmware `"available"` (a newer version than the one the device reports) or `"updating"`
 * (an update running); an open alarm, `"closed"` (the valve closed the water with a close reason, spec §3) or
 * `"offline"` (offline longer than OFFLINE_MESSAGE_MINUTES, the same rule as the offline alarm message).
 */
export const ZDashboardBadges = z.object({
  vacation: z.boolean(),
  regenerating: z.boolean(),
  firmwareUpdate: z.enum(["available", "updating"]).nullable(),
  alarm: z.enum(["closed", "offline"]).nullable(),
});
export type TDashboardBadges = z.infer<typeof ZDashboardBadges>;

/**
 * One device's figures on the Home dashboard. Units: L, kg, days; times ISO 8601 UTC instants (real time,
 * never the device clock), which the app shows in the phone's local time.
 */
export const ZDeviceDashboard = z.object({
  deviceId: z.string(),
  /** Salt left in the brine tank, kg; null until the owner has entered a level (get-salt-status). */
  saltLevelKg: z.number().nullable(),
  /** "Salt runs out in N days"; null when unknown. */
  saltDaysLeft: z.number().int().nullable(),
  /** Salt runs out within the owner's reminder threshold, or cannot feed the next regeneration. */
  lowSalt: z.boolean(),
  /** Water metered since the caller's local midnight (X-Time-Zone), by the cloud's receive time, L. */
  waterTodayL: z.number(),
  /** Soft water left before regeneration is due, as last reported, L. */
  remainingWaterL: z.number().nullable(),
  /** Soft water a freshly regenerated bed delivers, L (0 for a filter). */
  capacityL: z.number().nullable(),
  /** When the valve will start its next regeneration (forecast); null while one runs, in vacation, when closed or unknown. */
  nextRegenerationAt: ZIsoTime.nullable(),
  /** Close reason of an open close (spec §3), else null. */
  closeReason: z.number().int().nullable(),
  /** When the cloud last heard from the device (server time), null when never. */
  lastSeenAt: ZIsoTime.nullable(),
  badges: ZDashboardBadges,
  ...ZDeviceLink.shape,
});
export type TDeviceDashboard = z.infer<typeof ZDeviceDashboard>;

/** The Home dashboard of one household: a household total of water used today and every device's figures. */
export const ZFamilyDashboard = z.object({
  familyId: z.string(),
  /** The IANA time zone "today" was cut in (the X-Time-Zone header; UTC without it). */
  timeZone: z.string(),
  /** Local midnight that began today, ISO UTC instant. */
  dayStart: ZIsoTime,
  /** Sum of the devices' waterTodayL, L. */
  waterTodayL: z.number(),
  /** In the household's device order (sort). */
  devices: z.array(ZDeviceDashboard),
});
export type TFamilyDashboard = z.infer<typeof ZFamilyDashboard>;

/** A family name: 1–32 characters after trimming. */
export const ZFamilyName = ZText(32, { trim: true, min: 1 });
/**
 * A household's avatar: one of the pictures shipped with the app ({@link FAMILY_AVATAR_PRESETS}) or an image the
 * caller uploaded ({@link ZUploadedImage}, checked as the caller's own); no outside URL or other path.
 */
export const ZFamilyAvatar = z
  .union([z.enum(FAMILY_AVATAR_PRESETS as [string, ...string[]]), ZUploadedImage])
  .describe(
    "A picture shipped with the app (/family-avatars/1.svg … 8.svg) or an image the caller uploaded " +
      "(/uploads/files/… or /uploads/avatars/…, the caller's own upload only).",
  );
/** Degrees east, −180..180. */
const ZLongitude = ZNumber(-180, 180);
/** Degrees north, −90..90. */
const ZLatitude = ZNumber(-90, 90);
const ZRegionName = ZText(64, { trim: true });
/** A household address as typed or chosen on the map: at most 256 characters, one line. */
const ZAddress = ZText(256, { trim: true });

/**
 * Body of family POST / (spec §5 "Create family: address required"). `address`, `longitude` and `latitude` are
 * optional in the schema so that a missing address answers the spec's own text "Select household address" (400,
 * validationErrors members ["address"]) in the caller's language rather than a generic "required"; the client must
 * send all three.
 */
export const ZFamilyCreate = z.object({
  name: ZFamilyName,
  address: ZAddress.nullish(),
  longitude: ZLongitude.nullish(),
  latitude: ZLatitude.nullish(),
  province: ZRegionName.nullish(),
  city: ZRegionName.nullish(),
  district: ZRegionName.nullish(),
  avatar: ZFamilyAvatar.nullish(),
});
export type TFamilyCreate = z.infer<typeof ZFamilyCreate>;

const ZFamilyIdQuery = z.object({ familyId: ZId });
const ZIdParams = z.object({ id: ZId });

/** Query of update-family-address: the same address rule as create (all three of address, longitude, latitude). */
export const ZFamilyAddressQuery = z.object({
  familyId: ZId,
  address: ZAddress.optional(),
  longitude: ZQueryNumber(-180, 180).optional(),
  latitude: ZQueryNumber(-90, 90).optional(),
  province: ZRegionName.optional(),
  city: ZRegionName.optional(),
  district: ZRegionName.optional(),
});

/** One member of a family (spec §3 "Member has an admin flag"). `id` is the family-user id used by DELETE /{id}. */
export const ZFamilyUser = z.object({
  id: z.string(),
  familyId: z.string(),
  userId: z.string(),
  userName: z.string(),
  name: z.string().nullable(),
  avatar: z.string().nullable(),
  isAdmin: z.boolean(),
  /** When the user joined (ISO 8601 UTC). */
  joinTime: ZIsoTime,
});
export type TFamilyUser = z.infer<typeof ZFamilyUser>;

/** A fresh share code (spec §4 "Family QR code valid 15 minutes, refreshable"). */
export const ZShareCode = z.object({
  /** Signed, single-purpose (join-family) text to put into the QR code. */
  code: z.string(),
  expiresAt: ZIsoTime,
  /** Seconds the code stays valid from now (900 when fresh). */
  validSeconds: z.number().int(),
});
export type TShareCode = z.infer<typeof ZShareCode>;

/** What analysis-code answers: the family the code invites to, and whether the caller joined now. */
export const ZShareAnalysis = z.object({
  familyId: z.string(),
  familyName: z.string(),
  address: z.string().nullable(),
  avatar: z.string().nullable(),
  memberCount: z.number().int(),
  deviceCount: z.number().int(),
  /** Display name (or user name) of the administrator who shared the code. */
  inviterName: z.string(),
  expiresAt: ZIsoTime,
  /** True when this call added the caller to the family. */
  joined: z.boolean(),
  /** True when the caller was already a member (joining twice is harmless). */
  alreadyMember: z.boolean(),
});
export type TShareAnalysis = z.infer<typeof ZShareAnalysis>;

/** One code in "my shares" (FamilyShareList): codes the caller created, newest first. */
export const ZFamilyShare = z.object({
  id: z.string(),
  familyId: z.string(),
  familyName: z.string(),
  /** The code text while it can still be used (to show the QR again); null once expired or revoked. */
  code: z.string().nullable(),
  createdAt: ZIsoTime,
  expiresAt: ZIsoTime,
  expired: z.boolean(),
  revoked: z.boolean(),
  /** How many users joined with it. */
  joinCount: z.number().int(),
});
export type TFamilyShare = z.infer<typeof ZFamilyShare>;

const FAMILY = "/api/run-lucky/device/app/family";
const FAMILY_USER = "/api/run-lucky/device/app/family-user";

/** Household endpoints (spec §7). Extensions beyond §7 say so in their summary. */
export const familyEndpoints = {
  // family (spec §7 /api/run-lucky/device/app/family)
  getFamilies: endpoint({
    method: "GET",
    access: SIGNED_IN,
    path: `${FAMILY}/`,
    query: ZPagedQuery,
    body: undefined,
    result: paged(ZFamily),
    summary: "The caller's families",
  }),
  createFamily: endpoint({
    method: "POST",
    access: SIGNED_IN,
    path: `${FAMILY}/`,
    query: noQuery,
    body: ZFamilyCreate,
    result: ZFamily,
    summary: "Create a family; the caller becomes its administrator (spec §5: address required)",
  }),
  getFamily: endpoint({
    method: "GET",
    access: familyMember("params.id"),
    path: `${FAMILY}/{id}`,
    query: noQuery,
    params: ZIdParams,
    body: undefined,
    result: ZFamily,
    summary: "One family the caller belongs to",
  }),
  deleteFamily: endpoint({
    method: "DELETE",
    access: familyAdmin("params.id"),
    path: `${FAMILY}/{id}`,
    query: noQuery,
    params: ZIdParams,
    body: undefined,
    result: z.null(),
    summary: "Delete a family (administrator): devices unbound, members and share codes removed",
  }),
  withdrawFromFamily: endpoint({
    method: "POST",
    access: familyMember("query.familyId"),
    path: `${FAMILY}/withdraw-from-family`,
    query: ZFamilyIdQuery,
    body: undefined,
    result: z.null(),
    summary: "Leave a family (a member; the administrator must transfer or delete first)",
  }),
  updateFamilyAvatar: endpoint({
    method: "PUT",
    access: familyAdmin("query.familyId"),
    path: `${FAMILY}/update-family-avatar`,
    query: z.object({ familyId: ZId, avatar: ZFamilyAvatar }),
    body: undefined,
    result: ZFamily,
    summary: "Change a family's avatar (administrator)",
  }),
  updateFamilyName: endpoint({
    method: "PUT",
    access: familyAdmin("query.familyId"),
    path: `${FAMILY}/update-family-name`,
    query: z.object({ familyId: ZId, name: ZFamilyName }),
    body: undefined,
    result: ZFamily,
    summary: "Rename a family (administrator)",
  }),
  updateFamilyAddress: endpoint({
    method: "PUT",
    access: familyAdmin("query.familyId"),
    path: `${FAMILY}/update-family-address`,
    query: ZFamilyAddressQuery,
    body: undefined,
    result: ZFamily,
    summary: "Change a family's address and location (administrator)",
  }),

  // family-device (spec §7 /api/run-lucky/device/app/family-device)
  getFamilyDevices: endpoint({
    method: "GET",
    access: { caller: PERMISSIONS.deviceView, object: { object: "family", role: "member", in: "query.familyId" } },
    path: "/api/run-lucky/device/app/family-device/get-list-by-family-id",
    query: z.object({ familyId: ZId }),
    body: undefined,
    result: z.array(ZFamilyDevice),
    summary: "Devices of a family the caller belongs to, in sort order",
  }),
  getFamilyDashboard: endpoint({
    method: "GET",
    access: familyMember("query.familyId"),
    path: "/api/run-lucky/device/app/family-device/dashboard",
    query: z.object({ familyId: ZId }),
    body: undefined,
    result: ZFamilyDashboard,
    summary:
      "Home dashboard of a family the caller belongs to: water used today (caller's local day), salt, water left, next regeneration and badges per device (extension)",
  }),

  // family-user (spec §7 /api/run-lucky/device/app/family-user)
  getFamilyUsers: endpoint({
    method: "GET",
    access: familyMember("query.familyId"),
    path: `${FAMILY_USER}/get-list-by-family-id`,
    query: ZFamilyIdQuery,
    body: undefined,
    result: z.array(ZFamilyUser),
    summary: "Members of a family the caller belongs to: administrator first, then by join time",
  }),
  removeFamilyUser: endpoint({
    method: "DELETE",
    access: { caller: PERMISSIONS.familyManage, object: { object: "familyMember", role: "admin", in: "params.id" } },
    path: `${FAMILY_USER}/{id}`,
    query: noQuery,
    params: ZIdParams,
    body: undefined,
    result: z.null(),
    summary: "Remove a member by family-user id (administrator; not himself)",
  }),
  transferAdministrator: endpoint({
    method: "DELETE",
    access: familyAdmin("query.familyId"),
    path: `${FAMILY_USER}/transfer-administrator`,
    query: z.object({ familyId: ZId, familyUserId: ZId.optional(), userId: ZId.optional() }),
    body: undefined,
    result: z.null(),
    summary: "Hand the administrator role to another member (familyUserId or userId)",
  }),
  getShareCode: endpoint({
    method: "GET",
    access: familyAdmin("query.familyId"),
    path: `${FAMILY_USER}/trans-to-other-member-qr-code`,
    // `refresh` (extension): a new code even when the administrator's current one is still good (the refresh button).
    query: ZFamilyIdQuery.extend({ refresh: ZBoolQuery.optional() }),
    body: undefined,
    result: ZShareCode,
    summary:
      "The administrator's join-family share code (valid 15 minutes; the current one again while it has time left)",
  }),
  analysisCode: endpoint({
    method: "POST",
    access: SIGNED_IN,
    path: `${FAMILY_USER}/analysis-code`,
    query: z.object({
      code: ZText(1024, { trim: true, min: 1 }),
      /** Extension: "true" checks the code and answers the family without joining (for the confirmation). */
      preview: z
        .enum(["true", "false"])
        .optional()
        .transform((v) => v === "true"),
    }),
    body: undefined,
    result: ZShareAnalysis,
    summary: "Join the family of a scanned share code (preview=true only checks it)",
  }),
  getMyShares: endpoint({
    method: "GET",
    access: SIGNED_IN,
    path: `${FAMILY_USER}/my-share-list`,
    query: ZPagedQuery,
    body: undefined,
    result: paged(ZFamilyShare),
    summary: "Extension: share codes the caller created, newest first (FamilyShareList)",
  }),
  revokeShareCode: endpoint({
    method: "DELETE",
    access: ownerOf("shareCode", "query.id"),
    path: `${FAMILY_USER}/revoke-share-code`,
    query: z.object({ id: ZId }),
    body: undefined,
    result: z.null(),
    summary: "Extension: revoke one of the caller's share codes",
  }),
} as const;
