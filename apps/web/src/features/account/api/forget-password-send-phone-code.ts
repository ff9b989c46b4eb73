import { endpoints, type QueryOf } from "@aquapilot/contract/wire";
import { api } from "../../../shared/api/client.ts";

/** Query of {@link forgetPasswordSendPhoneCode}: national number (digits) and calling code such as "+86". */
export type ForgetPasswordPhoneInput = QueryOf<typeof endpoints.forgetPasswordSendPhoneCode>;

/**
 * Sends a 6-digit password-reset code by SMS: `GET …/account/forget_password_send_phone_password_code` (spec §7,
 * §5 Find password). The server answers success for unknown numbers too. Errors: ApiError (e.g. rate limited).
 */
export function forgetPasswordSendPhoneCode(input: ForgetPasswordPhoneInput) {
  return api(endpoints.forgetPasswordSendPhoneCode, { query: input, loading: true });
}
