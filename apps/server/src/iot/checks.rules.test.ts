/**
 * The gateway's checks of device messages (docs/device-protocol.md §5.1), pure and fast (mutation testing reruns them
 * per mutant): refusal counts and their gated log, schema refusals (where and what, never the value), counter resets,
 * the interval bounded by the totaliser's rise, the device time a message is stored with, and the correction counts.
 * A recording logger stands in for pino and the fake Date clock for the log gate's minute; every expectation is worked
 * out by hand from the protocol's rules.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DeviceMessageChecks } from "./checks.ts";
import type { ClockRateState } from "./clock-rate.ts";
import type { IotLogger } from "./logger.ts";

type Line = { level: string; obj: Record<string, unknown>; msg: string | undefined };

/** A logger that keeps every line. */
function recorder(): IotLogger & { lines: Line[] } {
  const lines: Line[] = [];
  const keep = (level: string) => (obj: object, msg?: string) => {
    lines.push({ level, obj: obj as Record<string, unknown>, msg });
  };
  return { lines, debug: keep("debug"), info: keep("info"), warn: keep("warn"), error: keep("error") };
}

const T0 = Date.parse("2026-05-01T12:00:00.000Z");
const UNMEASURED: ClockRateState = { rate: null, anchorTs: null, anchorAt: null };
const ZERO_CORRECTIONS = {
  timeReplaced: 0,
  stationStartDropped: 0,
  settingsDropped: 0,
  counterRestarts: 0,
  redeliveredIgnored: 0,
  intervalBounded: 0,
};

let log: ReturnType<typeof recorder>;
let checks: DeviceMessageChecks;
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"], now: T0 });
  log = recorder();
  checks = new DeviceMessageChecks(log);
});
afterEach(() => {
  vi.useRealTimers();
});

describe("refusals", () => {
  it("starts at zero for every reason and counts each refusal under its reason", () => {
    expect(checks.rejected).toEqual({ "too-large": 0, "not-json": 0, invalid: 0, "unknown-device": 0 });
    checks.reject("aa", "telemetry", "too-large");
    checks.reject("bb", "telemetry", "too-large");
    checks.reject("aa", "state", "not-json");
    expect(checks.rejected).toEqual({ "too-large": 2, "not-json": 1, invalid: 0, "unknown-device": 0 });
  });

  it("hands out copies: changing one changes no count", () => {
    const copy = checks.rejected as Record<string, number>;
    copy["not-json"] = 99;
    const corrected = checks.corrected as Record<string, number>;
    corrected.timeReplaced = 99;
    expect(checks.rejected["not-json"]).toBe(0);
    expect(checks.corrected).toEqual(ZERO_CORRECTIONS);
  });

  it("logs a refusal as a warning with the MAC, channel, reason and detail; an unknown device only as info", () => {
    checks.reject("aa", "telemetry", "not-json", { bytes: 3 });
    checks.reject("bb", "state", "unknown-device");
    expect(log.lines).toEqual([
      {
        level: "warn",
        obj: { mac: "aa", channel: "telemetry", reason: "not-json", bytes: 3 },
        msg: "device message refused",
      },
      { level: "info", obj: { mac: "bb", channel: "state", reason: "unknown-device" }, msg: "device message refused" },
    ]);
  });

  it("logs the same reason of the same device once a minute, then with the number not logged since", () => {
    checks.reject("aa", "telemetry", "not-json");
    vi.setSystemTime(T0 + 30_000);
    checks.reject("aa", "telemetry", "not-json");
    vi.setSystemTime(T0 + 59_999);
    checks.reject("aa", "telemetry", "not-json");
    expect(log.lines).toHaveLength(1);
    vi.setSystemTime(T0 + 60_000);
    checks.reject("aa", "telemetry", "not-json");
    expect(log.lines).toHaveLength(2);
    expect(log.lines[1].obj).toEqual({ mac: "aa", channel: "telemetry", reason: "not-json", notLoggedSince: 2 });
    // The next minute starts afresh: nothing was suppressed in it.
    vi.setSystemTime(T0 + 120_000);
    checks.reject("aa", "telemetry", "not-json");
    expect(log.lines[2].obj).toEqual({ mac: "aa", channel: "telemetry", reason: "not-json" });
    expect(checks.rejected["not-json"]).toBe(5);
  });

  it("gates per device and per kind of line: another MAC or another reason is logged at once", () => {
    checks.reject("aa", "telemetry", "not-json");
    checks.reject("bb", "telemetry", "not-json");
    checks.reject("aa", "telemetry", "too-large");
    checks.noteCounterReset("aa", "state", {});
    expect(log.lines.map((l) => [l.obj.mac, l.obj.reason ?? l.msg])).toEqual([
      ["aa", "not-json"],
      ["bb", "not-json"],
      ["aa", "too-large"],
      ["aa", "device message corrected: counter-reset"],
    ]);
  });

  it("forgets the gates once 10 000 are kept, so a gated device is logged again", () => {
    checks.reject("mac-0", "telemetry", "not-json");
    for (let i = 1; i < 10_000; i++) checks.reject(`mac-${i}`, "telemetry", "not-json");
    // 10 000 gates kept: the next new one starts from an empty memory.
    checks.reject("mac-new", "telemetry", "not-json");
    checks.reject("mac-0", "telemetry", "not-json");
    expect(log.lines).toHaveLength(10_002);
    expect(log.lines[10_001].obj.mac).toBe("mac-0");
  });

  it("keeps the gates below 10 000", () => {
    for (let i = 0; i < 9_999; i++) checks.reject(`mac-${i}`, "telemetry", "not-json");
    checks.reject("mac-new", "telemetry", "not-json");
    checks.reject("mac-0", "telemetry", "not-json");
    expect(log.lines).toHaveLength(10_000);
  });
});

describe("schema refusals", () => {
  type Issue = { path: PropertyKey[]; message: string };
  const failing = (issues: Issue[]) => ({
    safeParse: () => ({ success: false as const, error: { issues } }),
  });

  it("returns the parsed message when the schema accepts it, refusing nothing", () => {
    const schema = { safeParse: (v: unknown) => ({ success: true as const, data: { parsed: v } }) };
    expect(checks.validate(schema, 5, "aa", "telemetry")).toEqual({ parsed: 5 });
    expect(checks.rejected.invalid).toBe(0);
    expect(log.lines).toEqual([]);
  });

  it("refuses as invalid and logs where and what of at most three issues", () => {
    const issues: Issue[] = [
      { path: ["settings", 3, "value"], message: "too big" },
      { path: [], message: "not an object" },
      { path: ["a"], message: "x" },
      { path: ["b"], message: "fourth" },
    ];
    expect(checks.validate(failing(issues), {}, "aa", "state")).toBeNull();
    expect(checks.rejected.invalid).toBe(1);
    expect(log.lines).toEqual([
      {
        level: "warn",
        obj: {
          mac: "aa",
          channel: "state",
          reason: "invalid",
          issues: ["settings.3.value: too big", "(message): not an object", "a: x"],
        },
        msg: "device message refused",
      },
    ]);
  });

  it("cuts the path to 80 and the message to 120 characters", () => {
    const long = { path: ["p".repeat(100)], message: "m".repeat(200) };
    checks.validate(failing([long]), {}, "aa", "state");
    expect(log.lines[0].obj.issues).toEqual([`${"p".repeat(80)}: ${"m".repeat(120)}`]);
  });
});

describe("counter resets", () => {
  it("is a reset when the totaliser went down beyond the rounding", () => {
    expect(checks.counterReset({ total_water_l: 100 }, 99.9, null)).toBe(true);
    expect(checks.counterReset({ total_water_l: 100 }, 99.95, null)).toBe(false);
    expect(checks.counterReset({ total_water_l: 100 }, 150, null)).toBe(false);
  });

  it("is a reset when the regeneration count went down, and telemetry (no count) checks the totaliser only", () => {
    expect(checks.counterReset({ total_water_l: 100, regeneration_count: 12 }, 100, 11)).toBe(true);
    expect(checks.counterReset({ total_water_l: 100, regeneration_count: 12 }, 100, 12)).toBe(false);
    expect(checks.counterReset({ total_water_l: 100, regeneration_count: 12 }, 100, null)).toBe(false);
    expect(checks.counterReset({ total_water_l: 100, regeneration_count: 12 }, 50, 13)).toBe(true);
    expect(checks.counterReset({}, 0, 0)).toBe(false);
  });

  it("counts and logs an accepted reset as information", () => {
    checks.noteCounterReset("aa", "state", { storedTotalL: 100 });
    expect(checks.corrected).toEqual({ ...ZERO_CORRECTIONS, counterRestarts: 1 });
    expect(log.lines).toEqual([
      {
        level: "info",
        obj: { mac: "aa", channel: "state", storedTotalL: 100 },
        msg: "device message corrected: counter-reset",
      },
    ]);
  });
});

describe("interval bounded by the totaliser's rise", () => {
  it("keeps an interval up to the rise plus 0.15 L", () => {
    expect(checks.boundedInterval("aa", 10, 11, 1.1)).toBe(1.1);
    expect(checks.boundedInterval("aa", 10, 10, 0.15)).toBe(0.15);
    expect(checks.boundedInterval("aa", 10, 10, 0)).toBe(0);
    expect(checks.corrected.intervalBounded).toBe(0);
    expect(log.lines).toEqual([]);
  });

  it("bounds a larger interval to the rise, rounded to the millilitre, counting and logging it", () => {
    expect(checks.boundedInterval("aa", 10, 11.1, 5)).toBe(1.1);
    expect(checks.boundedInterval("bb", 10, 10, 0.16)).toBe(0);
    expect(checks.corrected.intervalBounded).toBe(2);
    expect(log.lines[0]).toEqual({
      level: "info",
      obj: { mac: "aa", intervalWaterL: 5, totaliserRoseL: 11.1 - 10 },
      msg: "device message corrected: interval",
    });
  });

  it("bounds to nothing when the totaliser went down within the rounding", () => {
    expect(checks.boundedInterval("aa", 10, 9.97, 0.16)).toBe(0);
  });

  it("after a counter reset, bounds to the new total (it counted from zero)", () => {
    expect(checks.boundedInterval("aa", 500, 3, 2)).toBe(2);
    expect(checks.boundedInterval("aa", 500, 3, 7)).toBe(3);
  });

  it("leaves the interval alone without a believable previous total (none, unreadable, beyond the bound)", () => {
    expect(checks.boundedInterval("aa", null, 10, 50)).toBe(50);
    expect(checks.boundedInterval("aa", Number.NaN, 10, 50)).toBe(50);
    expect(checks.boundedInterval("aa", 1e9 + 1, 10, 50)).toBe(50);
    // At the bound itself the previous total is believed: 1e9 → 10 is a reset, bounded to 10.
    expect(checks.boundedInterval("aa", 1e9, 10, 50)).toBe(10);
    expect(checks.corrected.intervalBounded).toBe(1);
  });
});

describe("device time stored", () => {
  const now = new Date(T0);

  it("stores a plausible time as it is, correcting nothing", () => {
    const ts = "2026-05-01T11:00:00.000Z";
    expect(checks.deviceTime("aa", ts, now, UNMEASURED, false)).toEqual({ recordTs: ts, reportTs: ts, foldTs: ts });
    expect(checks.corrected.timeReplaced).toBe(0);
    expect(log.lines).toEqual([]);
  });

  it("stores an implausible record at the receive time and its reading pinned a day away", () => {
    const ahead = checks.deviceTime("aa", "2030-01-01T00:00:00.000Z", now, UNMEASURED, true);
    expect(ahead).toEqual({
      recordTs: "2026-05-01T12:00:00.000Z",
      reportTs: "2026-05-02T12:00:00.000Z",
      // Within 2000–2099: the clock's pace is measured from the raw reading.
      foldTs: "2030-01-01T00:00:00.000Z",
    });
    expect(checks.corrected).toEqual({ ...ZERO_CORRECTIONS, timeReplaced: 1 });
    expect(log.lines).toEqual([
      {
        level: "info",
        obj: { mac: "aa", deviceTime: "2030-01-01T00:00:00.000Z", receivedAt: "2026-05-01T12:00:00.000Z", state: true },
        msg: "device message corrected: time",
      },
    ]);
  });

  it("measures the pace from the pinned reading when the raw one lies outside 2000–2099", () => {
    const behind = checks.deviceTime("aa", "1970-01-01T00:00:00.000Z", now, UNMEASURED, false);
    expect(behind).toEqual({
      recordTs: "2026-05-01T12:00:00.000Z",
      reportTs: "2026-04-30T12:00:00.000Z",
      foldTs: "2026-04-30T12:00:00.000Z",
    });
  });

  it("gives two replaced records of one device in the same millisecond distinct, increasing times", () => {
    const first = checks.deviceTime("aa", "1970-01-01T00:00:00.000Z", now, UNMEASURED, false);
    const second = checks.deviceTime("aa", "1970-01-01T00:00:01.000Z", now, UNMEASURED, false);
    const other = checks.deviceTime("bb", "1970-01-01T00:00:01.000Z", now, UNMEASURED, false);
    expect(first.recordTs).toBe("2026-05-01T12:00:00.000Z");
    expect(second.recordTs).toBe("2026-05-01T12:00:00.001Z");
    expect(other.recordTs).toBe("2026-05-01T12:00:00.000Z");
    // Later receive times are taken as they are.
    const later = checks.deviceTime("aa", "1970-01-01T00:00:02.000Z", new Date(T0 + 5_000), UNMEASURED, false);
    expect(later.recordTs).toBe("2026-05-01T12:00:05.000Z");
  });

  it("forgets the last times once 100 000 devices are kept", () => {
    const bad = "1970-01-01T00:00:00.000Z";
    // The gate's fake clock is not needed here, and the real one keeps 100 000 calls fast.
    vi.useRealTimers();
    checks = new DeviceMessageChecks({ debug() {}, info() {}, warn() {}, error() {} });
    for (let i = 0; i < 100_000; i++) checks.deviceTime(`mac-${i}`, bad, now, UNMEASURED, false);
    // The memory is full: this call clears it before keeping its own time.
    expect(checks.deviceTime("mac-0", bad, now, UNMEASURED, false).recordTs).toBe("2026-05-01T12:00:00.001Z");
    // mac-1 was forgotten: the receive time is its own again.
    expect(checks.deviceTime("mac-1", bad, now, UNMEASURED, false).recordTs).toBe("2026-05-01T12:00:00.000Z");
  });
});

describe("correction counts", () => {
  it("counts dropped station starts, dropped settings keys and ignored redeliveries", () => {
    checks.stationStartDropped();
    checks.settingsDropped("aa", "state", 3);
    checks.settingsDropped("aa", "state", 2);
    checks.redeliveredIgnored();
    checks.redeliveredIgnored();
    expect(checks.corrected).toEqual({
      ...ZERO_CORRECTIONS,
      stationStartDropped: 1,
      settingsDropped: 5,
      redeliveredIgnored: 2,
    });
    expect(log.lines).toEqual([
      {
        level: "info",
        obj: { mac: "aa", channel: "state", droppedSettings: 3 },
        msg: "device message corrected: settings",
      },
    ]);
  });
});
