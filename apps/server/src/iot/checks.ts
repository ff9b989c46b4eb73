import { MQTT_BOUNDS, type MqttChannel } from "@aquapilot/contract";
import type { ClockRateState } from "./clock-rate.ts";
import type { IotLogger } from "./logger.ts";
import { checkCounter, isPlausibleDeviceTime, pinnedDeviceTime, withinDeviceEra } from "./plausibility.ts";

/**
 * Why the gateway refuses a device message (docs/device-protocol.md §5.1). A refused message is counted
 * ({@link DeviceMessageChecks.rejected}), logged with the device's MAC and never stored:
 * too-large — payload over MQTT_MAX_PACKET_BYTES; not-json — not a UTF-8 JSON text; invalid — outside the contract's
 * schema (types, bounds, lengths, times); unknown-device — a MAC the cloud does not know. A counter that goes down is
 * not refused: it is a counter reset ({@link DeviceMessageChecks.counterReset}).
 */
export const GATEWAY_REJECT_REASONS = ["too-large", "not-json", "invalid", "unknown-device"] as const;
export type GatewayRejectReason = (typeof GATEWAY_REJECT_REASONS)[number];

/**
 * What the gateway corrected in messages it accepted, counts since start: messages whose device time was
 * implausible (stored with the receive time, or for a state report the pinned reading), station starts dropped as
 * inconsistent, setting keys dropped (unknown or out of range), counter resets accepted (a totaliser or regeneration
 * count lower than stored: docs/device-protocol.md §5.1), redelivered copies of a report already stored whose
 * counters are lower than the newer ones stored since (written no second time, not taken for a reset), and telemetry
 * whose `intervalWaterL` was more than its totaliser rose since the previous record (stored as that rise).
 */
export interface GatewayCorrections {
  timeReplaced: number;
  stationStartDropped: number;
  settingsDropped: number;
  counterRestarts: number;
  redeliveredIgnored: number;
  intervalBounded: number;
}

/** How far a telemetry record's interval may exceed its totaliser's rise before it is bounded, L (three roundings). */
const INTERVAL_TOLERANCE = 0.15;

/** The same warning about one device is written at most once per this many ms (the rest are counted). */
const LOG_GATE_MS = 60_000;

/** The part of a zod issue the gateway logs (path and message; never the input). */
interface ZodIssueLike {
  path: PropertyKey[];
  message: string;
}

/**
 * The gateway's checks of device messages and their memory (docs/device-protocol.md §5.1): the contract's
 * schemas, the counter rule (a counter that goes down is a counter reset) and the device-time rule of
 * plausibility.ts, applied with what they must remember (the last replacement time per device), plus the counts of
 * refusals and corrections and the gated log that reports them (the device's MAC, never the payload).
 */
export class DeviceMessageChecks {
  private readonly rejectedCounts = Object.fromEntries(GATEWAY_REJECT_REASONS.map((r) => [r, 0])) as Record<
    GatewayRejectReason,
    number
  >;
  private readonly correctedCounts: GatewayCorrections = {
    timeReplaced: 0,
    stationStartDropped: 0,
    settingsDropped: 0,
    counterRestarts: 0,
    redeliveredIgnored: 0,
    intervalBounded: 0,
  };
  private readonly logGate = new Map<string, { until: number; suppressed: number }>();
  /** Last receive time (ms) given to a record of each device whose own time was replaced: kept strictly increasing. */
  private readonly lastStamp = new Map<string, number>();

  private readonly logger: IotLogger;
  constructor(logger: IotLogger) {
    this.logger = logger;
  }

  /** Refused device messages since start, per reason; a copy. */
  get rejected(): Readonly<Record<GatewayRejectReason, number>> {
    return { ...this.rejectedCounts };
  }

  /** Corrections made to accepted device messages since start; a copy. */
  get corrected(): Readonly<GatewayCorrections> {
    return { ...this.correctedCounts };
  }

  /**
   * Counts a refused message and logs it with the device's MAC (never the payload); the same reason for the same
   * device is logged at most once a minute, with the number of refusals not logged since.
   */
  reject(mac: string, channel: MqttChannel, reason: GatewayRejectReason, detail: object = {}): void {
    this.rejectedCounts[reason]++;
    this.gatedLog(reason === "unknown-device" ? "info" : "warn", mac, reason, {
      mac,
      channel,
      reason,
      ...detail,
    });
  }

  /**
   * The message parsed by the contract's `schema`, or null after refusing it as "invalid" (the log names where and
   * what, at most three issues, never the value).
   */
  validate<T>(
    schema: {
      safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: ZodIssueLike[] } };
    },
    json: unknown,
    mac: string,
    channel: MqttChannel,
  ): T | null {
    const r = schema.safeParse(json);
    if (r.success) return r.data;
    // Where and what, never the value: the payload is the device's and may be anything.
    const issues = r.error.issues
      .slice(0, 3)
      .map((i) => `${i.path.map(String).join(".").slice(0, 80) || "(message)"}: ${i.message.slice(0, 120)}`);
    this.reject(mac, channel, "invalid", { issues });
    return null;
  }

  /**
   * Whether a report's counters went down (docs/device-protocol.md §5.1): `totalWaterL` (L) or `regenerationCount`
   * (null for telemetry, which carries none) lower than the `stored` ones beyond the wire's rounding. Such a report is
   * a counter reset, not an attack: the caller stores it and, once it knows the report is not a redelivered copy,
   * calls {@link noteCounterReset}. Pure; never throws.
   */
  counterReset(
    stored: { total_water_l?: number | null; regeneration_count?: number | null },
    totalWaterL: number,
    regenerationCount: number | null,
  ): boolean {
    if (checkCounter(stored.total_water_l, totalWaterL, MQTT_BOUNDS.waterL) === "reset") return true;
    return (
      regenerationCount !== null &&
      checkCounter(stored.regeneration_count, regenerationCount, MQTT_BOUNDS.count) === "reset"
    );
  }

  /** Counts an accepted counter reset of device `mac` and logs it (gated: at most a line per device a minute). */
  noteCounterReset(mac: string, channel: MqttChannel, detail: Record<string, unknown>): void {
    this.correctedCounts.counterRestarts++;
    this.gatedLog("info", mac, "counter-reset", { mac, channel, ...detail });
  }

  /**
   * The water a telemetry record may count (docs/device-protocol.md §5.1), L: its `intervalWaterL`, at most what the
   * totaliser rose since the device's previous stored record (`previousTotalL`; after a counter reset, the new total
   * itself: it counted from zero). So a device that restarts keeping its totaliser but not its last sent total counts
   * nothing twice. Counts and logs (gated) a bounded one. Unbounded when there is no believable previous record.
   */
  boundedInterval(mac: string, previousTotalL: number | null, totalWaterL: number, intervalWaterL: number): number {
    if (previousTotalL === null || !Number.isFinite(previousTotalL) || previousTotalL > MQTT_BOUNDS.waterL) {
      return intervalWaterL;
    }
    const rise =
      checkCounter(previousTotalL, totalWaterL, MQTT_BOUNDS.waterL) === "reset"
        ? totalWaterL
        : totalWaterL - previousTotalL;
    const bound = Math.max(0, rise);
    // The wire rounds the total and the interval to 0.1 L each: up to 0.15 L apart without any water counted twice.
    if (intervalWaterL <= bound + INTERVAL_TOLERANCE) return intervalWaterL;
    this.correctedCounts.intervalBounded++;
    this.gatedLog("info", mac, "interval", { mac, intervalWaterL, totaliserRoseL: bound });
    return Math.round(bound * 1000) / 1000;
  }

  /** Counts a redelivered report whose counters are below the newer ones stored since (nothing written for it). */
  redeliveredIgnored(): void {
    this.correctedCounts.redeliveredIgnored++;
  }

  /**
   * Where a message's device time `ts` is stored (docs/device-protocol.md §5.1): a plausible time as it is; else
   * records (telemetry, events) get the receive time and a state report the reading pinned a day from now, so the
   * clock-drift warning asks for a time sync. `foldTs` is what the clock-rate measurement sees: the raw reading when
   * it lies in 2000–2099 (the clock's pace is real even when its setting is wrong), else the pinned one.
   */
  deviceTime(
    mac: string,
    ts: string,
    now: Date,
    clock: ClockRateState,
    isState: boolean,
  ): { recordTs: string; reportTs: string; foldTs: string } {
    if (isPlausibleDeviceTime(ts, now, clock)) return { recordTs: ts, reportTs: ts, foldTs: ts };
    this.correctedCounts.timeReplaced++;
    const reportTs = pinnedDeviceTime(ts, now);
    this.gatedLog("info", mac, "time", { mac, deviceTime: ts, receivedAt: now.toISOString(), state: isState });
    // Two messages of one device arriving in the same millisecond must not share a (device, ts) key.
    const stamp = Math.max(now.getTime(), (this.lastStamp.get(mac) ?? 0) + 1);
    if (this.lastStamp.size >= 100_000) this.lastStamp.clear();
    this.lastStamp.set(mac, stamp);
    return {
      recordTs: new Date(stamp).toISOString(),
      reportTs,
      foldTs: withinDeviceEra(Date.parse(ts)) ? ts : reportTs,
    };
  }

  /** Counts a station start dropped as inconsistent with the report. */
  stationStartDropped(): void {
    this.correctedCounts.stationStartDropped++;
  }

  /** Counts and (gated) logs `dropped` setting keys a state report carried that the schema left out. */
  settingsDropped(mac: string, channel: MqttChannel, dropped: number): void {
    this.correctedCounts.settingsDropped += dropped;
    this.gatedLog("info", mac, "settings", { mac, channel, droppedSettings: dropped });
  }

  private gatedLog(level: "info" | "warn", mac: string, what: string, obj: Record<string, unknown>): void {
    const key = `${mac}|${what}`;
    const nowMs = Date.now();
    const gate = this.logGate.get(key);
    if (gate && gate.until > nowMs) {
      gate.suppressed++;
      return;
    }
    if (this.logGate.size >= 10_000) this.logGate.clear();
    this.logGate.set(key, { until: nowMs + LOG_GATE_MS, suppressed: 0 });
    const message = obj.reason ? "device message refused" : `device message corrected: ${what}`;
    this.logger[level](gate?.suppressed ? { ...obj, notLoggedSince: gate.suppressed } : obj, message);
  }
}
