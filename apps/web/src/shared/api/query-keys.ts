/**
 * Query keys shared by features and the real-time layer (TanStack Query). The first element names the API group of
 * spec §7, so one prefix invalidates a whole group (e.g. every device query after a hub reconnect); a group whose path
 * uses another word than the code goes by the code's name (after-sales: "after-sale", docs/glossary.md "Names in code").
 */
export const queryKeys = {
  /** Every family-device query (prefix). */
  familyDevicesAll: ["family-device"] as const,
  /** `GET /api/run-lucky/device/app/family-device/get-list-by-family-id?familyId=…`. */
  familyDevices: (familyId: string) => ["family-device", "get-list-by-family-id", familyId] as const,
  /** Every device / device-control query (prefix). */
  deviceAll: ["device"] as const,
  /** Every family query (prefix; the household screens' keys in features/family start with it). */
  familyAll: ["family"] as const,
  /** Every family-user query (prefix). */
  familyUserAll: ["family-user"] as const,
  /** `GET /api/run-lucky/device/app/family/`. */
  families: ["family", "list"] as const,
  /** `GET /api/basic-data/app/profile/`. */
  profile: ["profile"] as const,
  /** Every message query (prefix): the message centre's lists, details and the unread badge (spec §7 push-service). */
  messageAll: ["message"] as const,
  /** The unread badge: `get-user-message-list?isRead=false&maxResultCount=1` → totalCount. */
  unreadMessageCount: ["message", "unread-count"] as const,
  /** Every after-sales query (prefix; features/after-sale/api/keys.ts starts every key with it). */
  afterSaleAll: ["after-sale"] as const,
  /** The caller's share codes (FamilyShareList; features/family/api/keys.ts `familyKeys.shares`). */
  familyShares: ["family-user", "shares"] as const,
  /** `GET …/is_open_jpush__message/`: the push switch of the home tab. */
  pushSwitch: ["push-setting", "is_open_jpush__message"] as const,
};
