/**
 * The valve model against cycles computed by hand in docs/device-sim.md ("Worked examples"): every expected number
 * below is written out there with its arithmetic.
 */
import { describe, expect, it } from "vitest";
import { type SoftenerEvent, SoftenerModel } from "./model.ts";
import { nextFirmwareVersion, planOta } from "./ota.ts";
import { Rng } from "./random.ts";
import { exchangeCapacityL } from "./settings.ts";

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();
/** Only at noon: no household draw at night, so trigger-time decisions are exact. */
const NOON_ONLY = Array.from({ length: 24 }, (_, h) => (h === 12 ? 1 : 0));

function run(model: SoftenerModel, seconds: number, chunk = 37): SoftenerEvent[] {
  const out: SoftenerEvent[] = [];
  for (let left = seconds; left > 0; left -= chunk) out.push(...model.tick(Math.min(chunk, left)));
  return out;
}

function timeline(events: SoftenerEvent[]): string[] {
  return events.flatMap((e) => (e.type === "station" ? [`${iso(e.at).slice(11, 16)} ${e.station}`] : []));
}

describe("example 1: downflow delayed regeneration", () => {
  // resin 2 L × 45 g/L × 1000 ÷ 300 mg/L = 300 L; the bed is spent (0 L) at 10:00, trigger 01:30.
  const settings = {
    workPattern: 0,
    resinVolume: 2,
    rawWaterHardness: 300,
    backWashTime: 8,
    absorbSaltSlowWashTime: 45,
    saltTankRefillTime: 5,
    washTime: 12,
    saltAddition: 2.5,
    regeneratingTriggerTime: "01:30",
    maximumRegenerationIntervalDay: 0,
  };

  it("waits for 01:30, then runs 1 (8 min) → 2 (45) → 3 (5) → 4 (12) → 0 and refills the bed to 300 L", () => {
    const m = new SoftenerModel({
      startTime: at("2025-01-06T10:00:00Z"),
      settings,
      remainingWaterL: 0,
      family: { persons: 0 },
    });
    expect(m.capacityL).toBe(300);
    const events = run(m, 17 * 3600);
    expect(timeline(events)).toEqual(["01:30 1", "01:38 2", "02:23 3", "02:28 4", "02:40 0"]);
    const start = events.find((e) => e.type === "regeneration-start");
    expect(start).toMatchObject({ at: at("2025-01-07T01:30:00Z"), cycle: "regeneration", reason: "capacity" });
    expect(start?.type === "regeneration-start" && start.steps).toEqual([1, 2, 3, 4]);
    expect(events.find((e) => e.type === "regeneration-end")).toMatchObject({
      at: at("2025-01-07T02:40:00Z"),
      completed: true,
    });
    expect(m.snapshot()).toMatchObject({ remainingWaterL: 300, regenerationCount: 1, saltUsedKg: 2.5, station: 0 });
  });

  it("reports the station's start, length and the time back in service, and the water and salt of the cycle", () => {
    const m = new SoftenerModel({
      startTime: at("2025-01-06T10:00:00Z"),
      settings,
      remainingWaterL: 0,
      family: { persons: 0 },
    });
    run(m, 15.5 * 3600 + 3 * 60, 60); // 01:33, three minutes into the 8-minute backwash
    expect(m.snapshot()).toMatchObject({
      station: 1,
      stationStartedAt: at("2025-01-07T01:30:00Z"),
      stationDurationSeconds: 480,
      stationRemainingSeconds: 300,
      serviceRemainingSeconds: 300 + (45 + 5 + 12) * 60,
    });
    m.syncTime(at("2025-01-07T01:00:00Z")); // a time sync moves the station's start with the clock
    expect(m.snapshot()).toMatchObject({ stationStartedAt: at("2025-01-07T00:57:00Z"), stationRemainingSeconds: 300 });
    const end = run(m, 3 * 3600, 60).find((e) => e.type === "regeneration-end");
    // Drain: backwash 8 min × 0.6 L/min + brine draw 45 × 0.1 + fast rinse 12 × 0.6 = 16.5 L, refill 2.5 kg × 2.8 = 7.
    expect(end).toMatchObject({ completed: true, waterL: 23.5, saltKg: 2.5 });
    expect(m.snapshot()).toMatchObject({
      stationStartedAt: null,
      stationDurationSeconds: null,
      serviceRemainingSeconds: null,
    });
  });

  it("does not regenerate while any soft water is left, however little", () => {
    const m = new SoftenerModel({
      startTime: at("2025-01-06T10:00:00Z"),
      settings,
      remainingWaterL: 1,
      family: { persons: 0 },
    });
    expect(run(m, 3 * 86_400, 600).filter((e) => e.type === "regeneration-start")).toEqual([]);
  });
});

describe("capacity and salt", () => {
  it("capacity in litres from resin volume and hardness (example 2)", () => {
    // 30 L × 45 g/L × 1000 ÷ 267 mg/L (15 °dH × 17.8) = 5 056.18 L
    expect(exchangeCapacityL({ resinVolume: 30, rawWaterHardness: 267 })).toBeCloseTo(5056.18, 2);
    // 25 L × 45 × 1000 ÷ 250 = 4 500 L; at 450 L/day that is 10 days
    expect(exchangeCapacityL({ resinVolume: 25, rawWaterHardness: 250 })).toBe(4500);
    expect(new SoftenerModel({ settings: { workPattern: 6 } }).capacityL).toBe(0);
  });

  it("salt: saltAddition per brine regeneration, none for flushing or filter backwash (example 3)", () => {
    const m = new SoftenerModel({ startTime: 0, settings: { saltAddition: 2.5 }, family: { persons: 0 } });
    for (let i = 0; i < 3; i++) {
      m.startRegeneration();
      run(m, 3 * 3600, 600);
    }
    m.startFlushing();
    run(m, 3600, 600);
    expect(m.snapshot()).toMatchObject({ regenerationCount: 3, flushCount: 1, saltUsedKg: 7.5 });
    const f = new SoftenerModel({ startTime: 0, settings: { workPattern: 6 }, family: { persons: 0 } });
    f.startRegeneration();
    run(f, 3600, 600);
    expect(f.snapshot()).toMatchObject({ regenerationCount: 1, saltUsedKg: 0 });
  });
});

describe("intelligent reserve (example 4)", () => {
  // 2 persons × 100 L = 200 L/day expected until a day has been metered: the reserve.
  const base = {
    startTime: at("2025-01-06T01:00:00Z"),
    family: { persons: 2, litresPerPersonPerDay: 100, profile: NOON_ONLY },
  };

  function startsAt2(workPattern: number, remainingWaterL: number): boolean {
    const m = new SoftenerModel({ ...base, settings: { workPattern }, remainingWaterL });
    const starts = run(m, 3600 + 60, 60).filter((e) => e.type === "regeneration-start");
    return starts.some((e) => iso(e.at) === "2025-01-06T02:00:00.000Z");
  }

  it("regenerates tonight when the remaining capacity is below the average daily use", () => {
    expect(new SoftenerModel({ ...base, settings: { workPattern: 2 }, remainingWaterL: 150 }).snapshot().reserveL).toBe(
      200,
    );
    expect(startsAt2(2, 150)).toBe(true); // 150 < 200
    expect(startsAt2(5, 150)).toBe(true); // upflow intelligent
    expect(startsAt2(2, 250)).toBe(false); // 250 lasts until tomorrow night
    expect(startsAt2(0, 150)).toBe(false); // delayed keeps no reserve: waits for 0
    expect(startsAt2(0, 0)).toBe(true);
  });

  it("the reserve follows the metered days: the average daily use of the last 7 days", () => {
    const m = new SoftenerModel({ startTime: at("2025-01-06T00:00:00Z"), seed: 11 });
    run(m, 2 * 86_400, 600);
    const s = m.snapshot();
    expect(s.totalWaterL).toBeGreaterThan(0);
    expect(s.reserveL).toBeCloseTo(s.totalWaterL / 2, 6);
  });
});

describe("filter type (example 5)", () => {
  it("backwashes 10 min and rinses 6 min every backWashIntervalNumber = 3 days at the trigger time, no salt", () => {
    const m = new SoftenerModel({
      startTime: at("2025-01-06T10:00:00Z"),
      settings: { workPattern: 6, backWashIntervalNumber: 3, backWashTime: 10, washTime: 6 },
      seed: 2,
    });
    const events = run(m, 8 * 86_400, 300);
    const starts = events.filter((e) => e.type === "regeneration-start").map((e) => iso(e.at));
    expect(starts).toEqual(["2025-01-10T02:00:00.000Z", "2025-01-13T02:00:00.000Z"]);
    expect(timeline(events)).toEqual(["02:00 1", "02:10 4", "02:16 0", "02:00 1", "02:10 4", "02:16 0"]);
    const s = m.snapshot();
    expect(s).toMatchObject({ regenerationCount: 2, saltUsedKg: 0, capacityL: 0, remainingWaterL: 0 });
    expect(s.totalWaterL).toBeGreaterThan(0); // the household still draws (filtered) water
  });

  it("maximumRegenerationIntervalDay comes first when it is shorter", () => {
    const m = new SoftenerModel({
      startTime: at("2025-01-06T10:00:00Z"),
      settings: { workPattern: 6, backWashIntervalNumber: 10, maximumRegenerationIntervalDay: 2 },
      family: { persons: 0 },
    });
    const starts = run(m, 3 * 86_400, 600).filter((e) => e.type === "regeneration-start");
    // 2025-01-08 02:00 is only 1 d 16 h after the start (10:00): the first trigger time 2 days on is the 9th
    expect(starts.map((e) => iso(e.at))).toEqual(["2025-01-09T02:00:00.000Z"]);
  });
});

describe("closes 1025 and 769 (example 6)", () => {
  const quiet = { startTime: at("2025-01-06T10:00:00Z"), family: { persons: 0 } };

  it("1025 only above flowRateOff", () => {
    const m = new SoftenerModel({ ...quiet, settings: { flowRateOff: 60 } });
    expect(m.injectDraw(60, 60).filter((e) => e.type === "close")).toEqual([]);
    run(m, 120);
    expect(m.injectDraw(60.5, 60)).toContainEqual({ type: "close", at: quiet.startTime + 120_000, closeReason: 1025 });
    expect(m.snapshot()).toMatchObject({ station: 5, flowRateLpm: 0, closeReason: 1025 });
  });

  it("769 after continuousWaterTime of uninterrupted flow; a pause starts the count again", () => {
    const m = new SoftenerModel({ ...quiet, settings: { continuousWaterTime: 30 } });
    m.injectDraw(5, 20 * 60);
    run(m, 20 * 60 + 60); // 20 min of flow, then a 1-minute pause
    m.injectDraw(5, 20 * 60);
    expect(run(m, 20 * 60).filter((e) => e.type === "close")).toEqual([]);
    expect(m.snapshot().totalWaterL).toBeCloseTo(200, 9);

    const n = new SoftenerModel({ ...quiet, settings: { continuousWaterTime: 30 } });
    n.injectDraw(5, 20 * 60);
    run(n, 19 * 60);
    n.injectDraw(6, 20 * 60); // opened before the first ended: still one uninterrupted flow
    const close = run(n, 20 * 60).find((e) => e.type === "close");
    expect(close).toEqual({ type: "close", at: quiet.startTime + 30 * 60_000, closeReason: 769 });
    // 19 min × 5 + 11 min × 6 = 161 L metered before the valve closed
    expect(n.snapshot().totalWaterL).toBeCloseTo(161, 9);
  });
});

describe("clock drift and sync (example 7)", () => {
  it("gains clockDriftSecondsPerDay, the same for any chunking, until a time sync", () => {
    const start = at("2025-01-06T10:00:00Z");
    const a = new SoftenerModel({ startTime: start, clockDriftSecondsPerDay: 30, family: { persons: 0 } });
    const b = new SoftenerModel({ startTime: start, clockDriftSecondsPerDay: 30, family: { persons: 0 } });
    a.tick(86_400);
    run(b, 86_400, 37);
    expect(a.clock).toBe(start + 86_400_000 + 30_000);
    expect(b.clock).toBe(a.clock);
    expect(a.snapshot().clockDriftMs).toBe(30_000);
    a.syncTime(start + 86_400_000);
    expect(a.snapshot().clockDriftMs).toBe(0);
    a.tick(43_200);
    expect(a.clock).toBe(start + 86_400_000 + 43_200_000 + 15_000);
    const slow = new SoftenerModel({ startTime: start, clockDriftSecondsPerDay: -20, family: { persons: 0 } });
    slow.tick(3 * 86_400);
    expect(slow.clock).toBe(start + 3 * 86_400_000 - 60_000);
    const exact = new SoftenerModel({ startTime: start, family: { persons: 0 } });
    exact.tick(86_400);
    expect(exact.clock).toBe(start + 86_400_000);
    expect(() => new SoftenerModel({ clockDriftSecondsPerDay: 50_000 })).toThrow(/drift/);
  });
});

describe("factory reset", () => {
  it("restores the settings the valve was built with, reopens, ends vacation and keeps the used water", () => {
    const m = new SoftenerModel({ startTime: 0, settings: { resinVolume: 20 }, family: { persons: 0 } });
    m.applySettings({ washTime: 3, rawWaterHardness: 500 });
    m.injectDraw(10, 60); // 10 L used
    run(m, 120);
    m.setVacation(true);
    m.injectClose(257);
    const events = m.factoryReset();
    expect(events.map((e) => e.type)).toEqual(["reset", "station", "vacation"]);
    const s = m.snapshot();
    expect(s.settings).toMatchObject({ washTime: 10, rawWaterHardness: 250, resinVolume: 20 });
    expect(s).toMatchObject({ station: 0, vacation: false, closeReason: null, capacityL: 3600, remainingWaterL: 3590 });
  });
});

describe("OTA plan (example 8)", () => {
  it("progresses 0 → 100 and bumps the version, or fails part-way with a seeded chance", () => {
    expect(nextFirmwareVersion("1.0.9")).toBe("1.0.10");
    expect(nextFirmwareVersion("beta")).toBe("1.0.1");
    const ok = planOta("1.0.0", null, 0, new Rng(1));
    expect(ok).toEqual({
      from: "1.0.0",
      target: "1.0.1",
      progress: [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100],
      failAt: null,
    });
    const failed = planOta("1.0.0", "2.0.0", 1, new Rng(1));
    expect(failed.failAt).toBeGreaterThanOrEqual(10);
    expect(failed.failAt).toBeLessThanOrEqual(90);
    expect(failed.progress.at(-1)).toBe(failed.failAt);

    const outcomes = (seed: number) => {
      const rng = new Rng(seed);
      return Array.from({ length: 200 }, () => planOta("1.0.0", null, 0.25, rng).failAt);
    };
    expect(outcomes(42)).toEqual(outcomes(42));
    expect(outcomes(42)).not.toEqual(outcomes(43));
    const failures = outcomes(42).filter((f) => f !== null).length;
    expect(failures).toBeGreaterThan(25); // 200 × 0.25 = 50 expected
    expect(failures).toBeLessThan(75);
    expect(() => planOta("1.0.0", null, 1.5, new Rng(1))).toThrow(RangeError);
  });
});
