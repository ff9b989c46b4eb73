import type { QueryClient } from "@tanstack/react-query";

/**
 * Query keys of the device queries, in one place (prefix "device", so a hub reconnect invalidates them all through
 * `queryKeys.deviceAll`).
 */
export const deviceKeys = {
  /** `POST …/device-control/query-device-info?deviceId`. */
  info: (deviceId: string) => ["device", "info", deviceId] as const,
  /** `GET …/device-control/device-station-maxworktime-cache?deviceId`. */
  durations: (deviceId: string) => ["device", "station-maxworktime", deviceId] as const,
  /** `POST …/device/device-flow-statistics` of one report time type. */
  stats: (deviceId: string, reportTimeType: number) => ["device", "flow-statistics", deviceId, reportTimeType] as const,
  /** Prefix of the statistics of every report time type (for invalidation). */
  statsAll: (deviceId: string) => ["device", "flow-statistics", deviceId] as const,
  /** `POST …/device-control/query-ota-version?deviceId`. */
  ota: (deviceId: string) => ["device", "ota-version", deviceId] as const,
  /** `GET …/device-control/get-salt-status?deviceId`. */
  salt: (deviceId: string) => ["device", "salt-status", deviceId] as const,
  /** `GET …/device-control/get-regeneration-cycles?deviceId`. */
  cycles: (deviceId: string) => ["device", "regeneration-cycles", deviceId] as const,
};

/**
 * Marks what a regeneration or a command changes as stale: the statistics of every report time type,
 * the salt status and the regeneration cycles of `deviceId`; the shown ones are fetched again.
 */
export function invalidateDeviceStatistics(queryClient: QueryClient, deviceId: string): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: deviceKeys.statsAll(deviceId) }),
    queryClient.invalidateQueries({ queryKey: deviceKeys.salt(deviceId) }),
    queryClient.invalidateQueries({ queryKey: deviceKeys.cycles(deviceId) }),
  ]).then(() => undefined);
}
