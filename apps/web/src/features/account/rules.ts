import { LIMITS, nameFromEmail } from "@aquapilot/contract/wire";
import type { CountryCode } from "libphonenumber-js/mobile";
import { z } from "zod";
import { type CheckedPhone, checkPhone } from "./countries.ts";

/**
 * Form rules of the account screens (spec §5), as pure functions: each returns the i18n key of the first problem,
 * or null when the form may be sent.
 */

/** How an identity is entered: e-mail, or phone with a country. */
export type IdentityMode = "email" | "phone";

const ZEmail = z.email();

/** Whether a text is an e-mail address the server accepts. */
export function isEmail(value: string): boolean {
  return ZEmail.safeParse(value.trim()).success;
}

/** A verification code: exactly 6 digits (spec §7 codes). */
export function isCode(value: string): boolean {
  return /^\d{6}$/.test(value.trim());
}

/** The result of checking an e-mail or phone entry. */
export type IdentityCheck =
  | { ok: true; email?: string; phone?: CheckedPhone }
  | { ok: false; error: "register.accountRequired" | "findPassword.emailInvalid" | "country.phoneInvalid" };

/**
 * Checks an e-mail or a phone number for the chosen country (a phone number with libphonenumber-js
 * `isValidPhoneNumber`). Resolves the trimmed e-mail or the national number + calling code the API takes.
 */
export function checkIdentity(mode: IdentityMode, account: string, country: CountryCode): IdentityCheck {
  const value = account.trim();
  if (!value) return { ok: false, error: "register.accountRequired" };
  if (mode === "email")
    return isEmail(value) ? { ok: true, email: value } : { ok: false, error: "findPassword.emailInvalid" };
  const phone = checkPhone(value, country);
  return phone ? { ok: true, phone } : { ok: false, error: "country.phoneInvalid" };
}

/**
 * The display name Register prefills until the owner edits its Name field (spec §5 Register, "Other sign-up field
 * rules: not shown"): by e-mail, the name the account's local part suggests, as typed so far ("first.last@…" →
 * "First Last"; contract `nameFromEmail`, the rule the server applies when no name is sent; at most 32 characters);
 * by phone, "" (the server then names the account "User" and the number's last 4 digits).
 */
export function suggestedName(mode: IdentityMode, account: string): string {
  return mode === "email" ? nameFromEmail(account.trim()) : "";
}

/** The Find password form (spec §5: account, code, new password, confirmation matching). */
export interface FindPasswordForm {
  mode: IdentityMode;
  account: string;
  country: CountryCode;
  code: string;
  password: string;
  confirm: string;
}

/** Keys {@link validateFindPassword} may answer. */
export type FindPasswordError =
  | Extract<IdentityCheck, { ok: false }>["error"]
  | "register.codeRequired"
  | "findPassword.codeInvalid"
  | "register.passwordRequired"
  | "register.passwordTooShort"
  | "register.confirmRequired"
  | "register.passwordsMismatch";

/**
 * Spec §5 Find password: account (valid e-mail, or valid phone for the country), 6-digit code, new password of at
 * least 6 characters, confirmation equal to it. Returns the first problem's i18n key, or null.
 */
export function validateFindPassword(form: FindPasswordForm): FindPasswordError | null {
  const identity = checkIdentity(form.mode, form.account, form.country);
  if (!identity.ok) return identity.error;
  if (!form.code.trim()) return "register.codeRequired";
  if (!isCode(form.code)) return "findPassword.codeInvalid";
  if (!form.password) return "register.passwordRequired";
  if (form.password.length < LIMITS.minPasswordLength) return "register.passwordTooShort";
  if (!form.confirm) return "register.confirmRequired";
  if (form.password !== form.confirm) return "register.passwordsMismatch";
  return null;
}
