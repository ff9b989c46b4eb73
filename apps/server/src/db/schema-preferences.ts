/**
 * The owner's display units (table `user_preferences`, migration 0014; modules/profile/preferences.ts). One row per
 * user who chose; a user without a row has the contract's DEFAULT_UNIT_PREFERENCES.
 */
export interface UserPreferencesTable {
  /** users.id. */
  user_id: string;
  /** Contract VOLUME_UNITS: "L" | "gal". */
  volume_unit: string;
  /** Contract HARDNESS_UNITS: "mgL" | "dH" | "fH" | "gpg". */
  hardness_unit: string;
  /** ISO 8601 UTC. */
  updated_at: string;
}

/** Table types of the user preferences (joined into the server's `Database`). */
export interface PreferencesTables {
  user_preferences: UserPreferencesTable;
}
