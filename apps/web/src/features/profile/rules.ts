import { DISPLAY_NAME_MAX, LIMITS } from "@aquapilot/contract/wire";

/** Form rules of the profile screens (spec §5), as pure functions returning the i18n key of the first problem. */

/** The UpdatePassword form. */
export interface ChangePasswordForm {
  current: string;
  next: string;
  confirm: string;
}

/** Keys {@link validateChangePassword} may answer. */
export type ChangePasswordError =
  | "password.currentRequired"
  | "password.newRequired"
  | "password.newTooShort"
  | "password.confirmRequired"
  | "password.mismatch"
  | "password.sameAsCurrent";

/**
 * Spec §5 "Change password: old password required; new at least 6 characters", plus the confirmation matching and
 * a new password that differs from the old one. Returns the first problem's i18n key, or null.
 */
export function validateChangePassword(form: ChangePasswordForm): ChangePasswordError | null {
  if (!form.current) return "password.currentRequired";
  if (!form.next) return "password.newRequired";
  if (form.next.length < LIMITS.minPasswordLength) return "password.newTooShort";
  if (!form.confirm) return "password.confirmRequired";
  if (form.next !== form.confirm) return "password.mismatch";
  if (form.next === form.current) return "password.sameAsCurrent";
  return null;
}

/** Length bounds of a user name (contract ZUserName: 2–64 after trimming). */
export const USER_NAME_LENGTH = { min: 2, max: 64 } as const;
/** Longest display name (contract `DISPLAY_NAME_MAX`: the same limit as at sign-up). */
export const NAME_MAX_LENGTH = DISPLAY_NAME_MAX;

/**
 * A user name (UpdateUserName): 2–64 characters after trimming, no white space inside (it signs in).
 * Returns the i18n key of the problem, or null.
 */
export function validateUserName(value: string): "personal.userNameRequired" | "personal.userNameRule" | null {
  const v = value.trim();
  if (!v) return "personal.userNameRequired";
  if (v.length < USER_NAME_LENGTH.min || v.length > USER_NAME_LENGTH.max || /\s/.test(v))
    return "personal.userNameRule";
  return null;
}

/** Image types the avatar upload takes (contract uploadAvatar: PNG, JPEG, WebP ≤ 2 MB). */
export const AVATAR_TYPES = ["image/png", "image/jpeg", "image/webp"] as const;
/** Largest avatar upload, bytes (2 MB). */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;

/** Whether a file may be sent as avatar as it is: "ok", "type" (not PNG/JPEG/WebP) or "size" (over 2 MB). */
export function checkAvatarFile(file: { type: string; size: number }): "ok" | "type" | "size" {
  if (!(AVATAR_TYPES as readonly string[]).includes(file.type)) return "type";
  return file.size > AVATAR_MAX_BYTES ? "size" : "ok";
}
