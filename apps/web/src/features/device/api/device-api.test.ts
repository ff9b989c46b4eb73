import type { TDeviceChangeMessage, TDeviceInfo } from "@aquapilot/contract";
import { describe, expect, it } from "vitest";
import { applyLiveMessage, toLiveDevice } from "./device-api.js";

const info: TDeviceInfo = {
  id: "d1",
  mac: "AA",
  name: "Softener",
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
};

const message = (patch: Partial<TDeviceChangeMessage>): TDeviceChangeMessage => ({
  kind: "state",
  deviceId: "d1",
  mac: "AA",
  familyId: "f1",
  online: true,
  station: null,
  stationRemainingSeconds: null,
  remainingWaterL: null,
  flowRateLpm: null,
  lastReportTime: null,
  ...patch,
});

describe("applyLiveMessage (hub 1 → Device screen)", () => {
  it("patches station, remaining time, water and flow with their report time and restarts the countdown", () => {
    const live = toLiveDevice(info, 0);
    const next = applyLiveMessage(
      live,
      message({ station: 1, stationRemainingSeconds: 540, flowRateLpm: 3.5, lastReportTime: "2026-01-01T00:05:00Z" }),
      5000,
    );
    expect(next).toMatchObject({ station: 1, stationRemainingSeconds: 540, flowRateLpm: 3.5, remainingWaterL: 900 });
    expect(next.receivedAtMs).toBe(5000);
    expect(next.reported.station).toBe("2026-01-01T00:05:00Z");
    expect(next.reported.water).toBe("2026-01-01T00:00:00Z");
    // 5 device minutes arrived 5 phone seconds later: the countdown runs at 60×.
    expect(next.clockRate).toBe(60);
    const real = applyLiveMessage(
      next,
      message({ station: 1, stationRemainingSeconds: 530, lastReportTime: "2026-01-01T00:05:10Z" }),
      15_000,
    );
    expect(real.clockRate).toBe(1);
  });

  it("ignores other devices and applies online and close events", () => {
    const live = toLiveDevice(info, 0);
    expect(applyLiveMessage(live, message({ deviceId: "d2", online: false }))).toBe(live);
    const off = applyLiveMessage(live, message({ kind: "online", online: false }));
    expect(off.online).toBe(false);
    expect(off.station).toBe(0);
    const closed = applyLiveMessage(live, message({ kind: "event", event: { type: "close", closeReason: 513 } }));
    expect(closed.closeReason).toBe(513);
  });
});
