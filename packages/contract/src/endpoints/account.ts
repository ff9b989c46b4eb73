import { z } from "zod";
import { endpoint, noQuery, ZIsoTime } from "./define.js";

// Account, profile and login info (spec §7 /api/basic-data/app/account, /profile; current-login-info).

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

const ZPassword = z.string().min(6).max(128);
const ZCode = z.string().regex(/^\d{6}$/);

/** Account, profile and current-login-info endpoints (spec §7). */
export const accountEndpoints = {
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
} as const;
