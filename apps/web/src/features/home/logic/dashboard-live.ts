import type { TDeviceChangeMessage, TFamilyDashboard } from "@aquapilot/contract/wire";

/** Stations of a running cycle (spec §3): 1–4 and 6–8; 0 is service and 5 closed. */
export const CYCLE_STATIONS: ReadonlySet<number> = new Set([1, 2, 3, 4, 6, 7, 8]);

/** Whether `station` is a step of a running regeneration or flushing (spec §3). */
export function isCycleStation(station: number | null | undefined): boolean {
  return station !== null && station !== undefined && CYCLE_STATIONS.has(station);
}

/**
 * Hub-1 event types after which a device's dashboard figures are stale (spec §7 hub 1): a cycle started or ended
 * (water left, next regeneration, salt), vacation mode changed, the water was closed or reopened, a firmware update
 * failed. A finished update is an "ota-progress" at 100 %.
 */
export const DASHBOARD_EVENTS: ReadonlySet<string> = new Set([
  "regeneration-start",
  "regeneration-end",
  "vacation",
  "close",
  "reset",
  "ota-failed",
]);

/**
 * Whether a hub-1 message means the dashboard must be read again: one of {@link DASHBOARD_EVENTS} or a
 * finished firmware update, or an online/offline change (the offline alarm), for a device of the dashboard. States
 * and telemetry are patched in place ({@link applyDashboardMessage}) and never cause a request.
 */
export function refetchesDashboard(message: TDeviceChangeMessage, dashboard: TFamilyDashboard | undefined): boolean {
  if (dashboard && !dashboard.devices.some((d) => d.deviceId === message.deviceId)) return false;
  if (message.kind === "online") return true;
  if (message.kind !== "event" || !message.event) return false;
  const { type, progress } = message.event;
  return DASHBOARD_EVENTS.has(type) || (type === "ota-progress" && (progress ?? 0) >= 100);
}

/**
 * Applies one hub-1 message to a household's dashboard (pure): the device's "last seen" becomes `nowIso` (the phone's
 * clock at arrival — a real time, never the device clock); for a "state" its water left, and the regenerating badge
 * from its station. Messages for other devices return the same object.
 */
export function applyDashboardMessage(
  dashboard: TFamilyDashboard,
  message: TDeviceChangeMessage,
  nowIso: string,
): TFamilyDashboard {
  const index = dashboard.devices.findIndex((d) => d.deviceId === message.deviceId);
  if (index < 0) return dashboard;
  const device = dashboard.devices[index];
  const next = { ...device, lastSeenAt: nowIso, badges: { ...device.badges } };
  if (message.kind === "state") {
    if (message.remainingWaterL !== null) next.remainingWaterL = message.remainingWaterL;
    if (message.station !== null) next.badges.regenerating = isCycleStation(message.station);
  }
  return { ...dashboard, devices: dashboard.devices.map((d, i) => (i === index ? next : d)) };
}

/** The timer functions {@link CoalescedRefresh} uses (tests pass fake ones). */
export interface Timers {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const REAL_TIMERS: Timers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * Joins bursts of refresh requests into one call, so live events never hammer the server: a request runs
 * `run` `delayMs` later, requests meanwhile join it, and two runs are at least `minGapMs` apart (a request inside the
 * gap runs when it ends). `dispose()` drops a pending run.
 */
export class CoalescedRefresh {
  private timer: unknown = null;
  private lastRun = Number.NEGATIVE_INFINITY;

  private readonly run: () => void;
  private readonly delayMs: number;
  private readonly minGapMs: number;
  private readonly timers: Timers;
  constructor(run: () => void, delayMs = 1500, minGapMs = 10_000, timers: Timers = REAL_TIMERS) {
    this.run = run;
    this.delayMs = delayMs;
    this.minGapMs = minGapMs;
    this.timers = timers;
  }

  /** Asks for one run; answers whether a new run was scheduled (false: joined a pending one). */
  request(): boolean {
    if (this.timer !== null) return false;
    const now = this.timers.now();
    const at = Math.max(now + this.delayMs, this.lastRun + this.minGapMs);
    this.timer = this.timers.setTimeout(() => {
      this.timer = null;
      this.lastRun = this.timers.now();
      this.run();
    }, at - now);
    return true;
  }

  /** Drops a pending run (the screen went away). */
  dispose(): void {
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
  }
}
