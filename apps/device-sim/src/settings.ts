import {
  DEFAULT_EXCHANGE_CAPACITY_G_PER_L as SHARED_DEFAULT_EXCHANGE_CAPACITY,
  exchangeCapacityL as sharedExchangeCapacityL,
} from "@aquapilot/contract";

/**
 * The advanced settings of a softener control valve (spec §3 "Device advanced settings"), with the units the
 * simulator reads them in and the defaults it starts with. Sources of the numbers: docs/device-protocol.md,
 * section "The valve model".
 */

/** Advanced settings as a valve applies them. Times are minutes unless said otherwise. */
export interface SoftenerSettings {
  /** 0 refill after brine draw (wet brine tank); 1 pre-fill: refill and dissolve salt before the cycle. */
  absorbSaltMode: number;
  /** Brine draw and slow rinse (station 2), min. */
  absorbSaltSlowWashTime: number;
  /** Backwash only every N-th regeneration (1 = every regeneration). */
  backWashIntervalNumber: number;
  /** Backwash (station 1), min. */
  backWashTime: number;
  /** Continuous water use longer than this closes the valve (close reason 769), min; 0 disables. */
  continuousWaterTime: number;
  /** Device clock as the owner last set it, ISO 8601 (informational; the clock itself is kept by the model). */
  currentTime: string;
  /** Clock display scheme: 0 = 24 h, 1 = 12 h (carried, not modelled). */
  deviceTimeScheme: number;
  /** Days a filter medium works before it is due for replacement (carried, not modelled). */
  filterMaterialWorkingDay: number;
  /** An instantaneous flow above this closes the valve (close reason 1025), L/min; 0 disables. */
  flowRateOff: number;
  /** Display language code of the valve (carried, not modelled). */
  language: number;
  /** Regenerate at the trigger time once this many days passed since the last one, days; 0 disables. */
  maximumRegenerationIntervalDay: number;
  /** Days in operation since installation (carried, reported). */
  operationDay: number;
  /** Output relay mode (carried, not modelled). */
  outRelayMode: number;
  /** Water produced per period (carried, not modelled). */
  periodicWaterProduction: number;
  /** Unit of periodicWaterProduction: 0 = L, 1 = m³ (carried). */
  periodicWaterProductionUnit: number;
  /** Raw-water hardness, mg/L as CaCO₃ (1 mmol/L Ca²⁺ = 100 mg/L CaCO₃; 1 °dH = 17.8 mg/L; 1 gpg = 17.1 mg/L). */
  rawWaterHardness: number;
  /** Local time of day a delayed regeneration starts, "HH:mm". */
  regeneratingTriggerTime: string;
  /** Regenerations before the salt-low alarm (carried, not modelled). */
  regenerationAlarmNumber: number;
  /** Resin volume, L. */
  resinVolume: number;
  /** Salt used per regeneration, kg. */
  saltAddition: number;
  /** Brine refill (station 3), min. */
  saltTankRefillTime: number;
  /** Local time of day the vacation flush starts, "HH:mm". */
  washInitiationTime: string;
  /** Fast rinse (station 4), min. */
  washTime: number;
  /** Extra fast-rinse repetitions (carried, not modelled). */
  washingIncreaseNumber: number;
  /** Unit the valve displays water in: 0 = L, 1 = m³, 2 = US gal (carried; the wire is always L). */
  waterVolumeUnit: number;
  /** Work pattern 0–6 (spec §3): downflow/upflow × delayed/immediate/intelligent, 6 filter type. */
  workPattern: number;
}

/** Factory defaults of the simulated valve (see docs/device-protocol.md, "The valve model", for the sources). */
export const DEFAULT_SETTINGS: Readonly<SoftenerSettings> = Object.freeze({
  absorbSaltMode: 0,
  absorbSaltSlowWashTime: 60,
  backWashIntervalNumber: 1,
  backWashTime: 10,
  continuousWaterTime: 60,
  currentTime: "",
  deviceTimeScheme: 0,
  filterMaterialWorkingDay: 365,
  flowRateOff: 60,
  language: 0,
  maximumRegenerationIntervalDay: 15,
  operationDay: 0,
  outRelayMode: 0,
  periodicWaterProduction: 0,
  periodicWaterProductionUnit: 0,
  rawWaterHardness: 250,
  regeneratingTriggerTime: "02:00",
  regenerationAlarmNumber: 30,
  resinVolume: 25,
  saltAddition: 3,
  saltTankRefillTime: 6,
  washInitiationTime: "02:00",
  washTime: 10,
  washingIncreaseNumber: 0,
  waterVolumeUnit: 0,
  workPattern: 0,
});

type Rule = { kind: "int" | "number"; min: number; max: number } | { kind: "hhmm" } | { kind: "text" };

/** Accepted range of each setting; a set-config outside these is refused ("Please enter the correct configuration"). */
const RULES: Record<keyof SoftenerSettings, Rule> = {
  absorbSaltMode: { kind: "int", min: 0, max: 1 },
  absorbSaltSlowWashTime: { kind: "number", min: 0, max: 240 },
  backWashIntervalNumber: { kind: "int", min: 1, max: 99 },
  backWashTime: { kind: "number", min: 0, max: 99 },
  continuousWaterTime: { kind: "number", min: 0, max: 999 },
  currentTime: { kind: "text" },
  deviceTimeScheme: { kind: "int", min: 0, max: 1 },
  filterMaterialWorkingDay: { kind: "int", min: 0, max: 9999 },
  flowRateOff: { kind: "number", min: 0, max: 999 },
  language: { kind: "int", min: 0, max: 99 },
  maximumRegenerationIntervalDay: { kind: "int", min: 0, max: 99 },
  operationDay: { kind: "int", min: 0, max: 99999 },
  outRelayMode: { kind: "int", min: 0, max: 9 },
  periodicWaterProduction: { kind: "number", min: 0, max: 1e9 },
  periodicWaterProductionUnit: { kind: "int", min: 0, max: 9 },
  rawWaterHardness: { kind: "number", min: 1, max: 5000 },
  regeneratingTriggerTime: { kind: "hhmm" },
  regenerationAlarmNumber: { kind: "int", min: 0, max: 999 },
  resinVolume: { kind: "number", min: 0.5, max: 5000 },
  saltAddition: { kind: "number", min: 0, max: 500 },
  saltTankRefillTime: { kind: "number", min: 0, max: 99 },
  washInitiationTime: { kind: "hhmm" },
  washTime: { kind: "number", min: 0, max: 99 },
  washingIncreaseNumber: { kind: "int", min: 0, max: 99 },
  waterVolumeUnit: { kind: "int", min: 0, max: 2 },
  workPattern: { kind: "int", min: 0, max: 6 },
};

/** Names of every advanced setting, in the spec's order. */
export const SETTING_NAMES = Object.keys(RULES) as Array<keyof SoftenerSettings>;

/**
 * Checks a partial settings object (e.g. the `settings` param of a set-config command).
 * @returns the accepted values, or `{error}` naming the first bad key ("unknown-setting:x" / "invalid-setting:x").
 */
export function validateSettings(input: unknown): { settings: Partial<SoftenerSettings> } | { error: string } {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return { error: "invalid-settings" };
  const out: Record<string, number | string> = {};
  for (const [key, value] of Object.entries(input)) {
    const rule = RULES[key as keyof SoftenerSettings];
    if (!rule) return { error: `unknown-setting:${key}` };
    if (rule.kind === "text") {
      if (typeof value !== "string") return { error: `invalid-setting:${key}` };
      out[key] = value;
      continue;
    }
    if (rule.kind === "hhmm") {
      if (typeof value !== "string" || parseHhmm(value) === null) return { error: `invalid-setting:${key}` };
      out[key] = value;
      continue;
    }
    const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
    if (typeof n !== "number" || !Number.isFinite(n) || n < rule.min || n > rule.max) {
      return { error: `invalid-setting:${key}` };
    }
    if (rule.kind === "int" && !Number.isInteger(n)) return { error: `invalid-setting:${key}` };
    out[key] = n;
  }
  return { settings: out as Partial<SoftenerSettings> };
}

/** Parses "HH:mm" (00:00–23:59) into minutes after midnight, or null. */
export function parseHhmm(text: string): number | null {
  const m = /^(\d{2}):(\d{2})$/.exec(text);
  if (!m) return null;
  const h = Number(m[1]);
  const min = Number(m[2]);
  return h < 24 && min < 60 ? h * 60 + min : null;
}

/**
 * Default operating exchange capacity of a strong-acid cation softening resin, g CaCO₃ per L of resin (the shared
 * figure of @aquapilot/contract, with its source).
 */
export const DEFAULT_EXCHANGE_CAPACITY_G_PER_L: number = SHARED_DEFAULT_EXCHANGE_CAPACITY;

/**
 * Soft water a full resin bed delivers between regenerations, L — the contract's one formula
 * ({@link sharedExchangeCapacityL}, docs/device-sim.md §2):
 * resinVolume (L) × exchange capacity (g CaCO₃/L resin) × 1000 ÷ rawWaterHardness (mg/L CaCO₃).
 * Example: 25 L × 45 g/L × 1000 ÷ 250 mg/L = 4 500 L. Settings validated by {@link validateSettings} always give a
 * number (resin ≥ 0.5 L, hardness ≥ 1 mg/L); anything else gives 0.
 */
export function exchangeCapacityL(
  settings: Pick<SoftenerSettings, "resinVolume" | "rawWaterHardness">,
  exchangeCapacityGPerL = DEFAULT_EXCHANGE_CAPACITY_G_PER_L,
): number {
  return sharedExchangeCapacityL(settings, exchangeCapacityGPerL) ?? 0;
}
