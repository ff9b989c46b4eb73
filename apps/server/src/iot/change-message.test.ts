import { ZDeviceChangeMessage } from "@aquapilot/contract";
import { describe, expect, it } from "vitest";
import { type ChangeRow, presentChange } from "./change-message.ts";

const reported: ChangeRow = {
  id: "dev-1",
  mac: "A1B2C3D4E5F6",
  family_id: "fam-1",
  online: 1,
  station: 1,
  station_remaining_seconds: 120,
  remaining_water_l: 850,
  flow_rate_lpm: 4.5,
  last_report_time: "2026-01-01T10:05:00.000Z",
  reported_at: "2026-01-01T10:05:01.000Z",
  station_started_at: "2026-01-01T10:00:00.000Z",
  station_duration_seconds: 420,
  service_remaining_seconds: 900,
  clock_rate: null,
  // Heard just now: online needs a report within the report interval plus margin.
  last_heard_at: new Date().toISOString(),
  reports_refused_since: null,
  reports_refused_reason: "invalid",
};

describe("presentChange", () => {
  it("gives the device's full stored state, its station timing and the cause", () => {
    const message = presentChange(reported, "event", {
      event: { type: "close", closeReason: 513, progress: null },
    });
    expect(message).toEqual({
      kind: "event",
      deviceId: "dev-1",
      mac: "A1B2C3D4E5F6",
      familyId: "fam-1",
      online: true,
      station: 1,
      stationRemainingSeconds: 120,
      stationElapsedSeconds: 300,
      stationDurationSeconds: 420,
      serviceRemainingSeconds: 900,
      reportedAt: "2026-01-01T10:05:01.000Z",
      clockRate: 1,
      remainingWaterL: 850,
      flowRateLpm: 4.5,
      lastReportTime: "2026-01-01T10:05:00.000Z",
      // A reason left from an earlier refusal is not shown once reports are accepted.
      lastHeardAt: reported.last_heard_at,
      reportsRefusedSince: null,
      reportsRefusedReason: null,
      event: { type: "close", closeReason: 513, progress: null },
      ack: null,
    });
    expect(ZDeviceChangeMessage.safeParse(message).success).toBe(true);
  });

  it("reports a device that never reported as offline with empty readings", () => {
    const never: ChangeRow = {
      id: "dev-2",
      mac: "0A0B0C0D0E0F",
      family_id: null,
      online: null,
      station: null,
      station_remaining_seconds: null,
      remaining_water_l: null,
      flow_rate_lpm: null,
    };
    const message = presentChange(never, "ack", { ack: { commandId: "c-1", ok: false, error: "busy" } });
    expect(message.online).toBe(false);
    expect(message.familyId).toBeNull();
    expect(message.station).toBeNull();
    expect(message.stationElapsedSeconds).toBeNull();
    expect(message.lastReportTime).toBeNull();
    expect(message.event).toBeNull();
    expect(message.ack).toEqual({ commandId: "c-1", ok: false, error: "busy" });
    expect(message.lastHeardAt).toBeNull();
    expect(ZDeviceChangeMessage.safeParse(message).success).toBe(true);
  });

  it("carries a refusal: since when and why the cloud refuses the device's reports", () => {
    const message = presentChange(
      { ...reported, reports_refused_since: "2026-01-01T10:06:00.000Z", reports_refused_reason: "invalid" },
      "state",
    );
    expect(message).toMatchObject({ reportsRefusedSince: "2026-01-01T10:06:00.000Z", reportsRefusedReason: "invalid" });
  });
});
