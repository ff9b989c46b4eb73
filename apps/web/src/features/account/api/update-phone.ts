import { endpoints, type QueryOf } from "@aquapilot/contract/wire";
import { api } from "../../../shared/api/client.ts";

/** Query of `POST …/profile/update-phone` (spec §7): ticket, phoneNumber, countryCode, code. */
export type UpdatePhoneInput = QueryOf<typeof endpoints.updatePhone>;

/** Changes the phone number with the ticket and the code sent to it; resolves the new profile. Errors: ApiError. */
export function updatePhone(input: UpdatePhoneInput) {
  return api(endpoints.updatePhone, { query: input, loading: true });
}
