import type { MutationModule } from "../modules.ts";

/**
 * Mutation-tested rules of the device link and of households (mutation/modules.ts gives the shape of an entry).
 */
const modules: MutationModule[] = [
  {
    name: "device-plausibility",
    title:
      "Device time and counter plausibility and the clock-rate measurement (docs/device-protocol.md §5.1: device era, ±1 day window, time-scaled clocks, counter resets)",
    // plausibility.ts is pure throughout; clock-rate.ts from its constant on (the rest is the state's type).
    mutate: ["apps/server/src/iot/plausibility.ts", "apps/server/src/iot/clock-rate.ts:18-41"],
    tests: {
      root: "apps/server",
      include: ["src/iot/plausibility.rules.test.ts", "src/iot/clock-rate.test.ts"],
    },
    equivalent: {
      "plausibility.ts: rate === null → false":
        "a null rate then meets `!(rate > 0)` (null > 0 is false) and the function returns false all the same",
      "plausibility.ts: !Number.isFinite(anchorDevice) || !Number.isFinite(anchorReal) → false":
        "a missing anchor half is NaN, so the expected reading is NaN and `Math.abs(t - NaN) <= …` is false: the same false",
      "plausibility.ts: !Number.isFinite(anchorDevice) || !Number.isFinite(anchorReal) → !Number.isFinite(anchorDevice) && !Number.isFinite(anchorReal)":
        "one NaN anchor half already makes the expected reading NaN and the last comparison false (Date.parse never gives ±Infinity)",
      "plausibility.ts: !startedAt → false":
        "an absent or empty start parses to NaN (Date.parse(null), Date.parse('')), so the elapsed-time check returns null",
      "plausibility.ts: stored === null → false":
        'Number.isFinite(null) is false, so the next test of the same condition returns "ok" for null',
      "plausibility.ts: stored === undefined → false":
        'Number.isFinite(undefined) is false, so the next test of the same condition returns "ok" for undefined',
      "plausibility.ts: stored === null || stored === undefined → false":
        'Number.isFinite is false for null and undefined, so the next test of the same condition returns "ok" for both',
      "plausibility.ts: stored === null || stored === undefined → stored === null && stored === undefined":
        'Number.isFinite is false for null and undefined, so the next test of the same condition returns "ok" for both',
    },
  },
  {
    name: "device-checks",
    title:
      "The gateway's checks of device messages (docs/device-protocol.md §5.1: refusal counts and gated log, counter resets, interval bounded by the totaliser, stored device time)",
    mutate: ["apps/server/src/iot/checks.ts"],
    tests: {
      root: "apps/server",
      include: ["src/iot/checks.rules.test.ts"],
    },
    equivalent: {
      "checks.ts: previousTotalL === null → false":
        "Number.isFinite(null) is false, so the next test of the same condition leaves the interval alone for null",
    },
  },
  {
    name: "regeneration-cycles",
    title:
      "Regeneration cycles and report periods (spec §3 stations, advanced settings and report time types, spec §7 regeneration cycles and device-flow-statistics: per-station durations, > 20 % deviation, day/week/month buckets)",
    // CYCLE_DEVIATION and buildCycles, REPORT_TIME_TYPE and reportPeriod; the rest of both files reads the database.
    mutate: [
      "apps/server/src/modules/statistics/cycles.ts:10-105",
      "apps/server/src/modules/statistics/flow-statistics.ts:11-54",
    ],
    tests: {
      root: "apps/server",
      include: ["src/modules/statistics/cycles.rules.test.ts"],
    },
    equivalent: {
      "cycles.ts: expected !== null → true":
        "`null > 0` is false, so the next test of the same conjunction already answers false for no configured duration",
      "cycles.ts: !open → false":
        "close() is only ever called with a cycle open (every caller checks `open` first), so its own guard never fires",
      "cycles.ts: open → true":
        "close() returns at once when no cycle is open, so calling it unconditionally changes nothing",
      "cycles.ts: endTs === null → false":
        "deviceSeconds(ts, null) parses null to NaN and answers null, the same as the guarded branch",
      "cycles.ts: nextTs === null → false":
        "deviceSeconds(ts, null) parses null to NaN and answers null, the same as the guarded branch",
    },
  },
  {
    name: "household-rules",
    title:
      "Household and member rules (spec §5 household address, spec §6 administrator and member: leave, remove, transfer admin)",
    // The pure decisions of the two services; the rest is database access under the family lock (family.test.ts,
    // family-user.test.ts).
    mutate: [
      "apps/server/src/modules/family/service.ts:151-179",
      "apps/server/src/modules/family/service.ts:238-240",
      "apps/server/src/modules/family/service.ts:266-272",
      "apps/server/src/modules/family-user/service.ts:40-78",
    ],
    tests: {
      root: "apps/server",
      include: ["src/modules/family/household.rules.test.ts"],
    },
    equivalent: {},
  },
];

export default modules;
