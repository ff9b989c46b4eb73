import { endpoints, type QueryOf } from "@aquapilot/contract/wire";
import { api } from "../../../shared/api/client.ts";

/** Query of `POST …/profile/update-phone` (spec §7): ticket, phoneNumber, countryCode, code. */
export type UpdatePhoneInput = QueryOf<typeof endpoints.updatePhone>;
/** Query of `POST …/profile/update-email` (spec §7): ticket, email, code. */
export type UpdateEmailInput = QueryOf<typeof endpoints.updateEmail>;

/** Changes the phone number with the ticket and the code sent to it; resolves the new profile. Errors: ApiError. */
export function updatePhone(input: UpdatePhoneInput) {
  return api(endpoints.updatePhone, { query: input, loading: true });
}

/** Changes the e-mail with the ticket and the code sent to it; resolves the new profile. Errors: ApiError. */
export function updateEmail(input: UpdateEmailInput) {
  return api(endpoints.updateEmail, { query: input, loading: true });
}
