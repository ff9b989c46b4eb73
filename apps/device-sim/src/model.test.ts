import { Station } from "@aquapilot/contract";
import { describe, expect, it } from "vitest";
import { type SoftenerEvent, SoftenerModel } from "./model.ts";
import { exchangeCapacityL, validateSettings } from "./settings.ts";

const START = Date.UTC(2025, 0, 6, 10, 0, 0); // a Monday, 10:00 device time (UTC offset 0)

function stationsOf(events: SoftenerEvent[]): Array<{ station: number; at: number }> {
  return events.flatMap((e) => (e.type === "station" ? [{ station: e.station, at: e.at }] : []));
}

/** Ticks in chunks and collects every event. */
function run(model: SoftenerModel, seconds: number, chunk = 37): SoftenerEvent[] {
  const out: SoftenerEvent[] = [];
  let left = seconds;
  while (left > 0) {
    const dt = Math.min(chunk, left);
    out.push(...model.tick(dt));
    left -= dt;
  }
  return out;
}

describe("SoftenerModel regeneration cycle", () => {
  it("runs a downflow regeneration through stations 1→2→3→4→0 with the configured durations", () => {
    const settings = { backWashTime: 8, absorbSaltSlowWashTime: 50, saltTankRefillTime: 7, washTime: 12 };
    const m = new SoftenerModel({ startTime: START, settings, family: { persons: 0 } });
    const events = [...m.startRegeneration(), ...run(m, 3 * 3600)];
    const st = stationsOf(events);
    expect(st.map((s) => s.station)).toEqual([1, 2, 3, 4, 0]);
    const minutes = st.slice(1).map((s, i) => (s.at - st[i].at) / 60_000);
    expect(minutes).toEqual([8, 50, 7, 12]);
    expect(events.find((e) => e.type === "regeneration-end")).toMatchObject({ completed: true });
    const snap = m.snapshot();
    expect(snap.regenerationCount).toBe(1);
    expect(snap.saltUsedKg).toBe(3);
    expect(snap.station).toBe(Station.InService);
  });

  it("draws brine before backwash in an upflow work pattern, and pre-fills in absorbSaltMode 1", () => {
    const up = new SoftenerModel({ startTime: START, settings: { workPattern: 3 }, family: { persons: 0 } });
    expect(stationsOf([...up.startRegeneration(), ...run(up, 4 * 3600)]).map((s) => s.station)).toEqual([
      2, 1, 4, 3, 0,
    ]);
    const pre = new SoftenerModel({ startTime: START, settings: { absorbSaltMode: 1 }, family: { persons: 0 } });
    expect(pre.regenerationSteps()).toEqual([3, 6, 1, 2, 4]);
    const filter = new SoftenerModel({ startTime: START, settings: { workPattern: 6 } });
    expect(filter.regenerationSteps()).toEqual([1, 4]);
    expect(filter.capacityL).toBe(0);
  });

  it("reports the seconds left in a station and advances on forced switch", () => {
    const m = new SoftenerModel({ startTime: START, family: { persons: 0 } });
    m.startRegeneration();
    m.tick(120);
    expect(m.snapshot().stationRemainingSeconds).toBe(8 * 60);
    const ev = m.forceSwitch();
    expect(stationsOf(ev).map((s) => s.station)).toEqual([2]);
    expect(() => m.startRegeneration()).toThrow(/busy/);
  });
});

describe("capacity", () => {
  it("is resin volume × exchange capacity ÷ hardness (mg/L CaCO₃)", () => {
    expect(exchangeCapacityL({ resinVolume: 25, rawWaterHardness: 250 })).toBe(4500);
    expect(exchangeCapacityL({ resinVolume: 10, rawWaterHardness: 300 }, 30)).toBe(1000);
    const m = new SoftenerModel({ settings: { resinVolume: 20, rawWaterHardness: 200 } });
    expect(m.snapshot().capacityL).toBe(4500);
    expect(m.snapshot().remainingWaterL).toBe(4500);
  });

  it("meters household water against the remaining capacity, the same for any chunking", () => {
    const a = new SoftenerModel({ startTime: START, seed: 7 });
    const b = new SoftenerModel({ startTime: START, seed: 7 });
    run(a, 86_400, 1);
    run(b, 86_400, 3600);
    const sa = a.snapshot();
    const sb = b.snapshot();
    expect(sa.totalWaterL).toBeCloseTo(sb.totalWaterL, 6);
    // 3 persons × 150 L/day, within the randomness of a single day
    expect(sa.totalWaterL).toBeGreaterThan(200);
    expect(sa.totalWaterL).toBeLessThan(800);
    expect(sa.remainingWaterL).toBeCloseTo(sa.capacityL - sa.totalWaterL, 6);
  });

  it("keeps used water when set-config changes hardness, and refuses bad settings", () => {
    const m = new SoftenerModel({ startTime: START, remainingWaterL: 4000 });
    m.applySettings({ rawWaterHardness: 500 });
    expect(m.snapshot().capacityL).toBe(2250);
    expect(m.snapshot().remainingWaterL).toBe(1750);
    expect(() => m.applySettings({ nope: 1 })).toThrow(/unknown-setting:nope/);
    expect(validateSettings({ regeneratingTriggerTime: "25:00" })).toEqual({
      error: "invalid-setting:regeneratingTriggerTime",
    });
  });
});

describe("work patterns", () => {
  const small = { resinVolume: 2, rawWaterHardness: 500 }; // 180 L of soft water

  it("delayed: capacity runs out in the day, the regeneration waits for the trigger time 02:00", () => {
    const m = new SoftenerModel({ startTime: START, seed: 3, settings: { ...small, workPattern: 0 } });
    const before = run(m, 13 * 3600, 60); // until 23:00: exhausted, still in service
    expect(before.filter((e) => e.type === "regeneration-start")).toEqual([]);
    expect(m.snapshot()).toMatchObject({ station: 0, remainingWaterL: 0 });
    const events = run(m, 7 * 3600, 60);
    const start = events.find((e) => e.type === "regeneration-start");
    expect(start).toBeDefined();
    expect(new Date(start!.at).toISOString()).toBe("2025-01-07T02:00:00.000Z");
    expect(start).toMatchObject({ reason: "capacity" });
  });

  it("immediate: regenerates as soon as the capacity is spent", () => {
    const m = new SoftenerModel({ startTime: START, seed: 3, settings: { ...small, workPattern: 1 } });
    const events = run(m, 20 * 3600, 60);
    const start = events.find((e) => e.type === "regeneration-start");
    expect(start).toMatchObject({ reason: "capacity" });
    expect(start!.at).toBeLessThan(Date.UTC(2025, 0, 7, 0, 0));
    expect(m.snapshot().regenerationCount).toBeGreaterThanOrEqual(1);
  });

  it("intelligent: waits for the trigger time while the reserve lasts", () => {
    // capacity 4500 L, reserve = 450 L/day: stays in service, regenerates at 02:00 once below the reserve
    const m = new SoftenerModel({ startTime: START, seed: 4, settings: { workPattern: 2 }, remainingWaterL: 300 });
    const events = run(m, 18 * 3600, 60);
    const start = events.find((e) => e.type === "regeneration-start");
    expect(new Date(start!.at).toISOString()).toBe("2025-01-07T02:00:00.000Z");
  });

  it("regenerates after maximumRegenerationIntervalDay even with capacity left", () => {
    const m = new SoftenerModel({
      startTime: START,
      settings: { maximumRegenerationIntervalDay: 2 },
      family: { persons: 0 },
    });
    const events = run(m, 3 * 86_400, 600);
    const starts = events.filter((e) => e.type === "regeneration-start");
    expect(starts).toHaveLength(1);
    expect(new Date(starts[0].at).toISOString()).toBe("2025-01-09T02:00:00.000Z");
    expect(starts[0]).toMatchObject({ reason: "interval" });
  });
});

describe("vacation, closes and clock", () => {
  it("uses no water on vacation and flushes every 2 days at washInitiationTime", () => {
    const m = new SoftenerModel({ startTime: START, seed: 5 });
    m.setVacation(true);
    const events = run(m, 5 * 86_400, 300);
    expect(m.snapshot().totalWaterL).toBe(0);
    const flushes = events.filter((e) => e.type === "regeneration-start");
    expect(flushes.map((e) => e.type === "regeneration-start" && e.cycle)).toEqual(["flushing", "flushing"]);
    expect(flushes.map((e) => new Date(e.at).toISOString())).toEqual([
      "2025-01-09T02:00:00.000Z",
      "2025-01-11T02:00:00.000Z",
    ]);
    expect(m.snapshot().regenerationCount).toBe(0);
    m.setVacation(false);
    run(m, 86_400, 300);
    expect(m.snapshot().totalWaterL).toBeGreaterThan(0);
  });

  it("closes on excessive flow (1025), continuous use (769) and injected leaks (513); forced switch reopens", () => {
    const a = new SoftenerModel({ startTime: START, family: { persons: 0 }, settings: { flowRateOff: 40 } });
    const ev = a.injectDraw(80, 60);
    expect(ev.find((e) => e.type === "close")).toMatchObject({ closeReason: 1025 });
    expect(a.snapshot()).toMatchObject({ station: 5, closeReason: 1025, flowRateLpm: 0 });
    expect(() => a.startRegeneration()).toThrow(/closed/);
    const reopened = a.forceSwitch();
    expect(reopened.map((e) => e.type)).toEqual(["reset", "station"]);
    expect(a.snapshot().station).toBe(0);

    const b = new SoftenerModel({ startTime: START, family: { persons: 0 }, settings: { continuousWaterTime: 30 } });
    b.injectDraw(5, 3600);
    const closeAt = run(b, 3600, 45).find((e) => e.type === "close");
    expect(closeAt).toMatchObject({ closeReason: 769, at: START + 30 * 60_000 });

    const c = new SoftenerModel({ startTime: START });
    c.startRegeneration();
    const leak = c.injectClose(513);
    expect(leak.map((e) => e.type)).toEqual(["regeneration-end", "close", "station"]);
    expect(c.snapshot()).toMatchObject({ station: 5, closeReason: 513, cycle: null });
    expect(() => c.injectClose(42)).toThrow();
  });

  it("syncs the clock and keeps a running station's remaining time", () => {
    const m = new SoftenerModel({ startTime: START, family: { persons: 0 } });
    m.startRegeneration();
    m.tick(60);
    const target = Date.UTC(2025, 5, 1, 8, 0, 0);
    m.syncTime(target);
    expect(m.clock).toBe(target);
    expect(m.snapshot().stationRemainingSeconds).toBe(9 * 60);
  });

  it("advances timeScale simulated seconds per real second", () => {
    const m = new SoftenerModel({ startTime: START, timeScale: 60, family: { persons: 0 } });
    m.advanceReal(90);
    expect(m.clock - START).toBe(90 * 60 * 1000);
    m.startRegeneration();
    const ev = m.advanceReal(10); // 10 real s = 10 simulated min = the whole backwash
    expect(stationsOf(ev).map((s) => s.station)).toEqual([2]);
  });
});
