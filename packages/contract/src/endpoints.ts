import { z } from "zod";
import { paged, ZPagedQuery } from "./envelope.js";

/**
 * One endpoint of spec §7: method, path (verbatim), query, body and result schemas.
 * The server registers routes from these entries; the web client's `api(endpoint, params)` is typed from them.
 * `open` marks calls that need no bearer token.
 */
export interface Endpoint<
  Q extends z.ZodObject = z.ZodObject,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType = z.ZodType,
> {
  method: "GET" | "POST" | "PUT" | "DELETE";
  path: string;
  query: Q;
  body: B;
  result: R;
  open?: boolean;
  summary: string;
}

function endpoint<Q extends z.ZodObject, B extends z.ZodType | undefined, R extends z.ZodType>(
  e: Endpoint<Q, B, R>,
): Endpoint<Q, B, R> {
  return e;
}

const noQuery = z.object({});
const ZId = z.string().min(1).max(64);
const ZIsoTime = z.string();

// ---------- shared entity schemas (spec §3) ----------

export const ZCurrentUser = z.object({
  isAuthenticated: z.boolean(),
  id: z.string().nullable(),
  userName: z.string().nullable(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  phoneNumber: z.string().nullable(),
});
export type TCurrentUser = z.infer<typeof ZCurrentUser>;

/** ABP application configuration, trimmed to what the app reads (spec §7 "Current-login-info endpoint"). */
export const ZApplicationConfiguration = z.object({
  currentUser: ZCurrentUser,
  auth: z.object({ grantedPolicies: z.record(z.string(), z.boolean()) }),
  localization: z.object({ currentCulture: z.object({ name: z.string() }) }),
});
export type TApplicationConfiguration = z.infer<typeof ZApplicationConfiguration>;

export const ZProfile = z.object({
  id: z.string(),
  userName: z.string(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  countryCode: z.string().nullable(),
  serviceRegion: z.number().int(),
  languageType: z.string(),
  avatar: z.string().nullable(),
  creationTime: ZIsoTime,
});
export type TProfile = z.infer<typeof ZProfile>;

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

const ZPassword = z.string().min(6).max(128);
const ZCode = z.string().regex(/^\d{6}$/);

// ---------- endpoints ----------

export const endpoints = {
  applicationConfiguration: endpoint({
    method: "GET",
    path: "/api/abp/application-configuration",
    query: noQuery,
    body: undefined,
    result: ZApplicationConfiguration,
    open: true,
    summary: "Current login info: current user and grantedPolicies (spec §3, §6, §7)",
  }),

  // account (spec §7 /api/basic-data/app/account)
  sendEmailPasswordCode: endpoint({
    method: "GET",
    path: "/api/basic-data/app/account/send_email_password_code",
    query: z.object({ email: z.email() }),
    body: undefined,
    result: z.null(),
    open: true,
    summary: "Send a 6-digit registration code by e-mail",
  }),
  sendPhonePasswordCode: endpoint({
    method: "GET",
    path: "/api/basic-data/app/account/send_phone_password_code",
    query: z.object({ phoneNumber: z.string().regex(/^\d{4,15}$/), countryCode: z.string().regex(/^\+?\d{1,4}$/) }),
    body: undefined,
    result: z.null(),
    open: true,
    summary: "Send a 6-digit registration code by SMS",
  }),
  register: endpoint({
    method: "POST",
    path: "/api/basic-data/app/account/register",
    query: z.object({
      bindType: z.coerce.number().pipe(z.union([z.literal(1), z.literal(2)])),
      account: z.string().min(3).max(256),
      password: ZPassword,
      code: ZCode,
      serviceRegion: z.coerce.number().pipe(z.union([z.literal(1), z.literal(2)])),
      countryCode: z
        .string()
        .regex(/^\+?\d{1,4}$/)
        .optional(),
      userName: z.string().min(2).max(64).optional(),
    }),
    body: undefined,
    result: z.object({ id: z.string(), userName: z.string() }),
    open: true,
    summary: "Register by e-mail (bindType 1) or phone (bindType 2) with a code",
  }),
  userBindTypeList: endpoint({
    method: "GET",
    path: "/api/basic-data/app/account/user_bind_type_list",
    query: noQuery,
    body: undefined,
    result: z.array(z.object({ value: z.number().int(), name: z.string() })),
    open: true,
    summary: "The bind types: 1 email, 2 phone",
  }),

  // profile
  getProfile: endpoint({
    method: "GET",
    path: "/api/basic-data/app/profile/",
    query: noQuery,
    body: undefined,
    result: ZProfile,
    summary: "The caller's profile",
  }),

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

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;
export type QueryOf<E extends Endpoint> = z.input<E["query"]>;
export type BodyOf<E extends Endpoint> = E["body"] extends z.ZodType ? z.input<E["body"]> : undefined;
export type ResultOf<E extends Endpoint> = z.output<E["result"]>;

// ---------- OAuth 2.0 token endpoint (not enveloped) ----------

export const TOKEN_PATH = "/connect/token";

export const ZTokenRequest = z.discriminatedUnion("grant_type", [
  z.object({
    grant_type: z.literal("password"),
    username: z.string().min(1),
    password: z.string().min(1),
    client_id: z.string().optional(),
    scope: z.string().optional(),
  }),
  z.object({
    grant_type: z.literal("refresh_token"),
    refresh_token: z.string().min(1),
    client_id: z.string().optional(),
  }),
]);
export type TTokenRequest = z.infer<typeof ZTokenRequest>;

export const ZTokenResponse = z.object({
  access_token: z.string(),
  token_type: z.literal("Bearer"),
  /** Seconds until the access token expires. */
  expires_in: z.number().int(),
  refresh_token: z.string(),
});
export type TTokenResponse = z.infer<typeof ZTokenResponse>;

export const ZTokenError = z.object({
  error: z.enum(["invalid_grant", "invalid_request", "unsupported_grant_type", "invalid_client"]),
  error_description: z.string(),
});
export type TTokenError = z.infer<typeof ZTokenError>;

/** Permission names carried in grantedPolicies (spec §6). A device master holds every one; only a master holds "master". */
export const PERMISSIONS = {
  master: "master",
  familyManage: "Family.Manage",
  deviceView: "Device.View",
  deviceControl: "Device.Control",
  deviceSetting: "Device.Setting",
  message: "Message",
  afterSale: "AfterSale",
} as const;
export type Permission = (typeof PERMISSIONS)[keyof typeof PERMISSIONS];
