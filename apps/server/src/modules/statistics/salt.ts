import {
  exchangeCapacityL,
  type Language,
  regenerationIntervalDays,
  SALT_REMINDER_DAYS,
  type TSaltStatus,
} from "@aquapilot/contract";
import type { Db } from "../../db/index.ts";
import { AppError, ErrorCode } from "../../http/errors.ts";
import { translate } from "../../http/messages.ts";
import { dailyUseL } from "./daily-use.ts";
import { readFreshness } from "./freshness.ts";
import { maxDaysBetweenRegenerations, readReportedSettings, saltPerRegenerationKg } from "./settings.ts";

/**
 * Salt is "low" when it runs out within this many days (or cannot feed the next regeneration), until the household
 * sets its own reminder ({@link setSaltReminder}).
 */
export const LOW_SALT_DAYS: number = SALT_REMINDER_DAYS.default;
const DAY_MS = 86_400_000;

/**
 * The salt forecast, pure. Level now = level at refill − regenerations since × salt per regeneration (never below 0).
 * The valve regenerates every `regenerationIntervalDays` days ({@link regenerationIntervalDays}, docs/device-sim.md §6):
 * - from the physics when the capacity between regenerations (L, resin volume × exchange capacity ÷ raw-water
 *   hardness, contract `exchangeCapacityL`) and the recent daily use (L per day of the valve's clock) are both known
 *   and positive: capacity ÷ daily use days;
 * - else from what the cloud saw: 30 ÷ the regenerations of the last 30 days;
 * - either way never longer than `maxDaysBetweenRegenerations` (settings maximumRegenerationIntervalDay: the valve
 *   regenerates at least that often whatever the water used); without use or count, that maximum itself.
 * Daily salt use = salt per regeneration ÷ that interval; days left = ⌊level ÷ daily use⌋ (null without a level or
 * an interval), so never more than level ÷ salt per regeneration × the maximum interval. Low when days left ≤
 * `reminderDays` (the household's low-salt reminder, default {@link LOW_SALT_DAYS}) or the level is below one
 * regeneration's salt. Units: kg, L, days; `dailySaltUseKg` is rounded to 4 decimals and `regenerationIntervalDays`
 * to 1 for display, days left is computed before rounding.
 */
export function forecastSalt(input: {
  levelAtRefillKg: number | null;
  regenerationsSinceRefill: number;
  regenerationsLast30Days: number;
  saltPerRegenerationKg: number | null;
  /** The valve's maximum days between regenerations (settings maximumRegenerationIntervalDay); null: no limit. */
  maxDaysBetweenRegenerations?: number | null;
  /** Soft water between two regenerations, L; null or absent when unknown. */
  capacityL?: number | null;
  /** Recent average water use, L per day; null or absent when unknown. */
  dailyUseL?: number | null;
  reminderDays?: number;
}): {
  saltLevelKg: number | null;
  dailySaltUseKg: number;
  saltDaysLeft: number | null;
  lowSalt: boolean;
  regenerationIntervalDays: number | null;
} {
  const perRegen = input.saltPerRegenerationKg ?? 0;
  const level =
    input.levelAtRefillKg === null
      ? null
      : Math.max(0, Math.round((input.levelAtRefillKg - input.regenerationsSinceRefill * perRegen) * 1000) / 1000);
  const maxDays = input.maxDaysBetweenRegenerations ?? null;
  const capacityL = input.capacityL ?? null;
  const dailyUseL = input.dailyUseL ?? null;
  const physics = capacityL !== null && capacityL > 0 && dailyUseL !== null && dailyUseL > 0;
  const observed = input.regenerationsLast30Days > 0 ? 30 / input.regenerationsLast30Days : null;
  const cap = maxDays !== null && maxDays > 0 ? maxDays : null;
  const interval = physics
    ? regenerationIntervalDays({ capacityL, dailyUseL, maxDays })
    : observed === null
      ? cap
      : Math.min(observed, cap ?? observed);
  const daily = interval === null || interval <= 0 ? 0 : perRegen / interval;
  // A hair over the exact quotient, so 50 kg ÷ (3 kg ÷ 15 d) is 250 days, not 249.999….
  const daysLeft = level === null || daily <= 0 ? null : Math.floor(level / daily + 1e-9);
  const threshold = input.reminderDays ?? LOW_SALT_DAYS;
  const lowSalt =
    level !== null && ((daysLeft !== null && daysLeft <= threshold) || (perRegen > 0 && level < perRegen));
  return {
    saltLevelKg: level,
    dailySaltUseKg: Math.round(daily * 10000) / 10000,
    saltDaysLeft: daysLeft,
    lowSalt,
    regenerationIntervalDays: interval === null ? null : Math.round(interval * 10) / 10,
  };
}

/**
 * Regenerations the cloud received since `sinceIso` (the cloud's clock, like the refill time): a device clock that
 * runs ahead (or a 60× demo valve) must not make a regeneration from before a refill count after it:
 * the level the owner enters is the level shown.
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

/**
 * The household's low-salt reminder of a device: salt is low when it runs out within this many days
 * (`device_salt_reminder.days`, migration 0012); the default {@link LOW_SALT_DAYS} until a member sets one.
 */
export async function readSaltReminderDays(db: Db, deviceId: string): Promise<number> {
  const row = await db
    .selectFrom("device_salt_reminder")
    .select("days")
    .where("device_id", "=", deviceId)
    .executeTakeFirst();
  return row?.days ?? LOW_SALT_DAYS;
}

/**
 * Salt level, forecast and freshness of a device, with a low-salt message in `lang` (access checked by the caller).
 * The forecast ({@link forecastSalt}) reads the capacity the valve reports (else resin volume × exchange capacity ÷
 * raw-water hardness from its settings), the average daily use of its last 7 days ({@link dailyUseL}, in days of the
 * valve's clock: a 60× demo valve's days pass 60 times faster), the salt per regeneration and the maximum interval.
 * "Low" follows the household's reminder ({@link readSaltReminderDays}); the message center's low-salt notice reads
 * this status, so it goes out once per refill as soon as the forecast falls within the reminder.
 * Also answers the level entered at the last refill (`refillLevelKg`, the gauge's full mark) and `reminderDays`.
 */
export async function readSaltStatus(db: Db, deviceId: string, now: Date, lang: Language): Promise<TSaltStatus> {
  const settings = await readReportedSettings(db, deviceId);
  const reminderDays = await readSaltReminderDays(db, deviceId);
  const perRegen = saltPerRegenerationKg(settings);
  const level = await db
    .selectFrom("device_salt")
    .select(["level_kg", "refilled_at"])
    .where("device_id", "=", deviceId)
    .executeTakeFirst();
  const last30 = await countRegenerations(db, deviceId, new Date(now.getTime() - 30 * DAY_MS).toISOString());
  const since = level ? await countRegenerations(db, deviceId, level.refilled_at) : 0;
  const state = await db
    .selectFrom("device_state")
    .select(["capacity_l", "clock_rate"])
    .where("device_id", "=", deviceId)
    .executeTakeFirst();
  const rate = state?.clock_rate && state.clock_rate > 0 ? state.clock_rate : 1;
  const f = forecastSalt({
    levelAtRefillKg: level?.level_kg ?? null,
    regenerationsSinceRefill: since,
    regenerationsLast30Days: last30,
    saltPerRegenerationKg: perRegen,
    maxDaysBetweenRegenerations: maxDaysBetweenRegenerations(settings),
    // The valve's own count when it reports one (a real valve may use its own resin's figure), else the formula.
    capacityL: state?.capacity_l ?? exchangeCapacityL(settings),
    dailyUseL: await dailyUseL(db, deviceId, now.getTime(), rate),
    reminderDays,
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
    refillLevelKg: level?.level_kg ?? null,
    reminderDays,
    ...(await readFreshness(db, deviceId)),
  };
}

/**
 * Sets the household's low-salt reminder of a device: salt counts as low — on Home, on Device and for the
 * once-per-refill low-salt message — when the forecast says it runs out within `days` days. One row per device
 * (upsert), with who set it and when. Access is checked by the caller (statistics/routes.ts): any member of the
 * device's household may set it, not only the administrator — it is everyday care of the brine tank like "Salt
 * refilled" (which members may do too), whoever refills the salt is the one who knows how early a reminder helps, and
 * it changes no valve setting, membership or anyone's access (spec §6 keeps those for the administrator).
 * @param days a whole number from SALT_REMINDER_DAYS.min to .max.
 * @throws AppError Validation `salt.reminderRange` (members ["days"]) for anything else; nothing is stored then.
 */
export async function setSaltReminder(
  db: Db,
  deviceId: string,
  days: number,
  userId: string,
  now: Date,
): Promise<void> {
  if (!Number.isInteger(days) || days < SALT_REMINDER_DAYS.min || days > SALT_REMINDER_DAYS.max) {
    throw new AppError(ErrorCode.Validation, "salt.reminderRange", {}, [
      { message: "salt.reminderRange", members: ["days"] },
    ]);
  }
  const values = { days, updated_by: userId, updated_at: now.toISOString() };
  await db
    .insertInto("device_salt_reminder")
    .values({ device_id: deviceId, ...values })
    .onConflict((oc) => oc.column("device_id").doUpdateSet(values))
    .execute();
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
