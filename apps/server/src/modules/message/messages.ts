import { catalogue } from "../../http/catalogue.js";

/** Texts of the message module in the five languages (spec §1); English is the source. */
export const messageMessages = catalogue<string>({}, { "zh-Hans": {}, es: {}, ru: {}, fr: {} });
