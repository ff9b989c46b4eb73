import type { TDeviceChangeMessage } from "@aquapilot/contract";
import { describe, expect, it } from "vitest";
import { refreshesStatistics } from "./live-refresh.ts";

const base: TDeviceChangeMessage = {
  kind: "state",
  deviceId: "d1",
  mac: "0211AABBCCDD",
  familyId: "f1",
  online: true,
  station: 0,
  stationRemainingSeconds: null,
  remainingWaterL: 100,
  flowRateLpm: 2,
  lastReportTime: "2026-01-01T00:00:00.000Z",
};
const event = (type: string): TDeviceChangeMessage => ({ ...base, kind: "event", event: { type, closeReason: null } });

describe("refreshesStatistics", () => {
  it("refreshes on a regeneration start or end of this device", () => {
    expect(refreshesStatistics(event("regeneration-end"), "d1")).toBe(true);
    expect(refreshesStatistics(event("regeneration-start"), "d1")).toBe(true);
  });
  it("refreshes on a successful acknowledgement", () => {
    const ack = { ...base, kind: "ack" as const, ack: { commandId: "c", ok: true, error: null } };
    expect(refreshesStatistics(ack, "d1")).toBe(true);
    expect(refreshesStatistics({ ...ack, ack: { commandId: "c", ok: false, error: "busy" } }, "d1")).toBe(false);
    expect(refreshesStatistics({ ...ack, ack: null }, "d1")).toBe(false);
  });
  it("ignores other devices, other events and plain states", () => {
    expect(refreshesStatistics(event("regeneration-end"), "d2")).toBe(false);
    expect(refreshesStatistics(event("ota-progress"), "d1")).toBe(false);
    expect(refreshesStatistics({ ...base, kind: "event", event: null }, "d1")).toBe(false);
    expect(refreshesStatistics(base, "d1")).toBe(false);
    expect(refreshesStatistics({ ...base, kind: "online" }, "d1")).toBe(false);
  });
});
