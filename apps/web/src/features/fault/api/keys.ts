import { queryKeys } from "../../../shared/api/query-keys.ts";

/**
 * Query keys of the fault screens. They start with the device group's prefix (`queryKeys.deviceAll`), so a hub-1
 * reconnect, which refreshes every device query, refreshes the faults too.
 */
export const faultKeys = {
  /** Every fault list (prefix). */
  all: [...queryKeys.deviceAll, "faults"] as const,
  /** The caller's whole list (no device) or one device's. */
  list: (deviceId?: string) => [...queryKeys.deviceAll, "faults", deviceId ?? "all"] as const,
};
