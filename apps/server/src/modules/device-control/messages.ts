import { catalogue } from "../../http/catalogue.js";

/** Texts of the device-control module in the five languages (spec §1); English is the source. */
export const deviceControlMessages = catalogue<never>({}, { "zh-Hans": {}, es: {}, ru: {}, fr: {} });
