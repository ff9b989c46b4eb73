import { endpoints } from "@aquapilot/contract/wire";
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
