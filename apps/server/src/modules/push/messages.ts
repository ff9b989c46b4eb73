import { catalogue } from "../../http/catalogue.js";

/** Texts of the push module in the five languages (spec §1); English is the source. */
export const pushMessages = catalogue<string>({}, { "zh-Hans": {}, es: {}, ru: {}, fr: {} });
