import type { Language, TSaltStatus } from "@aquapilot/contract";
import type { Db } from "../../db/index.js";
import { translate } from "../../http/messages.js";
import { readFreshness } from "./freshness.js";
import { readReportedSettings, saltPerRegenerationKg } from "./settings.js";

/** Salt is "low" when it runs out within this many days, or cannot feed the next regeneration. */
export const LOW_SALT_DAYS = 7;
const DAY_MS = 86_400_000;

/**
 * The salt forecast (issue 4 "Salt"), pure: level now = level at refill − regenerations since × salt per
 * regeneration (never below 0); daily use = regenerations of the last 30 days × salt per regeneration ÷ 30;
 * days left = ⌊level ÷ daily use⌋ (null without a level or without use); low when days left ≤ {@link LOW_SALT_DAYS}
 * or the level is below one regeneration's salt. Units: kg, days.
 */
export function forecastSalt(input: {
  levelAtRefillKg: number | null;
  regenerationsSinceRefill: number;
  regenerationsLast30Days: number;
  saltPerRegenerationKg: number | null;
}): { saltLevelKg: number | null; dailySaltUseKg: number; saltDaysLeft: number | null; lowSalt: boolean } {
  const perRegen = input.saltPerRegenerationKg ?? 0;
  const level =
    input.levelAtRefillKg === null
      ? null
      : Math.max(0, Math.round((input.levelAtRefillKg - input.regenerationsSinceRefill * perRegen) * 1000) / 1000);
  const daily = Math.round(((input.regenerationsLast30Days * perRegen) / 30) * 10000) / 10000;
  const daysLeft = level === null || daily <= 0 ? null : Math.floor(level / daily);
  const lowSalt =
    level !== null && ((daysLeft !== null && daysLeft <= LOW_SALT_DAYS) || (perRegen > 0 && level < perRegen));
  return { saltLevelKg: level, dailySaltUseKg: daily, saltDaysLeft: daysLeft, lowSalt };
}

/**
 * Regenerations the cloud received since `sinceIso` (the cloud's clock, like the refill time): a device clock that
 * runs ahead (or a 60× demo valve) must not make a regeneration from before a refill count after it (issue 10).
 */
async function countRegenerations(db: Db, deviceId: string, sinceIso: string): Promise<number> {
  const r = await db
    .selectFrom("device_events")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("device_id", "=", deviceId)
    .where("type", "=", "regeneration-start")
    .where("received_at", ">=", sinceIso)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Salt level, forecast and freshness of a device, with a low-salt message in `lang` (access checked by the caller). */
export async function readSaltStatus(db: Db, deviceId: string, now: Date, lang: Language): Promise<TSaltStatus> {
  const settings = await readReportedSettings(db, deviceId);
  const perRegen = saltPerRegenerationKg(settings);
  const level = await db
    .selectFrom("device_salt")
    .select(["level_kg", "refilled_at"])
    .where("device_id", "=", deviceId)
    .executeTakeFirst();
  const last30 = await countRegenerations(db, deviceId, new Date(now.getTime() - 30 * DAY_MS).toISOString());
  const since = level ? await countRegenerations(db, deviceId, level.refilled_at) : 0;
  const f = forecastSalt({
    levelAtRefillKg: level?.level_kg ?? null,
    regenerationsSinceRefill: since,
    regenerationsLast30Days: last30,
    saltPerRegenerationKg: perRegen,
  });
  const message = !f.lowSalt
    ? null
    : f.saltDaysLeft !== null && f.saltLevelKg !== null && f.saltLevelKg >= (perRegen ?? 0)
      ? translate(lang, "deviceControl.lowSalt", { days: f.saltDaysLeft })
      : translate(lang, "deviceControl.saltEmpty");
  return {
    deviceId,
    ...f,
    saltPerRegenerationKg: perRegen,
    regenerationsLast30Days: last30,
    message,
    refilledAt: level?.refilled_at ?? null,
    ...(await readFreshness(db, deviceId)),
  };
}

/** The owner refilled the brine tank: sets the level (kg) as of `now` (upsert). */
export async function resetSaltLevel(
  db: Db,
  deviceId: string,
  levelKg: number,
  userId: string,
  now: Date,
): Promise<void> {
  const values = { level_kg: levelKg, refilled_at: now.toISOString(), updated_by: userId };
  await db
    .insertInto("device_salt")
    .values({ device_id: deviceId, ...values })
    .onConflict((oc) => oc.column("device_id").doUpdateSet(values))
    .execute();
}
