import { isSystemCloseReason, Station, SystemCloseReason, WorkPattern } from "@aquapilot/contract";
import { Rng } from "./random.ts";
import {
  DEFAULT_EXCHANGE_CAPACITY_G_PER_L,
  DEFAULT_SETTINGS,
  exchangeCapacityL,
  parseHhmm,
  type SoftenerSettings,
  validateSettings,
} from "./settings.ts";

const MINUTE = 60_000;
const DAY = 86_400_000;

/**
 * Share of a household's daily water use in each local hour 0–23 (a residential diurnal curve: morning peak
 * 06–09, evening peak 18–22, little at night). Normalised when used, so it need not sum to exactly 1.
 */
export const FAMILY_PROFILE: readonly number[] = [
  0.006, 0.003, 0.002, 0.002, 0.004, 0.02, 0.08, 0.11, 0.08, 0.05, 0.04, 0.04, 0.05, 0.04, 0.03, 0.03, 0.04, 0.06, 0.08,
  0.09, 0.08, 0.06, 0.035, 0.02,
];

/** Mean volume of one household draw (a shower is ~40 L, a tap ~2 L), L. */
const MEAN_DRAW_L = 15;

/** Household whose water the valve meters. */
export interface FamilyOptions {
  /** People living there (default 3). */
  persons?: number;
  /** Soft water each person uses per day, L (default 150). */
  litresPerPersonPerDay?: number;
  /** Share of daily use per local hour, 24 values (default {@link FAMILY_PROFILE}). */
  profile?: readonly number[];
}

/** Options of {@link SoftenerModel}. */
export interface SoftenerModelOptions {
  /** Advanced settings that differ from {@link DEFAULT_SETTINGS}. */
  settings?: Partial<SoftenerSettings>;
  /** Seed of the household's water use; the same seed gives the same draws. */
  seed?: number;
  /** Device clock at start (epoch ms or Date); default now. */
  startTime?: number | Date;
  /** Offset of the device's local time from UTC, minutes (default 0); hours of day and trigger times use it. */
  utcOffsetMinutes?: number;
  /** Simulated seconds per real second, used by {@link SoftenerModel.advanceReal} (default 1). */
  timeScale?: number;
  family?: FamilyOptions;
  /** Operating exchange capacity of the resin, g CaCO₃ per L resin (default 45). */
  exchangeCapacityGPerL?: number;
  /** Salt dissolving (station 6) in pre-fill mode (absorbSaltMode 1), min (default 60). */
  saltDissolvingMinutes?: number;
  /** In vacation mode, flush (backwash + fast rinse) every this many days at washInitiationTime (default 2). */
  vacationFlushIntervalDays?: number;
  /** Soft water left at start, L (default: a full bed). */
  remainingWaterL?: number;
  /**
   * Drift of the device clock, seconds gained per day of simulated time (negative: lost; default 0, an exact
   * clock). |drift| < 43 200. The error grows until {@link SoftenerModel.syncTime} sets the clock again.
   */
  clockDriftSecondsPerDay?: number;
}

/** A regeneration (brine) or a flushing (water only: backwash and fast rinse). */
export type CycleKind = "regeneration" | "flushing";
/** Why a cycle started. */
export type CycleReason = "capacity" | "interval" | "forced" | "forced-flushing" | "vacation-flush";

/** What {@link SoftenerModel.tick} and the commands report; `at` is the device clock, epoch ms. */
export type SoftenerEvent =
  | { type: "station"; at: number; station: Station; previous: Station }
  | { type: "regeneration-start"; at: number; cycle: CycleKind; reason: CycleReason; steps: Station[] }
  | {
      type: "regeneration-end";
      at: number;
      cycle: CycleKind;
      completed: boolean;
      /** Water the cycle sent to the drain, L (see {@link drainLpm}). */
      waterL: number;
      /** Salt the cycle drew from the brine tank, kg (saltAddition when a completed regeneration drew brine). */
      saltKg: number;
    }
  | { type: "close"; at: number; closeReason: SystemCloseReason }
  | { type: "reset"; at: number }
  | { type: "vacation"; at: number; vacation: boolean };

/** A command the valve refuses: busy (a cycle runs), closed (station 5), invalid (bad parameter). */
export class SoftenerError extends Error {
  readonly code: "busy" | "closed" | "invalid";
  constructor(code: "busy" | "closed" | "invalid", message?: string) {
    super(message ?? code);
    this.code = code;
  }
}

/** Everything the valve reports. Units: L, L/min, s, kg. */
export interface SoftenerSnapshot {
  /** Device clock, epoch ms. */
  clock: number;
  station: Station;
  /** Seconds left in the current station; null in service or closed. */
  stationRemainingSeconds: number | null;
  /** Device clock (epoch ms) when the current cycle station began; null outside a cycle. */
  stationStartedAt: number | null;
  /** Total length of the current cycle station, s; null outside a cycle. */
  stationDurationSeconds: number | null;
  /** Seconds until the valve is back in service: the rest of this station plus the stations after it; null outside. */
  serviceRemainingSeconds: number | null;
  cycle: CycleKind | null;
  remainingWaterL: number;
  capacityL: number;
  flowRateLpm: number;
  totalWaterL: number;
  vacation: boolean;
  closeReason: SystemCloseReason | null;
  regenerationCount: number;
  flushCount: number;
  saltUsedKg: number;
  /** Reserve kept for the next day (average daily use of the last 7 days), L. */
  reserveL: number;
  /** How far the device clock has drifted since the last time sync (or start), ms; positive = ahead. */
  clockDriftMs: number;
  settings: SoftenerSettings;
}

interface Cycle {
  kind: CycleKind;
  steps: Station[];
  index: number;
  endsAt: number;
  /** Device clock when the current step began, epoch ms. */
  stepStartedAt: number;
  /** Water sent to the drain by the steps done so far, L. */
  drainL: number;
}

/**
 * Water a station sends to the drain, L/min, for a bed of `resinL` litres: backwash and fast rinse about 0.3 L/min per
 * litre of resin (a 25 L bed: 7.5 L/min), brine draw and slow rinse 0.05 (1.25 L/min); salt dissolving none. The
 * brine refill is counted by salt instead (≈ 2.8 L of water per kg, saturated brine holds ~360 g/L). Typical
 * regenerations then use 100–200 L, as real 25 L softeners do.
 */
export function drainLpm(station: Station, resinL: number): number {
  if (station === Station.Backwashing || station === Station.FastRinsing) return 0.3 * resinL;
  if (station === Station.BrineDrawAndSlowRinse) return 0.05 * resinL;
  return 0;
}

/** Water one brine refill takes for `saltKg` of salt, L (saturated brine, ~360 g of salt per litre). */
export const BRINE_L_PER_KG = 2.8;

interface Draw {
  flowLpm: number;
  endsAt: number;
  injected: boolean;
}

/**
 * A softener control valve as a pure state machine (no I/O, no real clock): stations 0–8 (spec §3) with
 * durations from the advanced settings, exchange capacity from resin volume and raw-water hardness, metered
 * household water use, regeneration per work pattern or after maximumRegenerationIntervalDay, salt use,
 * vacation mode with periodic flushing, system closes 257/513/769/1025, and a device clock with time sync.
 * Time advances only through {@link tick}; all times are integer milliseconds, so the same seed and the same
 * total time give the same result however the time is chunked. See docs/device-protocol.md "The valve model".
 */
export class SoftenerModel {
  /** Simulated seconds per real second. */
  readonly timeScale: number;
  private settings: SoftenerSettings;
  private nowMs: number;
  private readonly offsetMs: number;
  private readonly rng: Rng;
  private readonly hourlyDrawRate: number[];
  private readonly maxDrawRate: number;
  private readonly expectedDailyL: number;
  private readonly exchangeCapacityGPerL: number;
  private readonly saltDissolvingMinutes: number;
  private readonly vacationFlushIntervalDays: number;
  private capacity: number;
  private remaining: number;
  private total = 0;
  private regenerationCount = 0;
  private flushCount = 0;
  private saltUsedKg = 0;
  private station: Station = Station.InService;
  private cycle: Cycle | null = null;
  private closeReason: SystemCloseReason | null = null;
  private vacation = false;
  private lastFlushAt: number;
  private lastRegenerationAt: number;
  private draw: Draw | null = null;
  private nextDrawAt = 0;
  private flowSince: number | null = null;
  private dayUse = 0;
  private readonly dayHistory: number[] = [];
  private currentDay: number;
  private lastMinuteChecked = -1;
  private pending: SoftenerEvent[] = [];
  private readonly driftSecondsPerDay: number;
  private readonly factorySettings: SoftenerSettings;
  private trueMsSinceSync = 0;
  private driftMs = 0;

  /** @param options settings, seed, start clock, household and model constants; all optional. */
  constructor(options: SoftenerModelOptions = {}) {
    const checked = validateSettings(options.settings ?? {});
    if ("error" in checked) throw new SoftenerError("invalid", checked.error);
    this.settings = { ...DEFAULT_SETTINGS, ...checked.settings };
    this.factorySettings = { ...this.settings };
    this.driftSecondsPerDay = options.clockDriftSecondsPerDay ?? 0;
    if (!Number.isFinite(this.driftSecondsPerDay) || Math.abs(this.driftSecondsPerDay) >= DAY / 2000) {
      throw new SoftenerError("invalid", "clockDriftSecondsPerDay must be a number with |drift| < 43200");
    }
    this.timeScale = options.timeScale ?? 1;
    if (!(this.timeScale > 0)) throw new SoftenerError("invalid", "timeScale must be > 0");
    const start = options.startTime instanceof Date ? options.startTime.getTime() : (options.startTime ?? Date.now());
    this.nowMs = Math.round(start);
    this.offsetMs = Math.round((options.utcOffsetMinutes ?? 0) * MINUTE);
    this.rng = new Rng(options.seed ?? 1);
    const persons = options.family?.persons ?? 3;
    const perPerson = options.family?.litresPerPersonPerDay ?? 150;
    const profile = options.family?.profile ?? FAMILY_PROFILE;
    if (profile.length !== 24) throw new SoftenerError("invalid", "household profile needs 24 hourly values");
    const sum = profile.reduce((a, b) => a + b, 0) || 1;
    this.expectedDailyL = persons * perPerson;
    // Draws per hour so that draws × mean volume = the hour's share of the day's use.
    this.hourlyDrawRate = profile.map((w) => (this.expectedDailyL * (w / sum)) / MEAN_DRAW_L);
    this.maxDrawRate = Math.max(...this.hourlyDrawRate);
    this.exchangeCapacityGPerL = options.exchangeCapacityGPerL ?? DEFAULT_EXCHANGE_CAPACITY_G_PER_L;
    this.saltDissolvingMinutes = options.saltDissolvingMinutes ?? 60;
    this.vacationFlushIntervalDays = options.vacationFlushIntervalDays ?? 2;
    this.capacity = this.computeCapacity();
    this.remaining = Math.min(this.capacity, Math.max(0, options.remainingWaterL ?? this.capacity));
    this.lastRegenerationAt = this.nowMs;
    this.lastFlushAt = this.nowMs;
    this.currentDay = this.localDay();
    this.scheduleNextDraw();
  }

  /** Device clock, epoch ms. */
  get clock(): number {
    return this.nowMs;
  }

  /** The settings the valve currently applies (a copy). */
  getSettings(): SoftenerSettings {
    return { ...this.settings };
  }

  /** Soft water a full bed delivers between regenerations, L (0 for the filter work pattern). */
  get capacityL(): number {
    return this.capacity;
  }

  /**
   * Advances the simulated time by `dtSeconds` (simulated seconds, ≥ 0) and returns what happened, in order:
   * station changes, regeneration start/end, closes, day-boundary bookkeeping.
   */
  tick(dtSeconds: number): SoftenerEvent[] {
    const trueMs = Math.max(0, Math.round(dtSeconds * 1000));
    let left = trueMs;
    if (this.driftSecondsPerDay !== 0) {
      // The device clock gains driftSecondsPerDay per 86 400 s; integer ms from the total since the last sync, so
      // the result does not depend on how the time is chunked.
      this.trueMsSinceSync += trueMs;
      const drift = Math.trunc((this.trueMsSinceSync * this.driftSecondsPerDay) / 86_400);
      left += drift - this.driftMs;
      this.driftMs = drift;
    }
    this.processDue();
    while (left > 0) {
      const step = Math.max(1, Math.min(left, this.nextBoundary() - this.nowMs));
      this.meter(step);
      this.nowMs += step;
      left -= step;
      this.processDue();
    }
    return this.drain();
  }

  /** Advances by `realSeconds` of wall time, i.e. `realSeconds × timeScale` simulated seconds. */
  advanceReal(realSeconds: number): SoftenerEvent[] {
    return this.tick(realSeconds * this.timeScale);
  }

  /**
   * Starts a regeneration now (forced regeneration, spec §4).
   * @throws SoftenerError busy when a cycle runs, closed when the valve is closed.
   */
  startRegeneration(reason: CycleReason = "forced"): SoftenerEvent[] {
    this.startCycle("regeneration", reason);
    return this.drain();
  }

  /**
   * Starts a flushing now: backwash then fast rinse, no brine (forced flushing, spec §4).
   * @throws SoftenerError busy / closed as {@link startRegeneration}.
   */
  startFlushing(reason: CycleReason = "forced-flushing"): SoftenerEvent[] {
    this.startCycle("flushing", reason);
    return this.drain();
  }

  /**
   * Forced switch (spec §4, "press 2 s to go to next step"): in a cycle, ends the current station and goes to the
   * next (after the last, back to service); in service, starts a regeneration; when closed, reopens the valve.
   */
  forceSwitch(): SoftenerEvent[] {
    if (this.closeReason !== null) this.reopen();
    else if (this.cycle) this.enterStep(this.cycle.index + 1);
    else this.startCycle("regeneration", "forced");
    return this.drain();
  }

  /** Enters (true) or exits (false) vacation mode: no water use, a flushing every few days. No-op if unchanged. */
  setVacation(on: boolean): SoftenerEvent[] {
    if (on !== this.vacation) {
      this.vacation = on;
      if (on) {
        this.lastFlushAt = this.nowMs;
        if (this.draw && !this.draw.injected) this.endDraw();
      }
      this.emit({ type: "vacation", at: this.nowMs, vacation: on });
    }
    return this.drain();
  }

  /** Sets the device clock (time synchronisation, spec §4); running station timers keep their remaining time. */
  syncTime(time: number | Date): SoftenerEvent[] {
    const target = Math.round(time instanceof Date ? time.getTime() : time);
    if (!Number.isFinite(target)) throw new SoftenerError("invalid", "invalid-time");
    const delta = target - this.nowMs;
    this.nowMs = target;
    this.trueMsSinceSync = 0;
    this.driftMs = 0;
    if (this.cycle) {
      this.cycle.endsAt += delta;
      this.cycle.stepStartedAt += delta;
    }
    if (this.draw) this.draw.endsAt += delta;
    if (this.flowSince !== null) this.flowSince += delta;
    this.currentDay = this.localDay();
    this.lastMinuteChecked = -1;
    if (!this.draw) this.scheduleNextDraw();
    return this.drain();
  }

  /**
   * Applies new advanced settings (set-config). Capacity is recomputed; water already used since the last
   * regeneration stays used.
   * @throws SoftenerError invalid with "unknown-setting:x" / "invalid-setting:x".
   */
  applySettings(partial: unknown): SoftenerEvent[] {
    const checked = validateSettings(partial);
    if ("error" in checked) throw new SoftenerError("invalid", checked.error);
    const used = this.capacity - this.remaining;
    this.settings = { ...this.settings, ...checked.settings };
    this.capacity = this.computeCapacity();
    this.remaining = Math.max(0, this.capacity - used);
    return this.drain();
  }

  /**
   * Closes the valve with a system close reason (spec §3): 257 valve button, 513 leak-point signal, 769 continuous
   * use too long, 1025 excessive instantaneous flow. A running cycle is abandoned.
   * @throws SoftenerError invalid for any other number.
   */
  injectClose(reason: number): SoftenerEvent[] {
    if (!isSystemCloseReason(reason)) throw new SoftenerError("invalid", "reason");
    this.close(reason);
    return this.drain();
  }

  /**
   * Opens a tap (or a leak) of `flowLpm` L/min for `seconds` simulated seconds, on top of the household profile;
   * an excessive flow (> flowRateOff) or one lasting longer than continuousWaterTime closes the valve.
   */
  injectDraw(flowLpm: number, seconds: number): SoftenerEvent[] {
    if (!(flowLpm > 0) || !(seconds > 0)) throw new SoftenerError("invalid", "draw");
    if (this.closeReason === null) {
      this.draw = { flowLpm, endsAt: this.nowMs + Math.round(seconds * 1000), injected: true };
      this.flowSince ??= this.nowMs;
      this.checkCloses();
    }
    return this.drain();
  }

  /**
   * Reset at the valve (restore factory settings): a running cycle is abandoned, a closed valve reopens, vacation
   * mode ends and the settings return to those the valve was built with (the constructor's). The resin keeps the
   * water already used; counters, salt used and the clock are kept. Only the valve changes: the device keeps its
   * identity and secret, so its binding in the cloud is untouched.
   */
  factoryReset(): SoftenerEvent[] {
    if (this.cycle) this.finishCycle(false);
    if (this.closeReason !== null) this.reopen();
    if (this.vacation) {
      this.vacation = false;
      this.emit({ type: "vacation", at: this.nowMs, vacation: false });
    }
    const used = this.capacity - this.remaining;
    this.settings = { ...this.factorySettings, operationDay: this.settings.operationDay };
    this.capacity = this.computeCapacity();
    this.remaining = Math.max(0, this.capacity - used);
    return this.drain();
  }

  /**
   * Whether a regeneration by capacity would start at the next trigger time with the bed as it is now:
   * delayed (0, 3) when the bed is spent (remainingWaterL = 0); intelligent (2, 5) when remainingWaterL is below
   * the reserve (the average daily use); immediate (1, 4) and filter (6) never wait for the trigger time.
   */
  capacityDueAtTriggerTime(): boolean {
    const p = this.settings.workPattern;
    if (p === WorkPattern.DownflowDelayed || p === WorkPattern.UpflowDelayed) return this.remaining <= 0;
    if (p === WorkPattern.DownflowIntelligent || p === WorkPattern.UpflowIntelligent) {
      return this.remaining < this.reserveL();
    }
    return false;
  }

  /** Everything the valve reports now. */
  snapshot(): SoftenerSnapshot {
    return {
      clock: this.nowMs,
      station: this.station,
      stationRemainingSeconds: this.cycle ? Math.max(0, (this.cycle.endsAt - this.nowMs) / 1000) : null,
      stationStartedAt: this.cycle ? this.cycle.stepStartedAt : null,
      stationDurationSeconds: this.cycle ? Math.max(0, (this.cycle.endsAt - this.cycle.stepStartedAt) / 1000) : null,
      serviceRemainingSeconds: this.cycle ? this.serviceRemainingSeconds(this.cycle) : null,
      cycle: this.cycle?.kind ?? null,
      remainingWaterL: this.remaining,
      capacityL: this.capacity,
      flowRateLpm: this.currentFlow(),
      totalWaterL: this.total,
      vacation: this.vacation,
      closeReason: this.closeReason,
      regenerationCount: this.regenerationCount,
      flushCount: this.flushCount,
      saltUsedKg: this.saltUsedKg,
      reserveL: this.reserveL(),
      clockDriftMs: this.driftMs,
      settings: { ...this.settings },
    };
  }

  /**
   * Stations a regeneration runs now, in order. Downflow: backwash 1 → brine draw & slow rinse 2 → brine refill 3 →
   * fast rinse 4. Upflow: brine draw & slow rinse 2 → backwash 1 → fast rinse 4 → brine refill 3. Pre-fill
   * (absorbSaltMode 1): refill 3 and salt dissolving 6 come first. Filter type (6): backwash 1 → fast rinse 4.
   * Backwash is kept only every backWashIntervalNumber-th regeneration. Stations 7 (second salt dissolving) and 8
   * (waiting to exit) belong to no sequence of this valve and are never entered (see docs/device-sim.md).
   */
  regenerationSteps(): Station[] {
    const s = this.settings;
    if (s.workPattern === WorkPattern.FilterType) return [Station.Backwashing, Station.FastRinsing];
    const upflow = s.workPattern >= WorkPattern.UpflowDelayed;
    let steps: Station[] = upflow
      ? [Station.BrineDrawAndSlowRinse, Station.Backwashing, Station.FastRinsing, Station.BrineRefilling]
      : [Station.Backwashing, Station.BrineDrawAndSlowRinse, Station.BrineRefilling, Station.FastRinsing];
    if ((this.regenerationCount + 1) % Math.max(1, s.backWashIntervalNumber) !== 0) {
      steps = steps.filter((st) => st !== Station.Backwashing);
    }
    if (s.absorbSaltMode === 1) {
      steps = [Station.BrineRefilling, Station.SaltDissolving6, ...steps.filter((st) => st !== Station.BrineRefilling)];
    }
    return steps;
  }

  /** Duration of one station from the settings, simulated seconds (0 = the valve skips it). */
  stationDurationSeconds(station: Station): number {
    const s = this.settings;
    const minutes =
      station === Station.Backwashing
        ? s.backWashTime
        : station === Station.BrineDrawAndSlowRinse
          ? s.absorbSaltSlowWashTime
          : station === Station.BrineRefilling
            ? s.saltTankRefillTime
            : station === Station.FastRinsing
              ? s.washTime
              : station === Station.SaltDissolving6 || station === Station.SaltDissolving7
                ? this.saltDissolvingMinutes
                : 0;
    return minutes * 60;
  }

  // ---------- internals ----------

  private computeCapacity(): number {
    if (this.settings.workPattern === WorkPattern.FilterType) return 0;
    return exchangeCapacityL(this.settings, this.exchangeCapacityGPerL);
  }

  private emit(e: SoftenerEvent): void {
    this.pending.push(e);
  }

  private drain(): SoftenerEvent[] {
    const out = this.pending;
    this.pending = [];
    return out;
  }

  private localMs(at = this.nowMs): number {
    return at + this.offsetMs;
  }

  private localDay(): number {
    return Math.floor(this.localMs() / DAY);
  }

  private localMinuteOfDay(at = this.nowMs): number {
    return Math.floor((((this.localMs(at) % DAY) + DAY) % DAY) / MINUTE);
  }

  private localHour(at: number): number {
    return Math.floor(this.localMinuteOfDay(at) / 60);
  }

  private currentFlow(): number {
    return this.closeReason === null && this.draw ? this.draw.flowLpm : 0;
  }

  private reserveL(): number {
    if (this.dayHistory.length === 0) return this.expectedDailyL;
    return this.dayHistory.reduce((a, b) => a + b, 0) / this.dayHistory.length;
  }

  private nextBoundary(): number {
    let next = (Math.floor(this.nowMs / MINUTE) + 1) * MINUTE;
    next = Math.min(next, this.draw ? this.draw.endsAt : this.nextDrawAt);
    if (this.cycle) next = Math.min(next, this.cycle.endsAt);
    return next;
  }

  /** Meters `ms` of flow; in service the resin is spent, during a cycle the household gets bypassed raw water. */
  private meter(ms: number): void {
    const litres = (this.currentFlow() * ms) / MINUTE;
    if (litres <= 0) return;
    this.total += litres;
    this.dayUse += litres;
    if (!this.cycle && this.station === Station.InService) this.remaining = Math.max(0, this.remaining - litres);
  }

  /** Inhomogeneous Poisson arrivals by thinning: candidates at the peak rate, kept with rate(hour) / peak. */
  private scheduleNextDraw(): void {
    if (this.maxDrawRate <= 0) {
      this.nextDrawAt = Number.MAX_SAFE_INTEGER;
      return;
    }
    const meanGapMs = 3_600_000 / this.maxDrawRate;
    let t = this.nowMs;
    for (let i = 0; i < 10_000; i++) {
      t += Math.max(1, Math.round(this.rng.exponential(meanGapMs)));
      if (this.rng.next() < this.hourlyDrawRate[this.localHour(t)] / this.maxDrawRate) break;
    }
    this.nextDrawAt = t;
  }

  private endDraw(): void {
    this.draw = null;
    this.flowSince = null;
    this.scheduleNextDraw();
  }

  private startFamilyDraw(): void {
    const flowLpm = this.rng.between(4, 12);
    const litres = this.rng.between(3, 2 * MEAN_DRAW_L - 3);
    const ms = Math.max(1000, Math.round((litres / flowLpm) * MINUTE));
    if (this.closeReason !== null || this.vacation) {
      this.scheduleNextDraw();
      return;
    }
    this.draw = { flowLpm, endsAt: this.nowMs + ms, injected: false };
    this.flowSince ??= this.nowMs;
  }

  private processDue(): void {
    if (this.draw && this.nowMs >= this.draw.endsAt) this.endDraw();
    if (!this.draw && this.nowMs >= this.nextDrawAt) this.startFamilyDraw();
    if (this.cycle && this.nowMs >= this.cycle.endsAt) this.enterStep(this.cycle.index + 1);
    this.checkCloses();
    const day = this.localDay();
    if (day !== this.currentDay) {
      this.currentDay = day;
      this.dayHistory.push(this.dayUse);
      if (this.dayHistory.length > 7) this.dayHistory.shift();
      this.dayUse = 0;
      this.settings.operationDay += 1;
    }
    const minute = Math.floor(this.nowMs / MINUTE);
    if (this.nowMs % MINUTE === 0 && minute !== this.lastMinuteChecked) {
      this.lastMinuteChecked = minute;
      this.checkSchedule();
    }
    if (!this.cycle && this.closeReason === null && !this.vacation && this.remaining <= 0) {
      const p = this.settings.workPattern;
      const immediate = [
        WorkPattern.DownflowImmediate,
        WorkPattern.UpflowImmediate,
        WorkPattern.DownflowIntelligent,
        WorkPattern.UpflowIntelligent,
      ] as number[];
      if (immediate.includes(p)) this.startCycle("regeneration", "capacity");
    }
  }

  private checkCloses(): void {
    if (this.closeReason !== null) return;
    const s = this.settings;
    const flow = this.currentFlow();
    if (s.flowRateOff > 0 && flow > s.flowRateOff) {
      this.close(SystemCloseReason.ExcessiveInstantaneousFlow);
      return;
    }
    if (s.continuousWaterTime > 0 && this.flowSince !== null && flow > 0) {
      if (this.nowMs - this.flowSince >= s.continuousWaterTime * MINUTE) {
        this.close(SystemCloseReason.ContinuousUseTooLong);
      }
    }
  }

  /** Once per simulated minute: time-of-day triggers (delayed regeneration, interval, vacation flushing). */
  private checkSchedule(): void {
    if (this.cycle || this.closeReason !== null) return;
    const s = this.settings;
    const minuteOfDay = this.localMinuteOfDay();
    if (this.vacation) {
      if (minuteOfDay === parseHhmm(s.washInitiationTime)) {
        const days = (this.nowMs - this.lastFlushAt) / DAY;
        if (days >= this.vacationFlushIntervalDays - 1 / 1440) this.startCycle("flushing", "vacation-flush");
      }
      return;
    }
    if (minuteOfDay !== parseHhmm(s.regeneratingTriggerTime)) return;
    const daysSince = (this.nowMs - this.lastRegenerationAt) / DAY;
    const intervalDue =
      s.maximumRegenerationIntervalDay > 0 && daysSince >= s.maximumRegenerationIntervalDay - 1 / 1440;
    if (s.workPattern === WorkPattern.FilterType) {
      // A filter has no capacity: it backwashes and rinses every backWashIntervalNumber days.
      const filterDue = daysSince >= Math.max(1, s.backWashIntervalNumber) - 1 / 1440;
      if (filterDue || intervalDue) this.startCycle("regeneration", "interval");
      return;
    }
    if (this.capacityDueAtTriggerTime()) {
      this.startCycle("regeneration", "capacity");
    } else if (intervalDue) {
      this.startCycle("regeneration", "interval");
    }
  }

  private setStation(next: Station): void {
    if (next === this.station) return;
    const previous = this.station;
    this.station = next;
    this.emit({ type: "station", at: this.nowMs, station: next, previous });
  }

  private startCycle(kind: CycleKind, reason: CycleReason): void {
    if (this.closeReason !== null) throw new SoftenerError("closed");
    if (this.cycle) throw new SoftenerError("busy");
    const steps = kind === "regeneration" ? this.regenerationSteps() : [Station.Backwashing, Station.FastRinsing];
    this.cycle = { kind, steps, index: -1, endsAt: this.nowMs, stepStartedAt: this.nowMs, drainL: 0 };
    if (kind === "regeneration") this.lastRegenerationAt = this.nowMs;
    else this.lastFlushAt = this.nowMs;
    this.emit({ type: "regeneration-start", at: this.nowMs, cycle: kind, reason, steps: [...steps] });
    this.enterStep(0);
  }

  /** Seconds until `cycle` is back in service: what is left of its step plus the durations of the steps after it. */
  private serviceRemainingSeconds(cycle: Cycle): number {
    let seconds = Math.max(0, (cycle.endsAt - this.nowMs) / 1000);
    for (let i = cycle.index + 1; i < cycle.steps.length; i++) {
      seconds += Math.max(0, this.stationDurationSeconds(cycle.steps[i]));
    }
    return seconds;
  }

  /** Adds the drain water of the step being left (its real time in the step × {@link drainLpm}) to the cycle. */
  private leaveStep(cycle: Cycle): void {
    if (cycle.index < 0) return;
    const minutes = Math.max(0, this.nowMs - cycle.stepStartedAt) / MINUTE;
    cycle.drainL += minutes * drainLpm(cycle.steps[cycle.index], this.settings.resinVolume);
    cycle.stepStartedAt = this.nowMs; // counted once, also when finishCycle follows
  }

  private enterStep(index: number): void {
    const cycle = this.cycle;
    if (!cycle) return;
    this.leaveStep(cycle);
    let i = index;
    while (i < cycle.steps.length && this.stationDurationSeconds(cycle.steps[i]) <= 0) i++;
    if (i >= cycle.steps.length) {
      this.finishCycle(true);
      return;
    }
    cycle.index = i;
    cycle.stepStartedAt = this.nowMs;
    cycle.endsAt = this.nowMs + Math.round(this.stationDurationSeconds(cycle.steps[i]) * 1000);
    this.setStation(cycle.steps[i]);
  }

  private finishCycle(completed: boolean): void {
    const cycle = this.cycle;
    if (!cycle) return;
    this.leaveStep(cycle);
    this.cycle = null;
    let saltKg = 0;
    if (completed && cycle.kind === "regeneration") {
      this.regenerationCount += 1;
      if (this.settings.workPattern !== WorkPattern.FilterType) {
        this.remaining = this.capacity;
        this.saltUsedKg += this.settings.saltAddition;
        if (cycle.steps.includes(Station.BrineDrawAndSlowRinse)) saltKg = this.settings.saltAddition;
      }
    } else if (completed) {
      this.flushCount += 1;
    }
    const waterL = Math.round((cycle.drainL + saltKg * BRINE_L_PER_KG) * 10) / 10;
    if (this.closeReason === null) this.setStation(Station.InService);
    this.emit({ type: "regeneration-end", at: this.nowMs, cycle: cycle.kind, completed, waterL, saltKg });
  }

  private close(reason: SystemCloseReason): void {
    this.closeReason = reason;
    if (this.cycle) this.finishCycle(false);
    this.draw = null;
    this.flowSince = null;
    this.emit({ type: "close", at: this.nowMs, closeReason: reason });
    this.setStation(Station.Closed);
  }

  private reopen(): void {
    this.closeReason = null;
    this.emit({ type: "reset", at: this.nowMs });
    this.setStation(Station.InService);
    this.scheduleNextDraw();
  }
}
