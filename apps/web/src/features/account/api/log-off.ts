import { endpoints } from "@aquapilot/contract/wire";
import { api } from "../../../shared/api/client.ts";

/**
 * Deletes the account with the delete-account code (spec §5 "Delete account: security code verification first";
 * §7 `POST …/profile/log-off?code=`). The server hands on or deletes the households and ends every session.
 * Errors: ApiError (wrong or expired code).
 */
export function logOff(code: string) {
  return api(endpoints.logOff, { query: { code }, loading: true });
}
