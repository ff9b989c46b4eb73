/** Query keys of the after-sales screens; every key starts with the API group "post-sale" (spec §7). */
export const afterSaleKeys = {
  all: ["post-sale"] as const,
  /** One tab's paged list: unhandled (false) or handled (true). */
  list: (handled: boolean) => ["post-sale", "list", handled ? "handled" : "unhandled"] as const,
  /** `GET …/post-sale/{id}`. */
  detail: (id: string) => ["post-sale", "detail", id] as const,
  /** The devices of every household of the caller, for the device choice. */
  devices: ["post-sale", "devices"] as const,
};
