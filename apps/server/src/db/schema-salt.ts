/**
 * The low-salt reminder of a device (table `device_salt_reminder`, migration 0012; modules/statistics/salt.ts): salt
 * counts as low when the forecast says it runs out within `days` days.
 */
export interface DeviceSaltReminderTable {
  device_id: string;
  /** Whole days, 1–30 (contract SALT_REMINDER_DAYS). */
  days: number;
  /** users.id of the member who set it last. */
  updated_by: string | null;
  /** ISO 8601 UTC. */
  updated_at: string;
}

/** Table types of the salt reminder (joined into the server's `Database`). */
export interface SaltTables {
  device_salt_reminder: DeviceSaltReminderTable;
}
