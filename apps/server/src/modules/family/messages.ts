import { catalogue } from "../../http/catalogue.js";

/** Texts of the family module in the five languages (spec §1); English is the source. */
export const familyMessages = catalogue<never>({}, { "zh-Hans": {}, es: {}, ru: {}, fr: {} });
