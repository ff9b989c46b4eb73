import { endpoints } from "@aquapilot/contract/wire";
import { useMutation } from "@tanstack/react-query";
import { api } from "../../../shared/api/client.ts";

/** Input of {@link sendPhonePasswordCode}: digits only, country code like "+86". */
export interface SendPhoneCodeInput {
  phoneNumber: string;
  countryCode: string;
}

/** Sends a 6-digit registration code by SMS: `GET …/account/send_phone_password_code` (spec §7). */
export function sendPhonePasswordCode(input: SendPhoneCodeInput) {
  return api(endpoints.sendPhonePasswordCode, { query: input, loading: true });
}

/** Mutation hook of {@link sendPhonePasswordCode}; errors toast through the mutation cache. */
export function useSendPhonePasswordCode() {
  return useMutation({ mutationKey: ["account", "send_phone_password_code"], mutationFn: sendPhonePasswordCode });
}
