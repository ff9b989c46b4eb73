import { endpoints } from "@aquapilot/contract/wire";
import { useMutation } from "@tanstack/react-query";
import { api } from "../../../shared/api/client.ts";

/** Sends a 6-digit registration code by e-mail: `GET …/account/send_email_password_code?email=` (spec §7). */
export function sendEmailPasswordCode(email: string) {
  return api(endpoints.sendEmailPasswordCode, { query: { email }, loading: true });
}

/** Mutation hook of {@link sendEmailPasswordCode}; errors toast through the mutation cache. */
export function useSendEmailPasswordCode() {
  return useMutation({ mutationKey: ["account", "send_email_password_code"], mutationFn: sendEmailPasswordCode });
}
