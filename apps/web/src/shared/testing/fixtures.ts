import type { TDeviceInfo } from "@aquapilot/contract/wire";

/**
 * A device's query-device-info answer (spec §7 `TDeviceInfo`) for tests: device "d1", online, in service (station
 * 0), 900 of 1000 L left, no flow, reported at 2026-01-01T00:00:00Z; `patch` overrides any field.
 */
export function deviceInfo(patch: Partial<TDeviceInfo> = {}): TDeviceInfo {
  return {
    id: "d1",
    mac: "AA",
    name: "Kitchen softener",
    model: null,
    deviceSerialNumber: null,
    serialNumber: null,
    firmwareVersion: null,
    online: true,
    station: 0,
    stationRemainingSeconds: null,
    remainingWaterL: 900,
    capacityL: 1000,
    flowRateLpm: 0,
    totalWaterL: 10,
    vacation: false,
    closeReason: null,
    lastReportTime: "2026-01-01T00:00:00Z",
    commandId: null,
    ...patch,
  };
}
