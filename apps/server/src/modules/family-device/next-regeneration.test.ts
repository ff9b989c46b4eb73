import { describe, expect, it } from "vitest";
import { dashboardBadges } from "./dashboard.ts";
import {
  deviceClockOf,
  type NextRegenerationInput,
  nextRegeneration,
  regenerationSettings,
  toDeviceTime,
  toRealTime,
} from "./next-regeneration.ts";

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

/** A valve in service in UTC, 02:00 trigger, no day override, nothing metered, unless the case says otherwise. */
function input(over: Partial<NextRegenerationInput> & { now: string; pattern?: number; trigger?: string }) {
  const now = at(over.now);
  const settings = regenerationSettings({
    workPattern: over.pattern ?? 0,
    regeneratingTriggerTime: over.trigger ?? "02:00",
    maximumRegenerationIntervalDay: 0,
    backWashIntervalNumber: 1,
  });
  if (!settings) throw new Error("settings");
  return {
    deviceNowMs: now,
    reportDeviceMs: now,
    zone: "UTC",
    station: 0,
    vacation: false,
    closed: false,
    remainingWaterL: 0,
    dailyUseL: null,
    lastRegenerationStartMs: null,
    ...over,
    settings: { ...settings, ...over.settings },
  } satisfies NextRegenerationInput;
}

describe("the next regeneration (docs/device-sim.md §4, the valve's own rules)", () => {
  it("delayed: a spent bed regenerates at the next trigger time (worked example 1: 01:30 the next night)", () => {
    const next = nextRegeneration(input({ now: "2026-01-06T10:00:00Z", trigger: "01:30", remainingWaterL: 0 }));
    expect(next).toEqual({ atDeviceMs: at("2026-01-07T01:30:00Z"), reason: "capacity" });
  });

  it("delayed: on the night the water left is forecast to reach 0 L at the recent daily use", () => {
    // 1 000 L at 450 L/day from 6 Jan 10:00: 250 L left at 8 Jan 02:00, −200 L at 9 Jan 02:00.
    const next = nextRegeneration(input({ now: "2026-01-06T10:00:00Z", remainingWaterL: 1000, dailyUseL: 450 }));
    expect(iso(next?.atDeviceMs)).toBe("2026-01-09T02:00:00.000Z");
    expect(next?.reason).toBe("capacity");
  });

  it("the forecast counts from the report, not from now: water used since then is already gone", () => {
    const next = nextRegeneration(
      input({
        now: "2026-01-08T01:00:00Z",
        reportDeviceMs: at("2026-01-06T10:00:00Z"),
        remainingWaterL: 1000,
        dailyUseL: 450,
      }),
    );
    expect(iso(next?.atDeviceMs)).toBe("2026-01-09T02:00:00.000Z");
  });

  it("delayed: a bed with water left and nothing metered never runs out, so no regeneration is forecast", () => {
    expect(nextRegeneration(input({ now: "2026-01-06T10:00:00Z", remainingWaterL: 1 }))).toBeNull();
  });

  it("intelligent: at the trigger time when the water left is below the reserve (worked example 4)", () => {
    const base = { now: "2026-01-06T01:00:00Z", pattern: 2, dailyUseL: 200 };
    // 150 L left at 01:00: below the 200 L reserve at 02:00 → tonight.
    expect(iso(nextRegeneration(input({ ...base, remainingWaterL: 150 }))?.atDeviceMs)).toBe(
      "2026-01-06T02:00:00.000Z",
    );
    // 250 L: ≈ 242 L at 02:00 lasts another day; ≈ 42 L the next night → then.
    expect(iso(nextRegeneration(input({ ...base, remainingWaterL: 250 }))?.atDeviceMs)).toBe(
      "2026-01-07T02:00:00.000Z",
    );
    // Upflow intelligent (5) follows the same rule.
    expect(iso(nextRegeneration(input({ ...base, pattern: 5, remainingWaterL: 150 }))?.atDeviceMs)).toBe(
      "2026-01-06T02:00:00.000Z",
    );
  });

  it("immediate: the moment the bed is forecast to run out, at any time of day", () => {
    // 300 L at 600 L/day from 10:00: empty at 22:00, before the 02:00 trigger.
    const next = nextRegeneration(
      input({ now: "2026-01-06T10:00:00Z", pattern: 1, remainingWaterL: 300, dailyUseL: 600 }),
    );
    expect(next).toEqual({ atDeviceMs: at("2026-01-06T22:00:00Z"), reason: "capacity" });
    // A spent bed on an immediate valve starts now.
    expect(nextRegeneration(input({ now: "2026-01-06T10:00:00Z", pattern: 4, remainingWaterL: 0 }))?.atDeviceMs).toBe(
      at("2026-01-06T10:00:00Z"),
    );
  });

  it("the day override comes first when it is due before the bed runs out (15 days after the last cycle)", () => {
    const next = nextRegeneration(
      input({
        now: "2026-01-06T10:00:00Z",
        remainingWaterL: 4000,
        dailyUseL: 100,
        lastRegenerationStartMs: at("2026-01-01T02:00:00Z"),
        settings: { workPattern: 0, triggerMinute: 120, maxIntervalDays: 15, backwashIntervalDays: 1 },
      }),
    );
    expect(next).toEqual({ atDeviceMs: at("2026-01-16T02:00:00Z"), reason: "interval" });
  });

  it("filter: every backWashIntervalNumber days at the trigger time; the day override when sooner (example 5)", () => {
    const filter = { workPattern: 6, triggerMinute: 120, maxIntervalDays: 0, backwashIntervalDays: 3 };
    const base = { now: "2026-01-06T10:00:00Z", lastRegenerationStartMs: at("2026-01-06T10:00:00Z") };
    expect(nextRegeneration(input({ ...base, settings: filter }))).toEqual({
      atDeviceMs: at("2026-01-10T02:00:00Z"),
      reason: "filter",
    });
    expect(
      nextRegeneration(input({ ...base, settings: { ...filter, maxIntervalDays: 2, backwashIntervalDays: 10 } })),
    ).toEqual({ atDeviceMs: at("2026-01-09T02:00:00Z"), reason: "interval" });
  });

  it("none while a cycle runs, in vacation mode or while the water is closed", () => {
    const base = { now: "2026-01-06T10:00:00Z", remainingWaterL: 0 };
    for (const station of [1, 2, 3, 4, 6, 7, 8]) expect(nextRegeneration(input({ ...base, station }))).toBeNull();
    expect(nextRegeneration(input({ ...base, vacation: true }))).toBeNull();
    expect(nextRegeneration(input({ ...base, closed: true, station: 5 }))).toBeNull();
    expect(nextRegeneration(input({ ...base, station: 0 }))).not.toBeNull();
  });

  it("the trigger time is the valve's local wall clock (the owner's zone)", () => {
    // 02:00 in Shanghai (UTC+8) is 18:00 UTC the day before; at 20:00 local the next one is 02:00 local tomorrow.
    const next = nextRegeneration(input({ now: "2026-03-10T12:00:00Z", zone: "Asia/Shanghai", remainingWaterL: 0 }));
    expect(iso(next?.atDeviceMs)).toBe("2026-03-10T18:00:00.000Z");
    // New York moves to daylight time on 8 March 2026 at 02:00: that night 02:00 does not exist, the clock reads
    // 03:00 EDT (07:00 UTC); the night after, 02:00 EDT is 06:00 UTC.
    const ny = nextRegeneration(input({ now: "2026-03-07T12:00:00Z", zone: "America/New_York", remainingWaterL: 0 }));
    expect(iso(ny?.atDeviceMs)).toBe("2026-03-08T07:00:00.000Z");
    const after = nextRegeneration(
      input({ now: "2026-03-08T12:00:00Z", zone: "America/New_York", remainingWaterL: 0 }),
    );
    expect(iso(after?.atDeviceMs)).toBe("2026-03-09T06:00:00.000Z");
  });

  it("settings: the valve's defaults for keys it did not report; nothing without settings", () => {
    expect(regenerationSettings({})).toBeNull();
    expect(regenerationSettings({ saltAddition: 3 })).toEqual({
      workPattern: 0,
      triggerMinute: 120,
      maxIntervalDays: 15,
      backwashIntervalDays: 1,
    });
    expect(regenerationSettings({ regeneratingTriggerTime: "23:45", workPattern: "2" })).toMatchObject({
      workPattern: 2,
      triggerMinute: 23 * 60 + 45,
    });
  });
});

describe("the device clock (real time ↔ the valve's clock)", () => {
  it("a 60× clock: a regeneration 10 device hours away is 10 real minutes away", () => {
    const clock = deviceClockOf({
      clock_rate: 60,
      rate_anchor_ts: "2026-01-08T00:00:00.000Z",
      rate_anchor_at: "2026-01-06T10:00:00.000Z",
    });
    const realNow = at("2026-01-06T10:05:00Z");
    const deviceNow = toDeviceTime(clock, realNow);
    expect(iso(deviceNow)).toBe("2026-01-08T05:00:00.000Z");
    expect(iso(toRealTime(clock, deviceNow + 10 * 3_600_000))).toBe("2026-01-06T10:15:00.000Z");
  });

  it("falls back to the last report and its arrival, then to real time", () => {
    const fromReport = deviceClockOf({ last_report_time: "2026-01-06T10:00:30Z", reported_at: "2026-01-06T10:00:00Z" });
    expect(fromReport).toEqual({
      rate: 1,
      anchorDeviceMs: at("2026-01-06T10:00:30Z"),
      anchorRealMs: at("2026-01-06T10:00:00Z"),
    });
    const none = deviceClockOf({});
    expect(toDeviceTime(none, at("2026-01-06T10:00:00Z"))).toBe(at("2026-01-06T10:00:00Z"));
  });
});

describe("dashboard badges", () => {
  const now = at("2026-03-12T12:00:00Z");
  const row = {
    online: 1,
    station: 0,
    vacation: 0,
    close_reason: null,
    updated_at: "2026-03-12T11:59:00Z",
    offline_since: null,
  };
  const ota = { currentVersion: "1.0.0", updateAvailable: false, updating: false };

  it("none for a device in service, online, up to date", () => {
    expect(dashboardBadges(row, ota, now, 30)).toEqual({
      vacation: false,
      regenerating: false,
      firmwareUpdate: null,
      alarm: null,
    });
  });

  it("vacation, a running cycle, firmware available or updating", () => {
    expect(dashboardBadges({ ...row, vacation: 1, station: 3 }, ota, now, 30)).toMatchObject({
      vacation: true,
      regenerating: true,
    });
    expect(dashboardBadges(row, { ...ota, updateAvailable: true }, now, 30).firmwareUpdate).toBe("available");
    expect(dashboardBadges(row, { ...ota, updateAvailable: true, updating: true }, now, 30).firmwareUpdate).toBe(
      "updating",
    );
    // A device that never reported its version is not offered an update on Home.
    expect(
      dashboardBadges(row, { currentVersion: null, updateAvailable: true, updating: false }, now, 30),
    ).toMatchObject({ firmwareUpdate: null });
  });

  it("an alarm for an open close, or for a device offline longer than the offline alarm's minutes", () => {
    expect(dashboardBadges({ ...row, close_reason: 1025, station: 5 }, ota, now, 30).alarm).toBe("closed");
    const offline = { ...row, online: 0, updated_at: "2026-03-12T11:40:00Z" };
    expect(dashboardBadges(offline, ota, now, 30).alarm).toBeNull();
    expect(dashboardBadges({ ...offline, offline_since: "2026-03-12T11:00:00Z" }, ota, now, 30).alarm).toBe("offline");
    expect(dashboardBadges({ ...offline, updated_at: "2026-03-12T11:20:00Z" }, ota, now, 30).alarm).toBe("offline");
    // Status online, but not heard for 40 minutes: offline all the same; heard a minute ago: no alarm.
    const quiet = { ...row, last_heard_at: "2026-03-12T11:20:00Z", status_at: "2026-03-12T11:00:00Z" };
    expect(dashboardBadges({ ...quiet, updated_at: "2026-03-12T11:20:00Z" }, ota, now, 30).alarm).toBe("offline");
    expect(dashboardBadges({ ...quiet, last_heard_at: "2026-03-12T11:59:00Z" }, ota, now, 30).alarm).toBeNull();
  });
});
