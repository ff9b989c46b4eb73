import { LANGUAGES } from "@aquapilot/contract/wire";
import { loadTexts } from "./shared/i18n/index.ts";

// Unit tests render screens in any language without a route loader: every text group of every language is loaded
// before the tests run (the app itself loads them per language and group).
await Promise.all(LANGUAGES.map((lang) => loadTexts(lang)));
