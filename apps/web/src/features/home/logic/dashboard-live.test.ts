import type { TDeviceChangeMessage, TFamilyDashboard } from "@aquapilot/contract";
import { describe, expect, it } from "vitest";
import { deviceChange } from "../../../shared/testing/fixtures.ts";
import { applyDashboardMessage, CoalescedRefresh, refetchesDashboard, type Timers } from "./dashboard-live.ts";

const dashboard: TFamilyDashboard = {
  familyId: "f1",
  timeZone: "UTC",
  dayStart: "2026-03-12T00:00:00.000Z",
  waterTodayL: 25,
  devices: [
    {
      deviceId: "d1",
      saltLevelKg: 20,
      saltDaysLeft: 12,
      lowSalt: false,
      waterTodayL: 25,
      remainingWaterL: 1000,
      capacityL: 4500,
      nextRegenerationAt: "2026-03-20T02:00:00.000Z",
      closeReason: null,
      lastSeenAt: "2026-03-12T11:00:00.000Z",
      badges: { vacation: false, regenerating: false, firmwareUpdate: null, alarm: null },
    },
  ],
};

function message(over: Partial<TDeviceChangeMessage>): TDeviceChangeMessage {
  return deviceChange({ mac: "A1", remainingWaterL: null, flowRateLpm: null, lastReportTime: null, ...over });
}

describe("the dashboard kept live by hub 1", () => {
  it("a state patches water left and the regenerating badge, and the time last seen (phone time)", () => {
    const next = applyDashboardMessage(
      dashboard,
      message({ remainingWaterL: 987.5, station: 2 }),
      "2026-03-12T12:00:00.000Z",
    );
    expect(next.devices[0]).toMatchObject({
      remainingWaterL: 987.5,
      lastSeenAt: "2026-03-12T12:00:00.000Z",
      badges: { regenerating: true },
      waterTodayL: 25,
    });
    expect(dashboard.devices[0].remainingWaterL).toBe(1000);
    const back = applyDashboardMessage(
      next,
      message({ station: 0, remainingWaterL: null }),
      "2026-03-12T12:01:00.000Z",
    );
    expect(back.devices[0]).toMatchObject({ remainingWaterL: 987.5, badges: { regenerating: false } });
    expect(applyDashboardMessage(dashboard, message({ deviceId: "other" }), "x")).toBe(dashboard);
  });

  it("asks again after events that change the figures, never for states or other households' devices", () => {
    const event = (type: string, progress: number | null = null) =>
      message({ kind: "event", event: { type, closeReason: null, progress } } as Partial<TDeviceChangeMessage>);
    for (const type of ["regeneration-start", "regeneration-end", "vacation", "close", "reset", "ota-failed"]) {
      expect(refetchesDashboard(event(type), dashboard), type).toBe(true);
    }
    expect(refetchesDashboard(event("ota-progress", 100), dashboard)).toBe(true);
    expect(refetchesDashboard(event("ota-progress", 40), dashboard)).toBe(false);
    expect(refetchesDashboard(event("station"), dashboard)).toBe(false);
    expect(refetchesDashboard(message({ kind: "online", online: false }), dashboard)).toBe(true);
    expect(refetchesDashboard(message({ remainingWaterL: 3 }), dashboard)).toBe(false);
    expect(refetchesDashboard({ ...event("close"), deviceId: "elsewhere" }, dashboard)).toBe(false);
  });
});

describe("refreshes joined so live events never hammer the server", () => {
  function fakeTimers() {
    let now = 0;
    const pending: Array<{ at: number; fn: () => void; id: number }> = [];
    let id = 0;
    const timers: Timers = {
      now: () => now,
      setTimeout: (fn, ms) => {
        pending.push({ at: now + ms, fn, id: ++id });
        return id;
      },
      clearTimeout: (handle) => {
        const i = pending.findIndex((p) => p.id === handle);
        if (i >= 0) pending.splice(i, 1);
      },
    };
    const advance = (ms: number) => {
      const end = now + ms;
      for (;;) {
        pending.sort((a, b) => a.at - b.at);
        const next = pending[0];
        if (!next || next.at > end) break;
        pending.shift();
        now = next.at;
        next.fn();
      }
      now = end;
    };
    return { timers, advance };
  }

  it("a burst is one call after the delay; the next one waits for the gap", () => {
    const { timers, advance } = fakeTimers();
    const runs: number[] = [];
    const refresh = new CoalescedRefresh(() => runs.push(timers.now()), 1500, 10_000, timers);
    expect(refresh.request()).toBe(true);
    expect(refresh.request()).toBe(false);
    advance(1000);
    expect(refresh.request()).toBe(false);
    advance(600);
    expect(runs).toEqual([1500]);
    // 2 s later: runs at 11.5 s, 10 s after the first.
    advance(2000);
    refresh.request();
    advance(20_000);
    expect(runs).toEqual([1500, 11_500]);
    // A request long after the gap runs after the delay alone; dispose drops one pending.
    refresh.request();
    advance(1500);
    expect(runs).toEqual([1500, 11_500, 25_100]);
    advance(60_000);
    refresh.request();
    refresh.dispose();
    advance(60_000);
    expect(runs).toHaveLength(3);
  });
});
