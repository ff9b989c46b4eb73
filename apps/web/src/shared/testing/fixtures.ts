import type { TDeviceChangeMessage, TDeviceInfo } from "@aquapilot/contract/wire";

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

/**
 * A hub-1 device change message (spec §7, contract `TDeviceChangeMessage`) for tests, matching {@link deviceInfo}:
 * kind "state" of device "d1" (MAC "AA") in household "f1", online, in service (station 0, no remaining time), 900 L
 * left, no flow, reported at 2026-01-01T00:00:00Z, no event or ack; `patch` overrides any field.
 */
export function deviceChange(patch: Partial<TDeviceChangeMessage> = {}): TDeviceChangeMessage {
  return {
    kind: "state",
    deviceId: "d1",
    mac: "AA",
    familyId: "f1",
    online: true,
    station: 0,
    stationRemainingSeconds: null,
    remainingWaterL: 900,
    flowRateLpm: 0,
    lastReportTime: "2026-01-01T00:00:00Z",
    ...patch,
  };
}
