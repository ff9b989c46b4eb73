/** Table types of the post-sale module (joined into {@link import("./schema.js").Database}). */
// biome-ignore lint/complexity/noBannedTypes: filled in by the module
export type PostSaleTables = {};
