import type { Language, TDashboardBadges, TDeviceDashboard, TFamilyDashboard } from "@aquapilot/contract";
import type { CoreServices } from "../../core-services.ts";
import type { Db } from "../../db/index.ts";
import { addLocalDays, localDayStart } from "../../http/time-zone.ts";
import { type LinkRow, linkOnline, presentLink } from "../../iot/live-state.ts";
import { queryOtaVersion } from "../device-control/index.ts";
import type { ReportedSettings } from "../statistics/index.ts";
import { dailyUseL, readSaltStatus, waterReceivedBetween } from "../statistics/index.ts";
import {
  CYCLE_STATIONS,
  deviceClockOf,
  nextRegeneration,
  regenerationSettings,
  toDeviceTime,
  toRealTime,
} from "./next-regeneration.ts";

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
      "s.last_heard_at",
      "s.status_at",
      "s.reports_refused_since",
      "s.reports_refused_reason",
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
 * alarm "closed" while a close reason is open, else "offline" when offline (linkOnline: status, or not heard within the
 * report interval plus margin) for more than `offlineMinutes` (since the offline watcher first saw it, else since the
 * state was last written).
 */
export function dashboardBadges(
  row: Pick<DashboardRow, "station" | "vacation" | "close_reason" | "updated_at" | "offline_since"> & LinkRow,
  ota: { currentVersion: string | null; updateAvailable: boolean; updating: boolean } | null,
  nowMs: number,
  offlineMinutes: number,
): TDashboardBadges {
  const offlineSince = Date.parse(row.offline_since ?? row.updated_at ?? "");
  const offlineTooLong =
    !linkOnline(row, nowMs) && Number.isFinite(offlineSince) && nowMs - offlineSince > offlineMinutes * 60_000;
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
 * The Home dashboard of household `familyId` (contract getFamilyDashboard) for a
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
 * Checks no caller: the route's object rule refuses a stranger (404 family.notFound, as for an unknown family).
 */
export async function readFamilyDashboard(
  ctx: CoreServices,
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
      ...presentLink(row),
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
