/**
 * Query keys of the after-sales screens; every key starts with `queryKeys.afterSaleAll` (shared/api/query-keys.ts), so
 * the real-time layer refreshes them all with one prefix.
 */
export const afterSaleKeys = {
  all: ["after-sale"] as const,
  /** One tab's paged list: unhandled (false) or handled (true). */
  list: (handled: boolean) => ["after-sale", "list", handled ? "handled" : "unhandled"] as const,
  /** One request (`getAfterSale`). */
  detail: (id: string) => ["after-sale", "detail", id] as const,
  /** The devices of every household of the caller, for the device choice. */
  devices: ["after-sale", "devices"] as const,
};
