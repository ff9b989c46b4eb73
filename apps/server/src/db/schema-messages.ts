/** Table types of the messages module (joined into {@link import("./schema.js").Database}). */
// biome-ignore lint/complexity/noBannedTypes: filled in by the module
export type MessagesTables = {};
