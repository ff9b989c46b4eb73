import { endpoints } from "@aquapilot/contract/wire";
import { api } from "../../../shared/api/client.ts";

/** Sends a 6-digit registration code by e-mail: `GET …/account/send_email_password_code?email=` (spec §7). */
export function sendEmailPasswordCode(email: string) {
  return api(endpoints.sendEmailPasswordCode, { query: { email }, loading: true });
}
