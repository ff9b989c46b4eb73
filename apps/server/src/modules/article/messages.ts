import { catalogue } from "../../http/catalogue.js";

/** Texts of the article module in the five languages (spec §1); English is the source. */
export const articleMessages = catalogue<string>({}, { "zh-Hans": {}, es: {}, ru: {}, fr: {} });
