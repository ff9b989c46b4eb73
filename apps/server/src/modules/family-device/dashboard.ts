import {
  type Language,
  MQTT_BOUNDS,
  type TDashboardBadges,
  type TDeviceDashboard,
  type TFamilyDashboard,
} from "@aquapilot/contract";
import type { Db } from "../../db/index.ts";
import { addLocalDays, localDayStart } from "../../http/time-zone.ts";
import type { AppContext } from "../context.ts";
import { queryOtaVersion } from "../device-control/index.ts";
import type { ReportedSettings } from "../statistics/index.ts";
import { readSaltStatus } from "../statistics/index.ts";
import {
  CYCLE_STATIONS,
  deviceClockOf,
  nextRegeneration,
  regenerationSettings,
  toDeviceTime,
  toRealTime,
} from "./next-regeneration.ts";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Days of use the forecast averages, like the valve's own reserve (docs/device-sim.md §4). */
const USE_WINDOW_DAYS = 7;

function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}

function parseSettings(json: string | null): ReportedSettings {
  if (!json) return {};
  try {
    const parsed = JSON.parse(json) as unknown;
    return typeof parsed === "object" && parsed !== null ? (parsed as ReportedSettings) : {};
  } catch {
    return {};
  }
}

/** Sum of `interval_water_l` of the raw telemetry that arrived in [fromIso, toIso), L. */
async function rawWater(db: Db, deviceId: string, fromIso: string, toIso: string): Promise<number> {
  if (fromIso >= toIso) return 0;
  const r = await db
    .selectFrom("device_telemetry")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("interval_water_l"), eb.lit(0)).as("water"))
    .where("device_id", "=", deviceId)
    .where("received_at", ">=", fromIso)
    .where("received_at", "<", toIso)
    // The rollup's plausibility rule (issue 11): rows stored before it with NaN, 1e308 or negative water count nothing.
    .where("interval_water_l", ">=", 0)
    .where("interval_water_l", "<=", MQTT_BOUNDS.intervalWaterL)
    .where("flow_rate_lpm", ">=", 0)
    .where("flow_rate_lpm", "<=", MQTT_BOUNDS.flowLpm)
    .executeTakeFirstOrThrow();
  return Number(r.water);
}

/**
 * Water metered by a device that arrived at the cloud in [fromMs, toMs) (real time; issue 10 "One clock"), L. Whole
 * UTC hours inside the range come from the hourly rollups (which count water by its arrival hour), the partial hours
 * at either end from the raw telemetry, so a day costs at most 24 rollup rows plus two partial hours of raw rows, and
 * days that begin at a half-hour offset (India, Nepal) are cut exactly.
 */
export async function waterReceivedBetween(db: Db, deviceId: string, fromMs: number, toMs: number): Promise<number> {
  if (toMs <= fromMs) return 0;
  const firstHour = Math.ceil(fromMs / HOUR_MS) * HOUR_MS;
  const lastHour = Math.floor(toMs / HOUR_MS) * HOUR_MS;
  const iso = (ms: number) => new Date(ms).toISOString();
  if (firstHour >= lastHour) return rawWater(db, deviceId, iso(fromMs), iso(toMs));
  const hours = await db
    .selectFrom("device_water_hourly")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("water_l"), eb.lit(0)).as("water"))
    .where("device_id", "=", deviceId)
    .where("hour_start", ">=", iso(firstHour))
    .where("hour_start", "<", iso(lastHour))
    .executeTakeFirstOrThrow();
  return (
    (await rawWater(db, deviceId, iso(fromMs), iso(firstHour))) +
    Number(hours.water) +
    (await rawWater(db, deviceId, iso(lastHour), iso(toMs)))
  );
}

/**
 * The average water a device used per day of its own clock over the last {@link USE_WINDOW_DAYS} of them (the
 * valve's reserve, docs/device-sim.md §4), L; null when nothing arrived in that window. The window is measured in real
 * time as 7 device days ÷ the clock's rate; the average is over the time metered in it (from the first telemetry in
 * the window), but never over less than one device day, so a device that has just come online is not extrapolated
 * from a morning peak.
 */
async function dailyUseL(db: Db, deviceId: string, nowMs: number, rate: number): Promise<number | null> {
  const windowStart = nowMs - (USE_WINDOW_DAYS * DAY_MS) / rate;
  const first = await db
    .selectFrom("device_telemetry")
    .select("received_at")
    .where("device_id", "=", deviceId)
    .where("received_at", ">=", new Date(windowStart).toISOString())
    .orderBy("received_at")
    .limit(1)
    .executeTakeFirst();
  if (!first?.received_at) return null;
  const water = await waterReceivedBetween(db, deviceId, windowStart, nowMs);
  const spanDeviceMs = Math.max(DAY_MS, (nowMs - Date.parse(first.received_at)) * rate);
  return (water / spanDeviceMs) * DAY_MS;
}

/**
 * The device clock time (ms) the valve counts its day override from: the start of its last regeneration (or
 * flushing) the cloud received; without one, the first report the cloud has from it (its oldest telemetry or event) —
 * the valve counted from then or earlier, so the override forecast from it is the latest it can come. Null when the
 * device never reported.
 */
async function dayOverrideSince(db: Db, deviceId: string): Promise<number | null> {
  const last = await db
    .selectFrom("device_events")
    .select("ts")
    .where("device_id", "=", deviceId)
    .where("type", "=", "regeneration-start")
    .orderBy("received_at", "desc")
    .orderBy("ts", "desc")
    .limit(1)
    .executeTakeFirst();
  const parse = (ts: string | undefined) => (ts ? Date.parse(ts) : Number.NaN);
  const lastMs = parse(last?.ts);
  if (Number.isFinite(lastMs)) return lastMs;
  const telemetry = await db
    .selectFrom("device_telemetry")
    .select("ts")
    .where("device_id", "=", deviceId)
    .orderBy("ts")
    .limit(1)
    .executeTakeFirst();
  const event = await db
    .selectFrom("device_events")
    .select("ts")
    .where("device_id", "=", deviceId)
    .orderBy("ts")
    .limit(1)
    .executeTakeFirst();
  const first = [parse(telemetry?.ts), parse(event?.ts)].filter(Number.isFinite);
  return first.length > 0 ? Math.min(...first) : null;
}

/** The devices of a family with everything the dashboard reads from their state, in sort order. */
function dashboardRows(db: Db, familyId: string) {
  return db
    .selectFrom("devices as d")
    .leftJoin("device_state as s", "s.device_id", "d.id")
    .leftJoin("device_offline_watch as w", "w.device_id", "d.id")
    .select([
      "d.id",
      "s.online",
      "s.station",
      "s.vacation",
      "s.close_reason",
      "s.remaining_water_l",
      "s.capacity_l",
      "s.settings_json",
      "s.last_report_time",
      "s.reported_at",
      "s.updated_at",
      "s.clock_rate",
      "s.rate_anchor_ts",
      "s.rate_anchor_at",
      "w.offline_since",
    ])
    .where("d.family_id", "=", familyId)
    .orderBy("d.sort")
    .orderBy("d.creation_time")
    .orderBy("d.id")
    .execute();
}

type DashboardRow = Awaited<ReturnType<typeof dashboardRows>>[number];

/**
 * The badges of one device (contract ZDashboardBadges), pure: vacation; a cycle running (stations 1–4, 6–8);
 * firmware "updating" while an update runs, "available" when the device reports a version older than the latest;
 * alarm "closed" while a close reason is open, else "offline" when offline for more than `offlineMinutes` (since the
 * offline watcher first saw it, else since the state was last written).
 */
export function dashboardBadges(
  row: Pick<DashboardRow, "online" | "station" | "vacation" | "close_reason" | "updated_at" | "offline_since">,
  ota: { currentVersion: string | null; updateAvailable: boolean; updating: boolean } | null,
  nowMs: number,
  offlineMinutes: number,
): TDashboardBadges {
  const offlineSince = Date.parse(row.offline_since ?? row.updated_at ?? "");
  const offlineTooLong =
    row.online !== 1 && Number.isFinite(offlineSince) && nowMs - offlineSince > offlineMinutes * 60_000;
  return {
    vacation: row.vacation === 1,
    regenerating: row.station !== null && row.station !== undefined && CYCLE_STATIONS.has(row.station),
    firmwareUpdate: ota?.updating
      ? "updating"
      : ota?.updateAvailable && ota.currentVersion !== null
        ? "available"
        : null,
    alarm: row.close_reason !== null && row.close_reason !== undefined ? "closed" : offlineTooLong ? "offline" : null,
  };
}

/**
 * The Home dashboard of household `familyId` (issue 10 "Home is a dashboard"; contract getFamilyDashboard) for a
 * member, in one call. "Today" is the local day of `zone` (the caller's X-Time-Zone) holding now. Per device:
 * - salt level, days left and "low" as get-salt-status answers them (modules/statistics/salt.ts, with the household's
 *   reminder);
 * - water used today: the telemetry that arrived since local midnight (the cloud's clock, never the device's), L;
 * - water left and capacity as last reported, L;
 * - the next regeneration: {@link nextRegeneration} on the valve's clock, from the last reported water left, the
 *   average daily use of the last 7 device days and the start of the last cycle (else the first report: the override
 *   then comes at the latest at the time forecast), turned into real time with the clock
 *   rate the gateway measured (a 60× simulator regenerates 60 times sooner); the valve's wall clock is taken to be
 *   in `zone` (the phone sets it, spec §4 time sync);
 * - the badges ({@link dashboardBadges}; the firmware state as query-ota-version answers it).
 * The household total is the sum of the devices' water used today.
 * @throws AppError Forbidden (family.notMember) when `userId` is not a member (or the family does not exist).
 */
export async function readFamilyDashboard(
  ctx: AppContext,
  familyId: string,
  zone: string,
  lang: Language,
): Promise<TFamilyDashboard> {
  const now = ctx.now();
  const nowMs = now.getTime();
  const dayStart = localDayStart(now, zone);
  const dayEnd = addLocalDays(now, 1, zone);
  const rows = await dashboardRows(ctx.db, familyId);
  const devices: TDeviceDashboard[] = [];
  for (const row of rows) {
    const salt = await readSaltStatus(ctx.db, row.id, now, lang);
    const waterTodayL = round3(await waterReceivedBetween(ctx.db, row.id, dayStart.getTime(), dayEnd.getTime()));
    const ota = await queryOtaVersion(ctx, row.id);
    const badges = dashboardBadges(row, ota, nowMs, ctx.config.OFFLINE_MESSAGE_MINUTES);
    const settings = regenerationSettings(parseSettings(row.settings_json));
    let nextRegenerationAt: string | null = null;
    if (settings) {
      const clock = deviceClockOf(row);
      const report = row.last_report_time ? Date.parse(row.last_report_time) : Number.NaN;
      const deviceNowMs = toDeviceTime(clock, nowMs);
      const next = nextRegeneration({
        deviceNowMs,
        reportDeviceMs: Number.isFinite(report) ? Math.min(report, deviceNowMs) : deviceNowMs,
        zone,
        station: row.station ?? null,
        vacation: row.vacation === 1,
        closed: row.close_reason !== null && row.close_reason !== undefined,
        remainingWaterL: row.remaining_water_l ?? null,
        dailyUseL: await dailyUseL(ctx.db, row.id, nowMs, clock.rate),
        lastRegenerationStartMs: await dayOverrideSince(ctx.db, row.id),
        settings,
      });
      if (next) nextRegenerationAt = new Date(Math.max(nowMs, toRealTime(clock, next.atDeviceMs))).toISOString();
    }
    devices.push({
      deviceId: row.id,
      saltLevelKg: salt.saltLevelKg,
      saltDaysLeft: salt.saltDaysLeft,
      lowSalt: salt.lowSalt,
      waterTodayL,
      remainingWaterL: row.remaining_water_l ?? null,
      capacityL: row.capacity_l ?? null,
      nextRegenerationAt,
      closeReason: row.close_reason ?? null,
      lastSeenAt: row.updated_at ?? null,
      badges,
    });
  }
  return {
    familyId,
    timeZone: zone,
    dayStart: dayStart.toISOString(),
    waterTodayL: round3(devices.reduce((sum, d) => sum + d.waterTodayL, 0)),
    devices,
  };
}
