/**
 * Query keys of the household screens. Every key starts with the API group of spec §7 ("family", "family-user"),
 * so invalidating `["family"]` refreshes every family query (the home tab's list included: `queryKeys.families`).
 */
export const familyKeys = {
  /** Every family query (prefix), the home tab's switcher list included. */
  all: ["family"] as const,
  /** The paged list of FamilyList. */
  list: ["family", "paged"] as const,
  /** `GET …/family/{id}`. */
  detail: (id: string) => ["family", "detail", id] as const,
  /** Every family-user query (prefix). */
  usersAll: ["family-user"] as const,
  /** `GET …/family-user/get-list-by-family-id?familyId=`. */
  users: (familyId: string) => ["family-user", "list", familyId] as const,
  /** `GET …/family-user/trans-to-other-member-qr-code?familyId=`. */
  shareCode: (familyId: string) => ["family-user", "qr-code", familyId] as const,
  /** The caller's shares (FamilyShareList). */
  shares: ["family-user", "shares"] as const,
};
