import type { TDeviceChangeMessage } from "@aquapilot/contract";
import { describe, expect, it } from "vitest";
import { deviceChange, deviceInfo } from "../testing/fixtures.ts";
import { applyLiveMessage, toLiveDevice } from "./live-device.ts";

const info = deviceInfo({ name: "Softener" });

const message = (patch: Partial<TDeviceChangeMessage>): TDeviceChangeMessage =>
  deviceChange({ station: null, remainingWaterL: null, flowRateLpm: null, lastReportTime: null, ...patch });

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
    // The server measured the device clock at 60×: the countdown runs at that rate, real time is the server's stamp.
    const fast = applyLiveMessage(
      next,
      message({
        station: 1,
        stationRemainingSeconds: 480,
        stationElapsedSeconds: 120,
        stationDurationSeconds: 600,
        serviceRemainingSeconds: 480 + 4500,
        reportedAt: "2026-05-01T10:00:00.000Z",
        clockRate: 60,
        lastReportTime: "2026-01-01T00:06:00Z",
      }),
      Date.parse("2026-05-01T10:00:00.500Z"),
    );
    expect(fast.clockRate).toBe(60);
    expect(fast.reported.station).toBe("2026-05-01T10:00:00.000Z");
    expect(fast.stationClock).toMatchObject({
      station: 1,
      endsAtMs: Date.parse("2026-05-01T10:00:08.000Z"),
      serviceAtMs: Date.parse("2026-05-01T10:01:23.000Z"),
    });
    // A refetch or report saying more time is left does not move the end later.
    const slower = applyLiveMessage(
      fast,
      message({
        station: 1,
        stationRemainingSeconds: 470,
        stationElapsedSeconds: 130,
        stationDurationSeconds: 600,
        reportedAt: "2026-05-01T10:00:05.000Z",
        clockRate: 60,
      }),
      Date.parse("2026-05-01T10:00:05.000Z"),
    );
    expect(slower.stationClock?.endsAtMs).toBe(Date.parse("2026-05-01T10:00:08.000Z"));
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

  it("takes how the cloud hears the device from each message: a refusal shows at once, and its end", () => {
    const live = toLiveDevice(info, 0);
    const refused = applyLiveMessage(
      live,
      message({
        reportsRefusedSince: "2026-05-01T10:00:00.000Z",
        reportsRefusedReason: "invalid",
        lastHeardAt: "2026-05-01T09:59:00.000Z",
      }),
    );
    expect(refused).toMatchObject({
      reportsRefusedSince: "2026-05-01T10:00:00.000Z",
      reportsRefusedReason: "invalid",
      lastHeardAt: "2026-05-01T09:59:00.000Z",
    });
    // A message from a server that does not send the facts keeps them.
    const older = applyLiveMessage(refused, message({}));
    expect(older.reportsRefusedSince).toBe("2026-05-01T10:00:00.000Z");
    const accepted = applyLiveMessage(
      refused,
      message({ reportsRefusedSince: null, reportsRefusedReason: null, lastHeardAt: "2026-05-01T10:03:00.000Z" }),
    );
    expect(accepted).toMatchObject({
      reportsRefusedSince: null,
      reportsRefusedReason: null,
      lastHeardAt: "2026-05-01T10:03:00.000Z",
    });
  });
});
