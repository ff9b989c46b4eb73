import { z } from "zod";
import { DISPLAY_NAME_MAX } from "../display-name.ts";
import { LANGUAGES } from "../enums.ts";
import { OPEN, SIGNED_IN } from "./access.ts";
import { endpoint, noQuery, ZEmail, ZIsoTime, ZQueryChoice, ZText } from "./define.ts";

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

/** A new password: 6–128 characters (spec §5), single-line. */
const ZPassword = ZText(128, { min: 6 });
/** A password as typed at sign-in or confirmation: 1–128 characters. */
const ZPasswordEntry = ZText(128, { min: 1 });
/** A verification code: exactly 6 digits (spec §7 codes). */
const ZCode = ZText(6).regex(/^\d{6}$/);
/** A national phone number: 4–15 digits. */
const ZPhoneNumber = ZText(15).regex(/^\d{4,15}$/);
/** A calling code, with or without "+": 1–4 digits. */
const ZCountryCode = ZText(5).regex(/^\+?\d{1,4}$/);
/** An e-mail or a phone number as typed for an account: 3–256 characters. */
const ZAccount = ZText(256, { min: 3 });
/** Bind type 1 e-mail or 2 phone (spec §3), sent as query text. */
const ZBindTypeQuery = ZQueryChoice([1, 2]);
/** A signed identity-change ticket (update-phone-or-email-verification). */
const ZTicket = ZText(2048);
/** A user name (spec §2 UpdateUserName): 2–64 characters, unique. */
export const ZUserName = ZText(64, { trim: true, min: 2 });
/**
 * A display name chosen at sign-up (spec §5 Register, "Other sign-up field rules: not shown"): 1–32 characters after
 * trimming ({@link DISPLAY_NAME_MAX}), single-line; not unique (the user name is what must be).
 */
export const ZDisplayName = ZText(DISPLAY_NAME_MAX, { trim: true, min: 1 });
/**
 * An image the caller uploaded (spec §7 "Images": a relative path the app prefixes with the API host): the path
 * upload-file or the profile's avatar upload answered, 32 hex digits and the image type. No outside URL, no other
 * path: the server also checks the upload is the caller's own (modules/files `requireOwnUploads`).
 */
export const ZUploadedImage = ZText(512)
  .regex(/^\/uploads\/(files|avatars)\/[0-9a-f]{32}\.(png|jpg|webp)$/)
  .describe(
    "An image the caller uploaded, by the path the upload answered (/uploads/files/… from upload-file, " +
      "/uploads/avatars/… from the profile's avatar upload); the server accepts only the caller's own uploads.",
  );

/** Answer of update-phone-or-email-verification: a signed ticket for the identity change, valid `expiresIn` s. */
export const ZIdentityTicket = z.object({ ticket: z.string(), expiresIn: z.number().int() });
export type TIdentityTicket = z.infer<typeof ZIdentityTicket>;

/** Map providers (spec §1): 1 AMap, 2 Baidu, 3 Tencent, any other Tianditu. */
export const ZMapKeys = z.object({ amap: z.string(), baidu: z.string(), tencent: z.string(), tianditu: z.string() });

/** App configuration served to every client (spec §1, §7 app-config-setting, "App-version endpoint"). */
export const ZAppConfigSetting = z.object({
  /** Spec §1: 114. */
  customerServicePhone: z.string(),
  /** 1 AMap, 2 Baidu, 3 Tencent, any other Tianditu (default 4). */
  mapType: z.number().int(),
  /** Vendor keys of the map service configuration ({key}); empty strings when not configured. */
  mapKeys: ZMapKeys,
  privacyPolicyArticleId: z.string().nullable(),
  userAgreementArticleId: z.string().nullable(),
  androidLatestVersion: z.string().nullable(),
  iosLatestVersion: z.string().nullable(),
  androidDownloadUrl: z.string().nullable(),
  iosDownloadUrl: z.string().nullable(),
  /** Version of the deployed web app; a client holding another one clears its cache and reloads. */
  webVersion: z.string().nullable(),
});
export type TAppConfigSetting = z.infer<typeof ZAppConfigSetting>;

export const ZRevocationRequest = z.object({
  token: ZText(4096, { min: 1 }),
  token_type_hint: z.enum(["refresh_token", "access_token"]).optional(),
  client_id: ZText(64).optional(),
});
export type TRevocationRequest = z.infer<typeof ZRevocationRequest>;

/** Account, profile and current-login-info endpoints (spec §7). */
export const accountEndpoints = {
  applicationConfiguration: endpoint({
    method: "GET",
    access: OPEN,
    path: "/api/abp/application-configuration",
    query: noQuery,
    body: undefined,
    result: ZApplicationConfiguration,
    summary: "Current login info: current user and grantedPolicies (spec §3, §6, §7)",
  }),

  // account (spec §7 /api/basic-data/app/account)
  sendEmailPasswordCode: endpoint({
    method: "GET",
    access: OPEN,
    path: "/api/basic-data/app/account/send_email_password_code",
    query: z.object({ email: ZEmail }),
    body: undefined,
    result: z.null(),
    summary: "Send a 6-digit registration code by e-mail",
  }),
  sendPhonePasswordCode: endpoint({
    method: "GET",
    access: OPEN,
    path: "/api/basic-data/app/account/send_phone_password_code",
    query: z.object({ phoneNumber: ZPhoneNumber, countryCode: ZCountryCode }),
    body: undefined,
    result: z.null(),
    summary: "Send a 6-digit registration code by SMS",
  }),
  register: endpoint({
    method: "POST",
    access: OPEN,
    path: "/api/basic-data/app/account/register",
    query: z.object({
      bindType: ZBindTypeQuery,
      account: ZAccount,
      password: ZPassword,
      code: ZCode,
      /** Service region 1 China or 2 Europe (spec §3). */
      serviceRegion: ZQueryChoice([1, 2]),
      countryCode: ZCountryCode.optional(),
      userName: ZText(64, { min: 2 }).optional(),
      /**
       * The display name household members see; absent (older clients), the server makes a readable one from the
       * e-mail's local part or, for a phone, "User" and the number's last 4 digits in the caller's language.
       */
      name: ZDisplayName.optional(),
    }),
    body: undefined,
    result: z.object({ id: z.string(), userName: z.string() }),
    summary: "Register by e-mail (bindType 1) or phone (bindType 2) with a code",
  }),
  userBindTypeList: endpoint({
    method: "GET",
    access: OPEN,
    path: "/api/basic-data/app/account/user_bind_type_list",
    query: noQuery,
    body: undefined,
    result: z.array(z.object({ value: z.number().int(), name: z.string() })),
    summary: "The bind types: 1 email, 2 phone",
  }),

  // find password (spec §5 "Find password")
  forgetPasswordSendPhoneCode: endpoint({
    method: "GET",
    access: OPEN,
    path: "/api/basic-data/app/account/forget_password_send_phone_password_code",
    query: z.object({ phoneNumber: ZPhoneNumber, countryCode: ZCountryCode }),
    body: undefined,
    result: z.null(),
    summary: "Send a 6-digit password-reset code by SMS; answers success for unknown numbers too (sends nothing)",
  }),
  forgetPasswordSendEmailCode: endpoint({
    method: "GET",
    access: OPEN,
    path: "/api/basic-data/app/account/forget_password_send_email_code",
    query: z.object({ email: ZEmail }),
    body: undefined,
    result: z.null(),
    summary: "Send a 6-digit password-reset code by e-mail; answers success for unknown e-mails too (sends nothing)",
  }),
  resetPassword: endpoint({
    method: "POST",
    access: OPEN,
    path: "/api/basic-data/app/account/reset_password",
    query: z.object({
      /** E-mail or phone number. */
      account: ZAccount,
      code: ZCode,
      password: ZPassword,
      confirmPassword: ZPasswordEntry,
      /** 1 email, 2 phone; guessed from the account when absent ("@" → e-mail). */
      bindType: ZBindTypeQuery.optional(),
      /** For a phone account; the registered country code is used when absent. */
      countryCode: ZCountryCode.optional(),
    }),
    body: undefined,
    result: z.null(),
    summary: "Set a new password with the reset code; ends every session of the account",
  }),

  // profile
  getProfile: endpoint({
    method: "GET",
    access: SIGNED_IN,
    path: "/api/basic-data/app/profile/",
    query: noQuery,
    body: undefined,
    result: ZProfile,
    summary: "The caller's profile",
  }),
  updateProfile: endpoint({
    method: "POST",
    access: SIGNED_IN,
    path: "/api/basic-data/app/profile/",
    query: noQuery,
    body: z.object({
      userName: ZUserName.optional(),
      name: ZText(DISPLAY_NAME_MAX, { trim: true }).nullable().optional(),
      avatar: ZUploadedImage.nullable().optional(),
    }),
    result: ZProfile,
    summary: "Change user name (unique, 2–64 characters; 409 when taken), display name (at most 32) and avatar",
  }),
  uploadAvatar: endpoint({
    method: "POST",
    access: SIGNED_IN,
    path: "/api/basic-data/app/profile/avatar",
    query: noQuery,
    // multipart/form-data with one file field (image/png, image/jpeg or image/webp, at most 2 MB); not JSON.
    body: undefined,
    result: z.string(),
    summary: "Upload an avatar image (multipart, PNG/JPEG/WebP ≤ 2 MB); answers its relative path /uploads/avatars/…",
  }),
  changePassword: endpoint({
    method: "POST",
    access: SIGNED_IN,
    path: "/api/basic-data/app/profile/change_password",
    query: noQuery,
    body: z.object({ currentPassword: ZPasswordEntry, newPassword: ZPassword }),
    result: z.null(),
    summary: "Change the password; ends every session (tokens and hub connections): the app signs in again",
  }),
  changeLanguageType: endpoint({
    method: "POST",
    access: SIGNED_IN,
    path: "/api/basic-data/app/profile/change_language-type",
    query: noQuery,
    body: z.object({ languageType: z.enum(LANGUAGES) }),
    result: z.null(),
    summary: "Store the user's language; e-mails and messages to the user go out in it",
  }),
  updatePhoneOrEmailVerification: endpoint({
    method: "POST",
    access: SIGNED_IN,
    path: "/api/basic-data/app/profile/update-phone-or-email-verification",
    query: z.object({ password: ZPasswordEntry }),
    body: undefined,
    result: ZIdentityTicket,
    summary: "Verify the password before changing phone or e-mail; answers a 10-minute ticket",
  }),
  sendUserIdentityVerification: endpoint({
    method: "POST",
    access: SIGNED_IN,
    path: "/api/basic-data/app/profile/send-useridentity-verification",
    query: z.object({
      /** change-identity (default): a code to the NEW e-mail or phone, with the ticket; delete-account: to the own. */
      purpose: z.enum(["change-identity", "delete-account"]).default("change-identity"),
      ticket: ZTicket.optional(),
      email: ZEmail.optional(),
      phoneNumber: ZPhoneNumber.optional(),
      countryCode: ZCountryCode.optional(),
      /** delete-account only: 1 to the own e-mail, 2 to the own phone; default e-mail when present. */
      bindType: ZBindTypeQuery.optional(),
    }),
    body: undefined,
    result: z.object({ sentTo: z.string() }),
    summary: "Send a 6-digit code: to a new identity (change phone/e-mail) or to the own one (delete account)",
  }),
  updatePhone: endpoint({
    method: "POST",
    access: SIGNED_IN,
    path: "/api/basic-data/app/profile/update-phone",
    query: z.object({
      ticket: ZTicket,
      phoneNumber: ZPhoneNumber,
      countryCode: ZCountryCode,
      code: ZCode,
    }),
    body: undefined,
    result: ZProfile,
    summary: "Change the phone number with the ticket and the code sent to the new number",
  }),
  updateEmail: endpoint({
    method: "POST",
    access: SIGNED_IN,
    path: "/api/basic-data/app/profile/update-email",
    query: z.object({ ticket: ZTicket, email: ZEmail, code: ZCode }),
    body: undefined,
    result: ZProfile,
    summary: "Change the e-mail with the ticket and the code sent to the new address",
  }),
  logOff: endpoint({
    method: "POST",
    access: SIGNED_IN,
    path: "/api/basic-data/app/profile/log-off",
    query: z.object({ code: ZCode }),
    body: undefined,
    result: z.null(),
    summary: "Delete the account with the delete-account code; families handed on or deleted; access ends at once",
  }),

  // app configuration (spec §7 /api/business-basic-data/app/app-config-setting)
  appConfigSetting: endpoint({
    method: "GET",
    access: OPEN,
    path: "/api/business-basic-data/app/app-config-setting/",
    query: noQuery,
    body: undefined,
    result: ZAppConfigSetting,
    summary: "Customer service phone, map type and keys, article ids, latest app versions, web version",
  }),
} as const;
