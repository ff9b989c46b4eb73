import { catalogue } from "../../http/catalogue.js";

/** Texts of the post-sale module in the five languages (spec §1); English is the source. */
export const postSaleMessages = catalogue<string>({}, { "zh-Hans": {}, es: {}, ru: {}, fr: {} });
