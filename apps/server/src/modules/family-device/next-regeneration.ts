import { WorkPattern } from "@aquapilot/contract";
import { TZDate } from "@date-fns/tz";
import type { ReportedSettings } from "../statistics/index.ts";

const DAY_MS = 86_400_000;
/** Days ahead the forecast looks for a regeneration before it gives up (answers null). */
export const FORECAST_HORIZON_DAYS = 400;

/** Stations of a running cycle (spec §3): 1–4 and 6–8; 0 is service and 5 closed. */
export const CYCLE_STATIONS: ReadonlySet<number> = new Set([1, 2, 3, 4, 6, 7, 8]);

/** The settings that decide when the valve regenerates (spec §3 advanced settings, docs/device-sim.md §4). */
export interface RegenerationSettings {
  /** 0 downflow delayed, 1 downflow immediate, 2 downflow intelligent, 3–5 the same upflow, 6 filter. */
  workPattern: number;
  /** Minute of the local day of `regeneratingTriggerTime` (HH:mm on the valve's clock). */
  triggerMinute: number;
  /** `maximumRegenerationIntervalDay`, days; 0 = never. */
  maxIntervalDays: number;
  /** `backWashIntervalNumber`: for the filter pattern the days between backwashes. */
  backwashIntervalDays: number;
}

function num(settings: ReportedSettings, key: string, fallback: number): number {
  const v = settings[key];
  const n = typeof v === "string" ? Number(v) : v;
  return typeof n === "number" && Number.isFinite(n) ? n : fallback;
}

/**
 * The regeneration settings out of the reported settings, with the valve's defaults (docs/device-protocol.md §7.6:
 * pattern 0, trigger 02:00, override 15 days, backwash every 1) for keys it did not report; null when the device
 * reported no settings at all (nothing to forecast from).
 */
export function regenerationSettings(settings: ReportedSettings): RegenerationSettings | null {
  if (Object.keys(settings).length === 0) return null;
  const trigger = /^(\d{1,2}):(\d{2})/.exec(String(settings.regeneratingTriggerTime ?? "02:00"));
  const hours = trigger ? Math.min(23, Number(trigger[1])) : 2;
  const minutes = trigger ? Math.min(59, Number(trigger[2])) : 0;
  return {
    workPattern: num(settings, "workPattern", WorkPattern.DownflowDelayed),
    triggerMinute: hours * 60 + minutes,
    maxIntervalDays: Math.max(0, num(settings, "maximumRegenerationIntervalDay", 15)),
    backwashIntervalDays: num(settings, "backWashIntervalNumber", 1),
  };
}

/** What {@link nextRegeneration} forecasts from. Device-clock times are ms on the valve's clock. */
export interface NextRegenerationInput {
  /** The valve's clock now (its last report carried forward at its measured rate), ms. */
  deviceNowMs: number;
  /** The valve's clock when it reported `remainingWaterL`, ms (≤ deviceNowMs). */
  reportDeviceMs: number;
  /** IANA zone of the valve's wall clock (the owner's: the phone sets the valve's time, spec §4 time sync). */
  zone: string;
  station: number | null;
  vacation: boolean;
  /** The valve has closed the water (a close reason is open). */
  closed: boolean;
  remainingWaterL: number | null;
  /** Average water used per day of the valve's clock, L; null when nothing has been metered. */
  dailyUseL: number | null;
  /** The valve's clock at the start of its last regeneration, ms; null when none is known. */
  lastRegenerationStartMs: number | null;
  settings: RegenerationSettings;
}

/** A forecast regeneration: when on the valve's clock, and which rule starts it. */
export interface NextRegeneration {
  atDeviceMs: number;
  reason: "capacity" | "interval" | "filter";
}

/** The k-th occurrence (k = 0 the first) of the trigger minute strictly after `afterMs` in `zone`, ms. */
function triggerAfter(afterMs: number, zone: string, minuteOfDay: number, k: number): number {
  const local = new TZDate(afterMs, zone);
  const hours = Math.floor(minuteOfDay / 60);
  const minutes = minuteOfDay % 60;
  const base = (day: number) =>
    new TZDate(local.getFullYear(), local.getMonth(), local.getDate() + day, hours, minutes, 0, 0, zone).getTime();
  const first = base(0) > afterMs ? 0 : 1;
  return base(first + k);
}

/**
 * When the valve will start its next regeneration, on its own clock — the rules of the modelled control valve
 * (docs/device-sim.md §4, apps/device-sim `SoftenerModel.checkSchedule`), applied to a forecast of the water left:
 *
 * - none while a cycle runs (stations 1–4, 6–8: the Home card says "regenerating" instead), in vacation mode (the
 *   valve starts no regeneration then, not even by the day override) or while the water is closed;
 * - the water left at a future moment t is forecast as `remainingWaterL − dailyUseL × (t − report) ÷ 1 day`;
 * - delayed (0, 3): at the trigger time (`regeneratingTriggerTime`, the valve's local wall clock) of the night the
 *   forecast reaches 0 L;
 * - intelligent (2, 5): at the first trigger time when the forecast is below one day's use (the valve's reserve, the
 *   average daily use); at once if the bed is forecast to run out before that trigger time;
 * - immediate (1, 4): the moment the forecast reaches 0 L, whatever the time of day;
 * - filter (6): at the trigger time once `backWashIntervalNumber` days have passed since the last cycle;
 * - every pattern: at the trigger time once `maximumRegenerationIntervalDay` days (0 = never) have passed since the
 *   start of the last regeneration, less one minute of tolerance — whichever comes first.
 *
 * Without recent use (`dailyUseL` null or 0) only a bed already spent counts by capacity; without a known last
 * regeneration the day override is not applied. Pure; answers null when nothing is due within
 * {@link FORECAST_HORIZON_DAYS} days or the valve will not regenerate (see above). A regeneration already due (a spent
 * bed on an immediate valve) answers `deviceNowMs`.
 */
export function nextRegeneration(input: NextRegenerationInput): NextRegeneration | null {
  const { settings: s, deviceNowMs: now } = input;
  if (input.vacation || input.closed) return null;
  if (input.station !== null && CYCLE_STATIONS.has(input.station)) return null;
  const pattern = s.workPattern;
  const filter = pattern === WorkPattern.FilterType;
  const delayed = pattern === WorkPattern.DownflowDelayed || pattern === WorkPattern.UpflowDelayed;
  const immediate = pattern === WorkPattern.DownflowImmediate || pattern === WorkPattern.UpflowImmediate;
  const intelligent = pattern === WorkPattern.DownflowIntelligent || pattern === WorkPattern.UpflowIntelligent;
  const daily = input.dailyUseL !== null && input.dailyUseL > 0 ? input.dailyUseL : null;
  const remaining = input.remainingWaterL;
  const forecast = (t: number): number | null => {
    if (remaining === null) return null;
    if (remaining <= 0) return 0;
    if (daily === null) return remaining;
    return remaining - (daily * Math.max(0, t - input.reportDeviceMs)) / DAY_MS;
  };
  // The moment the bed is forecast to run out (immediate and intelligent valves start then, at any time of day).
  let runsOutAt: number | null = null;
  if (!filter && remaining !== null) {
    if (remaining <= 0) runsOutAt = now;
    else if (daily !== null) runsOutAt = Math.max(now, input.reportDeviceMs + (remaining / daily) * DAY_MS);
  }
  const since = (t: number) =>
    input.lastRegenerationStartMs === null ? null : (t - input.lastRegenerationStartMs) / DAY_MS;
  const tolerance = 1 / 1440;
  // Rules that can never fire: no known last cycle (filter, day override) and no use to spend the bed.
  const intervalPossible = s.maxIntervalDays > 0 && input.lastRegenerationStartMs !== null;
  if (filter && input.lastRegenerationStartMs === null) return null;
  if (!filter && !intervalPossible && (remaining === null || (remaining > 0 && daily === null))) return null;
  for (let k = 0; ; k++) {
    const t = triggerAfter(now, input.zone, s.triggerMinute, k);
    if (t - now > FORECAST_HORIZON_DAYS * DAY_MS) return null;
    if ((immediate || intelligent) && runsOutAt !== null && runsOutAt <= t) {
      return { atDeviceMs: runsOutAt, reason: "capacity" };
    }
    const days = since(t);
    const intervalDue = s.maxIntervalDays > 0 && days !== null && days >= s.maxIntervalDays - tolerance;
    if (filter) {
      const filterDue = days !== null && days >= Math.max(1, s.backwashIntervalDays) - tolerance;
      if (filterDue) return { atDeviceMs: t, reason: "filter" };
      if (intervalDue) return { atDeviceMs: t, reason: "interval" };
      continue;
    }
    const left = forecast(t);
    if (left !== null) {
      if (delayed && left <= 0) return { atDeviceMs: t, reason: "capacity" };
      if (intelligent && (left <= 0 || (daily !== null && left < daily))) return { atDeviceMs: t, reason: "capacity" };
    }
    if (intervalDue) return { atDeviceMs: t, reason: "interval" };
  }
}

/**
 * The valve's clock against real time: `rate` device seconds per real second (1 for a real
 * valve, e.g. 60 for the time-scaled simulator), anchored at a report that showed `anchorDeviceMs` on the device
 * clock when the server received it at `anchorRealMs`.
 */
export interface DeviceClock {
  rate: number;
  anchorDeviceMs: number;
  anchorRealMs: number;
}

/**
 * The clock of a device from its state row (migration 0013: `clock_rate`, `rate_anchor_ts` device time and
 * `rate_anchor_at` server time, measured by the gateway; else the last state report and its arrival), pure. Without
 * either pair the device clock is taken as real time.
 */
export function deviceClockOf(row: {
  clock_rate?: number | null;
  rate_anchor_ts?: string | null;
  rate_anchor_at?: string | null;
  last_report_time?: string | null;
  reported_at?: string | null;
}): DeviceClock {
  const rate = row.clock_rate && row.clock_rate > 0 ? row.clock_rate : 1;
  for (const [ts, at] of [
    [row.rate_anchor_ts, row.rate_anchor_at],
    [row.last_report_time, row.reported_at],
  ]) {
    const device = ts ? Date.parse(ts) : Number.NaN;
    const real = at ? Date.parse(at) : Number.NaN;
    if (Number.isFinite(device) && Number.isFinite(real)) return { rate, anchorDeviceMs: device, anchorRealMs: real };
  }
  return { rate, anchorDeviceMs: 0, anchorRealMs: 0 };
}

/** The device clock (ms) at real time `realMs`. */
export function toDeviceTime(clock: DeviceClock, realMs: number): number {
  return clock.anchorDeviceMs + (realMs - clock.anchorRealMs) * clock.rate;
}

/** The real time (ms) at which the device clock shows `deviceMs`. */
export function toRealTime(clock: DeviceClock, deviceMs: number): number {
  return clock.anchorRealMs + (deviceMs - clock.anchorDeviceMs) / clock.rate;
}
