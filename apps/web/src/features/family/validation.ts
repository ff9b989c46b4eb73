/** Longest household name the server accepts (contract ZFamilyName: 1–32 characters after trimming). */
export const FAMILY_NAME_MAX = 32;

/**
 * Checks a household name before sending it: the i18n key of the problem ("family.nameRequired",
 * "family.nameTooLong"), or null when it is fine. Length counts UTF-16 units after trimming, as the server does.
 */
export function validateFamilyName(name: string): "family.nameRequired" | "family.nameTooLong" | null {
  const trimmed = name.trim();
  if (!trimmed) return "family.nameRequired";
  if (trimmed.length > FAMILY_NAME_MAX) return "family.nameTooLong";
  return null;
}
