import { catalogue } from "../../http/catalogue.js";

/** Texts of the devices module in the five languages (spec §1); English is the source. */
export const deviceMessages = catalogue<never>({}, { "zh-Hans": {}, es: {}, ru: {}, fr: {} });
