import { catalogue } from "../../http/catalogue.js";

/** Texts of the account module in the five languages (spec §1); English is the source. */
export const accountMessages = catalogue<never>({}, { "zh-Hans": {}, es: {}, ru: {}, fr: {} });
