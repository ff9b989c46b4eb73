import type { MutationModule } from "../modules.ts";

/**
 * Mutation-tested rules of the statistics area (mutation/modules.ts gives the shape of an entry).
 */
const modules: MutationModule[] = [
  {
    name: "salt-forecast",
    title: "Salt forecast and the “salt is low” rule (spec §4 Device: days of salt left, low-salt reminder)",
    // forecastSalt and LOW_SALT_DAYS; the rest of salt.ts is database access, tested by the data-layer suites.
    mutate: ["apps/server/src/modules/statistics/salt.ts:19-85"],
    tests: {
      root: "apps/server",
      include: ["src/modules/statistics/salt-forecast.test.ts"],
    },
    equivalent: {
      "salt.ts: capacityL !== null → true": "followed by `capacityL > 0`, and `null > 0` is false: the same outcome",
      "salt.ts: dailyUseL !== null → true": "followed by `dailyUseL > 0`, and `null > 0` is false: the same outcome",
      "salt.ts: maxDays !== null → true": "followed by `maxDays > 0`, and `null > 0` is false: the same outcome",
      "salt.ts: interval === null → false": "then `interval <= 0` decides, and `null <= 0` is true: the same outcome",
      "salt.ts: interval === null || interval <= 0 → interval === null && interval <= 0":
        "`null <= 0` is true, so null still gives 0; and no route yields an interval ≤ 0 that is not null",
      "salt.ts: interval <= 0 → interval < 0":
        "every route gives an interval above 0 or null (physics and observed are positive, cap only when > 0)",
      "salt.ts: interval <= 0 → false": "every route gives an interval above 0 or null (see the line above)",
      "salt.ts: perRegen > 0 → perRegen >= 0": "with perRegen 0, `level < 0` is never true: the level is at least 0",
      "salt.ts: perRegen > 0 → true": "with perRegen ≤ 0, `level < perRegen` is never true: the level is at least 0",
    },
  },
];

export default modules;
