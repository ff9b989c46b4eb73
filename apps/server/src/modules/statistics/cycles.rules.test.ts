/**
 * The regeneration-cycle rules (spec §3 stations and advanced settings, spec §7 regeneration cycles) and the report
 * periods (spec §3 report time types 1 month, 2 week, 3 day), pure and fast (mutation testing reruns them per mutant):
 * per-station durations against the settings, the > 20 % deviation flag at its edges, the cycle's totals, water and
 * salt, and the buckets of a day, a week and a month in the owner's zone. Expectations are worked out by hand.
 */
import { ErrorCode } from "@aquapilot/contract";
import { describe, expect, it } from "vitest";
import { AppError } from "../../http/errors.ts";
import { buildCycles, CYCLE_DEVIATION, type CycleEvent } from "./cycles.ts";
import { REPORT_TIME_TYPE, reportPeriod } from "./flow-statistics.ts";

/** Minutes on the valve: backwash 10 (600 s), brine draw 60 (3600 s), refill 6 (360 s), fast rinse 10 (600 s). */
const SETTINGS = { backWashTime: 10, absorbSaltSlowWashTime: 60, saltTankRefillTime: 6, washTime: 10, saltAddition: 3 };
const BASE = Date.parse("2026-03-01T02:00:00.000Z");
/** Device-clock time `s` seconds after BASE. */
const t = (s: number) => new Date(BASE + s * 1000).toISOString();
const start = (s: number, receivedAt?: string): CycleEvent => ({
  type: "regeneration-start",
  station: null,
  ts: t(s),
  receivedAt,
});
const station = (n: number | null, s: number, receivedAt?: string): CycleEvent => ({
  type: "station",
  station: n,
  ts: t(s),
  receivedAt,
});
const end = (s: number, extra: Partial<CycleEvent> = {}): CycleEvent => ({
  type: "regeneration-end",
  station: null,
  ts: t(s),
  ...extra,
});

describe("station deviation (> 20 % off the settings)", () => {
  it("is a fifth of the configured duration", () => {
    expect(CYCLE_DEVIATION).toBe(0.2);
  });

  /** The backwash (600 s configured) lasting `seconds`, then the end: [station deviates, cycle deviates]. */
  const backwash = (seconds: number) => {
    const [c] = buildCycles([start(0), station(1, 0), end(seconds)], SETTINGS);
    return [c.stations[0].deviates, c.deviates];
  };

  it("flags nothing at exactly ±20 % and flags both the station and the cycle just beyond", () => {
    expect(backwash(600)).toEqual([false, false]);
    expect(backwash(720)).toEqual([false, false]);
    expect(backwash(480)).toEqual([false, false]);
    expect(backwash(721)).toEqual([true, true]);
    expect(backwash(479)).toEqual([true, true]);
  });

  it("flags a station that took no time at all", () => {
    const [c] = buildCycles([start(0), station(1, 0), station(4, 0), end(600)], SETTINGS);
    expect(c.stations.map((s) => [s.station, s.durationSeconds, s.deviates])).toEqual([
      [1, 0, true],
      [4, 600, false],
    ]);
    expect(c.deviates).toBe(true);
  });

  it("never flags a station without a configured duration, or with 0 configured", () => {
    const [unset] = buildCycles([start(0), station(5, 0), end(5000)], SETTINGS);
    expect(unset.stations[0]).toMatchObject({
      station: 5,
      durationSeconds: 5000,
      expectedSeconds: null,
      deviates: false,
    });
    expect(unset.deviates).toBe(false);
    const [zero] = buildCycles([start(0), station(1, 0), end(5000)], { ...SETTINGS, backWashTime: 0 });
    expect(zero.stations[0]).toMatchObject({ durationSeconds: 5000, expectedSeconds: 0, deviates: false });
    expect(zero.deviates).toBe(false);
  });

  it("flags the cycle when its total is off although no station is (time before the first station)", () => {
    // Backwash 600 s as configured, but the cycle started 300 s before it: 900 s against 600 s.
    const [c] = buildCycles([start(0), station(1, 300), end(900)], SETTINGS);
    expect(c.stations[0].deviates).toBe(false);
    expect(c).toMatchObject({ durationSeconds: 900, expectedSeconds: 600, deviates: true });
    // 120 s before it: 720 s against 600 s is exactly 20 %, not flagged.
    const [edge] = buildCycles([start(0), station(1, 120), end(720)], SETTINGS);
    expect(edge.deviates).toBe(false);
  });
});

describe("regeneration cycles", () => {
  it("measures each station until the next one or the end, and sums the configured durations", () => {
    const events = [start(0), station(1, 0), station(2, 600), station(3, 4200), station(4, 4560), end(5160)];
    const [c] = buildCycles(events, SETTINGS);
    expect(c).toEqual({
      startTime: t(0),
      endTime: t(5160),
      durationSeconds: 5160,
      expectedSeconds: 600 + 3600 + 360 + 600,
      stations: [
        { station: 1, startTime: t(0), durationSeconds: 600, expectedSeconds: 600, deviates: false },
        { station: 2, startTime: t(600), durationSeconds: 3600, expectedSeconds: 3600, deviates: false },
        { station: 3, startTime: t(4200), durationSeconds: 360, expectedSeconds: 360, deviates: false },
        { station: 4, startTime: t(4560), durationSeconds: 600, expectedSeconds: 600, deviates: false },
      ],
      waterL: null,
      // The valve reported no salt; the cycle drew brine (station 2): saltAddition.
      saltKg: 3,
      deviates: false,
      complete: true,
    });
  });

  it("shows real arrival times but measures durations on the device clock", () => {
    const events = [
      start(0, "2026-05-01T10:00:00.000Z"),
      station(1, 0, "2026-05-01T10:00:05.000Z"),
      end(600, { receivedAt: "2026-05-01T10:00:20.000Z" }),
    ];
    const [c] = buildCycles(events, SETTINGS);
    expect(c).toMatchObject({
      startTime: "2026-05-01T10:00:00.000Z",
      endTime: "2026-05-01T10:00:20.000Z",
      durationSeconds: 600,
    });
    expect(c.stations[0]).toMatchObject({ startTime: "2026-05-01T10:00:05.000Z", durationSeconds: 600 });
  });

  it("has no total expectation without stations or when a station has no configured duration", () => {
    const [bare] = buildCycles([start(0), end(600)], SETTINGS);
    expect(bare).toMatchObject({ stations: [], durationSeconds: 600, expectedSeconds: null, deviates: false });
    const [partial] = buildCycles([start(0), station(1, 0), station(6, 600), end(1200)], SETTINGS);
    expect(partial).toMatchObject({ expectedSeconds: null, deviates: false });
  });

  it("takes water and salt from the end event, else saltAddition for a complete cycle that drew brine", () => {
    const [reported] = buildCycles([start(0), station(2, 0), end(3600, { waterL: 150.5, saltKg: 2.5 })], SETTINGS);
    expect(reported).toMatchObject({ waterL: 150.5, saltKg: 2.5 });
    const [reportedNone] = buildCycles([start(0), station(2, 0), end(3600, { saltKg: 0 })], SETTINGS);
    expect(reportedNone.saltKg).toBe(0);
    const [noBrine] = buildCycles([start(0), station(1, 0), end(600)], SETTINGS);
    expect(noBrine.saltKg).toBe(0);
    const [noSetting] = buildCycles([start(0), station(2, 0), end(3600)], { absorbSaltSlowWashTime: 60 });
    expect(noSetting.saltKg).toBe(0);
  });

  it("closes a cycle left open by the next start as incomplete: no end, no total, no salt, no total flag", () => {
    const events = [start(0), station(1, 0), station(2, 600), start(9000), station(1, 9000), end(9600)];
    const cycles = buildCycles(events, SETTINGS);
    expect(cycles).toHaveLength(2);
    expect(cycles[0]).toMatchObject({
      endTime: null,
      durationSeconds: null,
      expectedSeconds: 4200,
      waterL: null,
      saltKg: 0,
      deviates: false,
      complete: false,
    });
    // The brine draw has no end to be measured against: shown as 0, not flagged.
    expect(cycles[0].stations[1]).toMatchObject({ station: 2, durationSeconds: 0, deviates: false });
    expect(cycles[1]).toMatchObject({ startTime: t(9000), durationSeconds: 600, complete: true });
  });

  it("closes a cycle still open at the last event as incomplete", () => {
    const cycles = buildCycles([start(0), station(2, 0)], SETTINGS);
    expect(cycles).toHaveLength(1);
    expect(cycles[0]).toMatchObject({ complete: false, endTime: null, saltKg: 0 });
  });

  it("ignores stations and ends outside a cycle, and service (0) or unnamed stations inside one", () => {
    const events = [station(1, 0), end(10), start(100), station(0, 100), station(null, 200), station(1, 300), end(900)];
    const cycles = buildCycles(events, SETTINGS);
    expect(cycles).toHaveLength(1);
    expect(cycles[0].stations.map((s) => [s.station, s.durationSeconds])).toEqual([[1, 600]]);
    expect(cycles[0].startTime).toBe(t(100));
  });

  it("counts a span across a sync that set the clock back as unknown: 0 s, never flagged", () => {
    const [c] = buildCycles([start(1000), station(1, 1000), station(4, 0), end(600)], SETTINGS);
    expect(c.stations[0]).toMatchObject({ durationSeconds: 0, deviates: false });
    expect(c.stations[1]).toMatchObject({ durationSeconds: 600, deviates: false });
    // The cycle's own span went backwards too: unknown total, and a complete cycle is not flagged for it.
    expect(c).toMatchObject({ durationSeconds: null, complete: true, deviates: false });
  });

  it("lists cycles oldest first", () => {
    const cycles = buildCycles([start(0), end(10), start(100), end(110)], {});
    expect(cycles.map((c) => c.startTime)).toEqual([t(0), t(100)]);
  });
});

describe("report periods", () => {
  const now = new Date("2026-03-12T12:00:00.000Z");
  const isoOf = (d: Date) => d.toISOString();

  it("numbers the types as spec §3 does", () => {
    expect(REPORT_TIME_TYPE).toEqual({ month: 1, week: 2, day: 3 });
  });

  it("a day: that local day in hourly buckets, today by default", () => {
    const p = reportPeriod(3, undefined, now);
    expect([isoOf(p.from), isoOf(p.to), p.bucket]).toEqual([
      "2026-03-12T00:00:00.000Z",
      "2026-03-13T00:00:00.000Z",
      "hour",
    ]);
    expect(p.starts).toHaveLength(24);
    expect(isoOf(p.starts[0])).toBe("2026-03-12T00:00:00.000Z");
    expect(isoOf(p.starts[23])).toBe("2026-03-12T23:00:00.000Z");
    // Today in the owner's zone: 12:00 UTC is already the 13th in Auckland (UTC+13).
    expect(isoOf(reportPeriod(3, undefined, now, "Pacific/Auckland").from)).toBe("2026-03-12T11:00:00.000Z");
  });

  it("a daylight-saving day has 23 or 25 hourly buckets", () => {
    const spring = reportPeriod(3, "2026-03-29", now, "Europe/Berlin");
    expect([isoOf(spring.from), isoOf(spring.to)]).toEqual(["2026-03-28T23:00:00.000Z", "2026-03-29T22:00:00.000Z"]);
    expect(spring.starts).toHaveLength(23);
    expect(reportPeriod(3, "2026-10-25", now, "Europe/Berlin").starts).toHaveLength(25);
  });

  it("a week: Monday to Sunday holding the date, in 7 daily buckets", () => {
    const sunday = reportPeriod(2, "2026-03-15", now);
    expect([isoOf(sunday.from), isoOf(sunday.to), sunday.bucket]).toEqual([
      "2026-03-09T00:00:00.000Z",
      "2026-03-16T00:00:00.000Z",
      "day",
    ]);
    expect(sunday.starts.map(isoOf)).toEqual(
      [9, 10, 11, 12, 13, 14, 15].map((d) => `2026-03-${String(d).padStart(2, "0")}T00:00:00.000Z`),
    );
    const monday = reportPeriod(2, "2026-03-09", now);
    expect(isoOf(monday.from)).toBe("2026-03-09T00:00:00.000Z");
    const wednesday = reportPeriod(2, "2026-03-11", now, "Asia/Kolkata");
    expect([isoOf(wednesday.from), isoOf(wednesday.to)]).toEqual([
      "2026-03-08T18:30:00.000Z",
      "2026-03-15T18:30:00.000Z",
    ]);
  });

  it("a month: the calendar month holding the date, in daily buckets; any other type is a month too", () => {
    const feb = reportPeriod(1, "2026-02-10", now);
    expect([isoOf(feb.from), isoOf(feb.to), feb.bucket]).toEqual([
      "2026-02-01T00:00:00.000Z",
      "2026-03-01T00:00:00.000Z",
      "day",
    ]);
    expect(feb.starts).toHaveLength(28);
    expect(isoOf(feb.starts[27])).toBe("2026-02-28T00:00:00.000Z");
    expect(reportPeriod(1, "2026-03-31", now).starts).toHaveLength(31);
    expect(reportPeriod(7, "2026-04-10", now).starts).toHaveLength(30);
    // Berlin's March has 31 local days although one of them is 23 hours long.
    const march = reportPeriod(1, "2026-03-05", now, "Europe/Berlin");
    expect([isoOf(march.from), isoOf(march.to)]).toEqual(["2026-02-28T23:00:00.000Z", "2026-03-31T22:00:00.000Z"]);
    expect(march.starts).toHaveLength(31);
  });

  it("ignores characters after the date, and refuses an impossible or unreadable date", () => {
    expect(isoOf(reportPeriod(3, "2026-03-15T23:59:59+05:00", now).from)).toBe("2026-03-15T00:00:00.000Z");
    for (const bad of ["2026-02-30", "2026-13-01", "garbage", ""]) {
      let thrown: unknown;
      try {
        reportPeriod(3, bad, now);
      } catch (e) {
        thrown = e;
      }
      expect(thrown, bad).toBeInstanceOf(AppError);
      expect((thrown as AppError).messageKey).toBe("validation.invalid");
      expect((thrown as AppError).params).toEqual({ field: "date" });
      expect((thrown as AppError).code).toBe(ErrorCode.Validation);
    }
  });
});

describe("what flags a cycle and what belongs to it", () => {
  it("flags a cycle for a deviating station even when its total is as configured", () => {
    // Backwash 900 s (+50 %) and fast rinse 300 s (−50 %): 1200 s against 600 + 600 s.
    const [c] = buildCycles([start(0), station(1, 0), station(4, 900), end(1200)], SETTINGS);
    expect(c).toMatchObject({ durationSeconds: 1200, expectedSeconds: 1200 });
    expect(c.stations.map((s) => s.deviates)).toEqual([true, true]);
    expect(c.deviates).toBe(true);
  });

  it("flags an incomplete cycle for a deviating station", () => {
    const cycles = buildCycles([start(0), station(1, 0), station(2, 900), start(5000)], SETTINGS);
    expect(cycles[0]).toMatchObject({ complete: false, deviates: true });
  });

  it("takes only station events as stations: another event carrying a station number is not one", () => {
    const events = [start(0), station(1, 0), { type: "alarm", station: 3, ts: t(100) }, end(600)];
    const [c] = buildCycles(events, SETTINGS);
    expect(c.stations.map((s) => [s.station, s.durationSeconds])).toEqual([[1, 600]]);
  });
});
