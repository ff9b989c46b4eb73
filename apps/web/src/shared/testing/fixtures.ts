import type { TDeviceChangeMessage, TDeviceInfo, TFamily, TShareAnalysis } from "@aquapilot/contract/wire";

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
 * A hub-1 device change message (spec §7, contract `TDeviceChangeMessage`) for tests: kind "state" of the device of
 * {@link deviceInfo} (its id, MAC and live state: online, station 0, 900 L left, no flow, reported at
 * 2026-01-01T00:00:00Z) in household "f1", no event or ack; `patch` overrides any field.
 */
export function deviceChange(patch: Partial<TDeviceChangeMessage> = {}): TDeviceChangeMessage {
  const { id, mac, online, station, stationRemainingSeconds, remainingWaterL, flowRateLpm, lastReportTime } =
    deviceInfo();
  return {
    kind: "state",
    deviceId: id,
    mac,
    familyId: "f1",
    online,
    station,
    stationRemainingSeconds,
    remainingWaterL,
    flowRateLpm,
    lastReportTime,
    ...patch,
  };
}

/**
 * A household as the family list and get-family answer it (spec §7, contract `TFamily`) for tests: "f1", "Lake
 * house", the caller its administrator, 2 members, no devices, no address, avatar or region, created
 * 2026-01-01T00:00:00Z; `patch` overrides any field.
 */
export function familyItem(patch: Partial<TFamily> = {}): TFamily {
  return {
    id: "f1",
    name: "Lake house",
    address: null,
    longitude: null,
    latitude: null,
    province: null,
    city: null,
    district: null,
    avatar: null,
    isAdmin: true,
    memberCount: 2,
    deviceCount: 0,
    creationTime: "2026-01-01T00:00:00Z",
    ...patch,
  };
}

/**
 * An analysis-code answer (spec §7 family-user analysis-code): the household "Lake house" (f9) Ann invites to, 2
 * members, 1 device, not joined, not already a member (no address or expiry, as a fake API may answer);
 * `patch` overrides any field.
 */
export function shareAnalysis(patch: Partial<TShareAnalysis> = {}): Partial<TShareAnalysis> {
  return {
    familyId: "f9",
    familyName: "Lake house",
    inviterName: "Ann",
    avatar: null,
    memberCount: 2,
    deviceCount: 1,
    joined: false,
    alreadyMember: false,
    ...patch,
  };
}
