import { endpoints } from "@aquapilot/contract/wire";
import { api } from "../../../shared/api/client.ts";

/**
 * Sends a 6-digit password-reset code by e-mail: `GET …/account/forget_password_send_email_code?email=` (spec §7,
 * §5 Find password). The server answers success for unknown e-mails too. Errors: ApiError.
 */
export function forgetPasswordSendEmailCode(email: string) {
  return api(endpoints.forgetPasswordSendEmailCode, { query: { email }, loading: true });
}
