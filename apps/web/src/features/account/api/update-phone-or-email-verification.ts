import { endpoints } from "@aquapilot/contract/wire";
import { api } from "../../../shared/api/client.ts";

/**
 * Verifies the password before a phone or e-mail change (spec §5 "password verification first"):
 * `POST …/profile/update-phone-or-email-verification?password=` → `{ticket, expiresIn}` (seconds).
 * Errors: ApiError (wrong password).
 */
export function updatePhoneOrEmailVerification(password: string) {
  return api(endpoints.updatePhoneOrEmailVerification, { query: { password }, loading: true });
}
