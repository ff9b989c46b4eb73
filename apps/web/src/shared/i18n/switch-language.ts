import type { Language } from "@aquapilot/contract/wire";
import { changeLanguageType } from "../api/change-language-type.ts";
import { errorMessage } from "../api/errors.ts";
import { Toast } from "../ui/toast.ts";
import { changeLanguage } from "./index.ts";

/**
 * Switches the interface language (stored under `lang`, spec §1) and tells the server (`change_language-type`) so
 * e-mails and messages go out in it. The local switch stands even when the call fails (its error is toasted).
 */
export async function switchLanguage(lang: Language): Promise<void> {
  await changeLanguage(lang);
  try {
    await changeLanguageType(lang);
  } catch (err) {
    Toast.show({ icon: "fail", content: errorMessage(err, "") || String(err) });
  }
}
