import { endpoints, type QueryOf } from "@aquapilot/contract/wire";
import { api } from "../../../shared/api/client.ts";

/** Query of `POST …/profile/update-email` (spec §7): ticket, email, code. */
export type UpdateEmailInput = QueryOf<typeof endpoints.updateEmail>;

/** Changes the e-mail with the ticket and the code sent to it; resolves the new profile. Errors: ApiError. */
export function updateEmail(input: UpdateEmailInput) {
  return api(endpoints.updateEmail, { query: input, loading: true });
}
