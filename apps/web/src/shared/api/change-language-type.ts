import { endpoints, type Language } from "@aquapilot/contract/wire";
import { api } from "./client.ts";

/**
 * Tells the server the user's language (`POST …/profile/change_language-type`, body `{languageType}`), so e-mails and
 * messages go out in it. Errors: ApiError.
 */
export function changeLanguageType(languageType: Language) {
  return api(endpoints.changeLanguageType, { body: { languageType }, loading: true });
}
