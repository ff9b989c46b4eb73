import { endpoints, type QueryOf } from "@aquapilot/contract/wire";
import { api } from "../../../shared/api/client.ts";

/**
 * Query of `POST …/profile/send-useridentity-verification` (spec §7): `purpose` "change-identity" with the ticket and
 * the NEW e-mail or phone (+ countryCode), or "delete-account" (code to the account's own e-mail or phone, `bindType`).
 */
export type SendIdentityCodeInput = QueryOf<typeof endpoints.sendUserIdentityVerification>;

/** Sends a 6-digit code (spec §5 "then code"); resolves `{sentTo}` (a masked address). Errors: ApiError. */
export function sendUserIdentityVerification(input: SendIdentityCodeInput) {
  return api(endpoints.sendUserIdentityVerification, { query: input, loading: true });
}
