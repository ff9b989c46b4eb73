import {
  ADVANCED_SETTING_NAMES,
  DEFAULT_UNIT_PREFERENCES,
  type HardnessUnit,
  type VolumeUnit,
  WORK_PATTERNS,
} from "@aquapilot/contract/wire";
import { numberFormat } from "../../shared/format/intl.ts";
import { displayDecimals, fromLitres, fromMgL, roundTo, roundToStep } from "../../shared/units/conversions.ts";

/**
 * The 26 advanced settings of spec §3 as the DeviceSetting screen edits them: how each is entered, its unit, its
 * choices, and the §5 checks ("Number range check: strings parsed to numbers must lie inside bounds"; a wrong value
 * gives "Please enter the correct configuration"). Wire units follow docs/device-protocol.md: durations in minutes,
 * times of day "HH:mm", volumes in L, hardness in mg/L CaCO₃, salt in kg, flow in L/min. Volumes, flows and hardness
 * are shown and typed in the owner's units ({@link UnitContext}) and converted back to the device's
 * own units, rounded to the device's step and kept inside its bounds.
 */

/**
 * How a setting is entered:
 * - `number`: typed, parsed and range-checked;
 * - `enum`: one of `options` (list picker);
 * - `minSec`: a duration in minutes entered as Min/Second through the minutes-and-seconds time picker;
 * - `hrMin`: a duration in minutes entered as Hr/Min through the date/time picker's "time" type;
 * - `clock`: a time of day "HH:mm" through the date/time picker's "time" type;
 * - `readonly`: shown, never sent (the device's own clock).
 */
export type SettingKind = "number" | "enum" | "minSec" | "hrMin" | "clock" | "readonly";

/** Device unit of a setting (wire). */
export type SettingUnit = "min" | "day" | "L" | "kg" | "mgL" | "Lmin" | "times" | "none";

/**
 * What a number measures when the owner's units apply: a volume (L ↔ gal), a flow (L/min ↔ gal/min), a hardness
 * (mg/L CaCO₃ ↔ °dH, °fH, gpg), or the periodic production, a volume in L unless the device counts it in m³
 * (`periodicWaterProductionUnit` 1, then shown in m³ as the device counts it).
 */
export type SettingQuantity = "volume" | "flow" | "hardness" | "periodicVolume";

/**
 * A unit as the screen shows it (i18n `units.symbols.<key>`; `day` and `times` are plural words):
 * the device's own units and the owner's choices.
 */
export type DisplayUnitKey =
  | "min"
  | "day"
  | "times"
  | "kg"
  | "none"
  | "L"
  | "gal"
  | "m3"
  | "Lmin"
  | "galmin"
  | "mgL"
  | "dH"
  | "fH"
  | "gpg";

/** One advanced setting: wire name (spec §3), entry kind, unit, choices, and the built-in bounds. */
export interface SettingField {
  name: SettingName;
  kind: SettingKind;
  unit: SettingUnit;
  /** Wire values of an `enum`. */
  options?: readonly number[];
  /** Whether a number must be whole. */
  integer?: boolean;
  /** What the number measures, when the owner's units apply to it. */
  quantity?: SettingQuantity;
  /** Built-in resolution in wire units (docs/device-protocol.md §9), used when the model gives none. */
  step?: number;
  /** Decimals of a converted value when the resolution rule gives too many (large counters read in whole units). */
  convertedDecimals?: number;
  /** Built-in bounds (a control-valve manual's ranges, docs/device-protocol.md), used when the model gives none. */
  min?: number;
  max?: number;
  /** Screen group (i18n `deviceSetting.groups.<group>`). */
  group: SettingGroup;
}

/** Screen groups of the settings page. */
export type SettingGroup = "regeneration" | "cycle" | "water" | "protection" | "device";

/** The 26 setting names of spec §3, in the spec's order (the contract's list). */
export const SETTING_NAMES = ADVANCED_SETTING_NAMES;

/** A setting name of spec §3. */
export type SettingName = (typeof SETTING_NAMES)[number];

/** A settings record as the device reports it and set-config sends it. */
export type SettingsRecord = Partial<Record<SettingName, number | string | boolean>>;

/** Every field, in screen order (grouped). */
export const SETTING_FIELDS: readonly SettingField[] = [
  // regeneration: when the valve regenerates
  { name: "workPattern", kind: "enum", unit: "none", options: WORK_PATTERNS, group: "regeneration" },
  { name: "regeneratingTriggerTime", kind: "clock", unit: "none", group: "regeneration" },
  {
    name: "maximumRegenerationIntervalDay",
    kind: "number",
    unit: "day",
    integer: true,
    min: 0,
    max: 99,
    group: "regeneration",
  },
  {
    name: "backWashIntervalNumber",
    kind: "number",
    unit: "times",
    integer: true,
    min: 1,
    max: 99,
    group: "regeneration",
  },
  { name: "absorbSaltMode", kind: "enum", unit: "none", options: [0, 1], group: "regeneration" },
  { name: "saltAddition", kind: "number", unit: "kg", min: 0, max: 500, step: 0.1, group: "regeneration" },
  {
    name: "regenerationAlarmNumber",
    kind: "number",
    unit: "times",
    integer: true,
    min: 0,
    max: 999,
    group: "regeneration",
  },
  // cycle: station durations
  { name: "backWashTime", kind: "minSec", unit: "min", min: 0, max: 99, group: "cycle" },
  { name: "absorbSaltSlowWashTime", kind: "hrMin", unit: "min", min: 0, max: 240, group: "cycle" },
  { name: "saltTankRefillTime", kind: "minSec", unit: "min", min: 0, max: 99, group: "cycle" },
  { name: "washTime", kind: "minSec", unit: "min", min: 0, max: 99, group: "cycle" },
  { name: "washingIncreaseNumber", kind: "number", unit: "times", integer: true, min: 0, max: 99, group: "cycle" },
  { name: "washInitiationTime", kind: "clock", unit: "none", group: "cycle" },
  // water: the bed and the water
  {
    name: "resinVolume",
    kind: "number",
    unit: "L",
    quantity: "volume",
    step: 0.5,
    min: 0.5,
    max: 5000,
    group: "water",
  },
  {
    name: "rawWaterHardness",
    kind: "number",
    unit: "mgL",
    quantity: "hardness",
    step: 1,
    min: 1,
    max: 5000,
    group: "water",
  },
  { name: "waterVolumeUnit", kind: "enum", unit: "none", options: [0, 1, 2], group: "water" },
  {
    name: "periodicWaterProduction",
    kind: "number",
    unit: "L",
    quantity: "periodicVolume",
    step: 1,
    convertedDecimals: 0,
    min: 0,
    max: 1e9,
    group: "water",
  },
  { name: "periodicWaterProductionUnit", kind: "enum", unit: "none", options: [0, 1], group: "water" },
  { name: "filterMaterialWorkingDay", kind: "number", unit: "day", integer: true, min: 0, max: 9999, group: "water" },
  // protection: valve closes
  {
    name: "flowRateOff",
    kind: "number",
    unit: "Lmin",
    quantity: "flow",
    step: 1,
    min: 0,
    max: 999,
    group: "protection",
  },
  { name: "continuousWaterTime", kind: "hrMin", unit: "min", min: 0, max: 999, group: "protection" },
  // device: display and relay
  { name: "currentTime", kind: "readonly", unit: "none", group: "device" },
  { name: "deviceTimeScheme", kind: "enum", unit: "none", options: [0, 1], group: "device" },
  { name: "language", kind: "enum", unit: "none", options: [0, 1, 2, 3, 4], group: "device" },
  { name: "outRelayMode", kind: "enum", unit: "none", options: [0, 1, 2, 3], group: "device" },
  { name: "operationDay", kind: "readonly", unit: "day", group: "device" },
];

/** The screen's group order. */
export const SETTING_GROUPS: readonly SettingGroup[] = ["regeneration", "cycle", "water", "protection", "device"];

/** Bounds of one setting: inclusive, wire units, with the device's resolution. */
export interface SettingBounds {
  min?: number | null;
  max?: number | null;
  step?: number | null;
}

/**
 * The bounds that apply to a field: the model's (get-device-model-setting) where it gives them, else the built-in
 * ones of {@link SETTING_FIELDS}. Wire units.
 */
export function boundsOf(
  field: SettingField,
  model?: SettingBounds | null,
): { min?: number; max?: number; step?: number } {
  return {
    min: model?.min ?? field.min,
    max: model?.max ?? field.max,
    step: model?.step ?? field.step,
  };
}

/**
 * What the screen converts with: the owner's units (chosen in Setting, kept per user), the interface language
 * (decimal mark) and the unit the device counts its periodic production in (`periodicWaterProductionUnit` as
 * reported: 0 L, 1 m³).
 */
export interface UnitContext {
  volumeUnit: VolumeUnit;
  hardnessUnit: HardnessUnit;
  /** One of the app's languages (spec §1); decides the decimal mark of shown numbers. */
  lang: string;
  /** The device's reported `periodicWaterProductionUnit` (1 = m³); anything else counts as litres. */
  periodicUnit?: number | string | null;
}

/** Litres, mg/L CaCO₃, English: the device's own units. */
export const DEVICE_UNITS: UnitContext = { ...DEFAULT_UNIT_PREFERENCES, lang: "en" };

/** How a field's number is shown: unit, display units per wire unit, and decimals of a converted value. */
export interface DisplayUnit {
  key: DisplayUnitKey;
  /** Display units per wire unit (1: shown in the device's unit, nothing converted). */
  factor: number;
  /** Decimals a converted value is rounded to (about the device's resolution); unconverted values show as they are. */
  decimals: number;
}

/**
 * The unit a field is shown and typed in for the owner: volumes in L or gal, flows in L/min or gal/min, hardness in
 * mg/L CaCO₃, °dH, °fH or gpg, the periodic production in m³ when the device counts it so, everything else in the
 * device's unit. `step` is the device's resolution (wire units; the field's built-in one when absent).
 */
export function displayUnitOf(field: SettingField, ctx: UnitContext, step?: number | null): DisplayUnit {
  const resolution = step ?? field.step ?? (field.integer ? 1 : 0.1);
  const make = (key: DisplayUnitKey, factor: number): DisplayUnit => ({
    key,
    factor,
    decimals:
      factor !== 1 && field.convertedDecimals !== undefined
        ? field.convertedDecimals
        : displayDecimals(resolution, factor),
  });
  switch (field.quantity) {
    case "volume":
      return make(ctx.volumeUnit, fromLitres(1, ctx.volumeUnit));
    case "periodicVolume":
      if (Number(ctx.periodicUnit) === 1) return make("m3", 1);
      return make(ctx.volumeUnit, fromLitres(1, ctx.volumeUnit));
    case "flow":
      return make(ctx.volumeUnit === "gal" ? "galmin" : "Lmin", fromLitres(1, ctx.volumeUnit));
    case "hardness":
      return make(ctx.hardnessUnit, fromMgL(1, ctx.hardnessUnit));
    default:
      return make(field.unit, 1);
  }
}

/** Intl locale of an app language (zh-Hans → zh-CN conventions). */
function intlLocale(lang: string): string {
  return lang === "zh-Hans" ? "zh-CN" : lang;
}

/**
 * A number as the screen shows and the owner types it: the language's decimal mark, no grouping, at most
 * `maxDecimals` decimals, trailing zeros dropped. Example: (14.03, "fr", 1) → "14".
 */
export function formatNumberText(value: number, lang: string, maxDecimals: number): string {
  return numberFormat(intlLocale(lang), { useGrouping: false, maximumFractionDigits: maxDecimals }).format(
    roundTo(value, maxDecimals),
  );
}

/** A number typed by the owner: trimmed, "," or "." as the decimal mark, no exponent. Null for anything else. */
export function parseNumberText(text: string): number | null {
  const trimmed = String(text).trim().replace(",", ".");
  if (!/^[-+]?(\d+\.?\d*|\.\d+)$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : null;
}

/**
 * A wire number in the field's display unit, as text (converted values rounded to the unit's decimals, unconverted
 * ones exactly as the device has them). Example: rawWaterHardness 250 with °dH → "14".
 */
export function wireToDisplayText(field: SettingField, value: number, ctx: UnitContext, step?: number | null): string {
  const unit = displayUnitOf(field, ctx, step);
  if (unit.factor === 1) return formatNumberText(value, ctx.lang, 6);
  return formatNumberText(value * unit.factor, ctx.lang, unit.decimals);
}

/**
 * The allowed range of a number field in its display unit (spec §5 bounds, shown beside the error in the chosen
 * unit): converted bounds rounded to the unit's decimals, so the text shown is exactly what is accepted. Null when
 * the field has no two bounds.
 */
export function displayRangeOf(
  field: SettingField,
  model: SettingBounds | null | undefined,
  ctx: UnitContext,
): { min: number; max: number; unit: DisplayUnit } | null {
  const b = boundsOf(field, model);
  if (b.min === undefined || b.max === undefined) return null;
  const unit = displayUnitOf(field, ctx, b.step);
  if (unit.factor === 1) return { min: b.min, max: b.max, unit };
  return { min: roundTo(b.min * unit.factor, unit.decimals), max: roundTo(b.max * unit.factor, unit.decimals), unit };
}

/**
 * The §5 number range check: `text` parsed as a number (trimmed; "," accepted as the decimal mark) must be finite,
 * whole when the field is, and inside the inclusive bounds. Returns the number, or null when the text fails
 * (the screen then shows "Please enter the correct configuration").
 */
export function parseInRange(text: string, bounds: { min?: number; max?: number }, integer = false): number | null {
  const value = parseNumberText(text);
  if (value === null) return null;
  if (integer && !Number.isInteger(value)) return null;
  if (bounds.min !== undefined && value < bounds.min) return null;
  if (bounds.max !== undefined && value > bounds.max) return null;
  return value;
}

const pad2 = (n: number) => String(n).padStart(2, "0");

/**
 * A duration in minutes (wire) as the Min/Second picker's text "hh:mm:ss" (60–99 minutes fold into hour 01 as §5
 * says). Seconds are rounded; minutes above 99 are capped at 99:59 (the picker's largest value). Example: 10.5 →
 * "00:10:30".
 */
export function minutesToMinSecText(minutes: number): string {
  const total = Math.max(0, Math.min(99 * 60 + 59, Math.round(minutes * 60)));
  const m = Math.floor(total / 60);
  const s = total % 60;
  const h = m >= 60 ? 1 : 0;
  return `${pad2(h)}:${pad2(m - h * 60)}:${pad2(s)}`;
}

/**
 * The Min/Second picker's answer "hh:mm:ss" or "mm:ss" back to minutes (wire), rounded to 1/60 min.
 * Returns null for text that is not a time. Example: "01:05:30" → 65.5.
 */
export function minSecTextToMinutes(text: string): number | null {
  const m = /^(?:(\d{1,2}):)?(\d{1,2}):(\d{1,2})$/.exec(text.trim());
  if (!m) return null;
  const seconds = (Number(m[1] ?? 0) * 60 + Number(m[2])) * 60 + Number(m[3]);
  return Math.round((seconds / 60) * 1000) / 1000;
}

/** A duration in minutes (wire) as Hr/Min text "HH:mm" (hours 00–23; longer durations cap at 23:59). */
export function minutesToHrMinText(minutes: number): string {
  const total = Math.max(0, Math.min(23 * 60 + 59, Math.round(minutes)));
  return `${pad2(Math.floor(total / 60))}:${pad2(total % 60)}`;
}

/** Hr/Min text "HH:mm" back to whole minutes; null for anything else. Example: "01:30" → 90. */
export function hrMinTextToMinutes(text: string): number | null {
  const m = /^(\d{1,2}):(\d{1,2})$/.exec(text.trim());
  if (!m || Number(m[2]) > 59) return null;
  return Number(m[1]) * 60 + Number(m[2]);
}

/** Whether text is a time of day "HH:mm" (00:00–23:59). */
export function isClockText(text: string): boolean {
  const m = /^(\d{2}):(\d{2})$/.exec(text.trim());
  return m !== null && Number(m[1]) <= 23 && Number(m[2]) <= 59;
}

/** Why a value was refused: not a number, not whole, outside the range, not one of the choices, not a time. */
export type SettingProblem = "format" | "integer" | "range" | "choice" | "time";

/** The outcome of {@link checkSetting}: the wire value, or the problem. */
export type SettingCheck = { ok: true; value: number | string } | { ok: false; problem: SettingProblem };

/**
 * Checks one edited value against its field and bounds (spec §5) and converts it to the wire value.
 * `text` is what the screen holds: the typed number in the owner's unit, the enum value, or the picker's text.
 * A number in a converted unit must lie inside the range as shown ({@link displayRangeOf}); it is then converted to
 * the device's unit, rounded to the device's step and kept inside the device's bounds (rounding never sends a value
 * the device refuses). Unconverted numbers are checked and sent as typed.
 */
export function checkSetting(
  field: SettingField,
  text: string,
  modelBounds?: SettingBounds | null,
  ctx: UnitContext = DEVICE_UNITS,
): SettingCheck {
  const bounds = boundsOf(field, modelBounds);
  switch (field.kind) {
    case "number": {
      const typed = parseNumberText(text);
      if (typed === null) return { ok: false, problem: "format" };
      const unit = displayUnitOf(field, ctx, bounds.step);
      if (unit.factor === 1) {
        if (field.integer && !Number.isInteger(typed)) return { ok: false, problem: "integer" };
        const value = parseInRange(String(typed), bounds, field.integer);
        return value === null ? { ok: false, problem: "range" } : { ok: true, value };
      }
      const range = displayRangeOf(field, modelBounds, ctx);
      if (range && (typed < range.min || typed > range.max)) return { ok: false, problem: "range" };
      let value = roundToStep(typed / unit.factor, bounds.step ?? (field.integer ? 1 : undefined));
      if (bounds.min !== undefined) value = Math.max(bounds.min, value);
      if (bounds.max !== undefined) value = Math.min(bounds.max, value);
      return { ok: true, value };
    }
    case "enum": {
      const value = parseInRange(text, bounds, true);
      return value !== null && (field.options ?? []).includes(value)
        ? { ok: true, value }
        : { ok: false, problem: "choice" };
    }
    case "minSec":
    case "hrMin": {
      const minutes = field.kind === "minSec" ? minSecTextToMinutes(text) : hrMinTextToMinutes(text);
      if (minutes === null) return { ok: false, problem: "time" };
      const value = parseInRange(String(minutes), bounds);
      return value === null ? { ok: false, problem: "range" } : { ok: true, value };
    }
    case "clock":
      return isClockText(text) ? { ok: true, value: text.trim() } : { ok: false, problem: "time" };
    default:
      return { ok: false, problem: "format" };
  }
}

/**
 * The screen's text for a wire value: picker text for durations, "HH:mm" for clocks, numbers in the owner's unit
 * ({@link wireToDisplayText}), the value itself otherwise; "" when the device reported nothing.
 */
export function settingToText(
  field: SettingField,
  value: number | string | boolean | undefined | null,
  ctx: UnitContext = DEVICE_UNITS,
  step?: number | null,
): string {
  if (value === undefined || value === null) return "";
  if (field.kind === "minSec" && typeof value === "number") return minutesToMinSecText(value);
  if (field.kind === "hrMin" && typeof value === "number") return minutesToHrMinText(value);
  if (field.kind === "number" && typeof value === "number") return wireToDisplayText(field, value, ctx, step);
  return String(value);
}

/** A duration field's text (Min/Second or Hr/Min picker text) in minutes; null when it is not a duration's text. */
export function durationMinutesOf(field: SettingField, text: string): number | null {
  if (field.kind === "minSec") return minSecTextToMinutes(text);
  if (field.kind === "hrMin") return hrMinTextToMinutes(text);
  return null;
}

/**
 * The editable fields whose text differs from what the device reports (what Save would send or refuse), in screen
 * order. Empty when nothing changed (Save is then disabled). `fields` are the model's ({@link SETTING_FIELDS} by
 * default).
 */
export function editedFieldNames(
  current: SettingsRecord,
  edited: Partial<Record<SettingName, string>>,
  modelBounds: Partial<Record<SettingName, SettingBounds>> = {},
  ctx: UnitContext = DEVICE_UNITS,
  fields: readonly SettingField[] = SETTING_FIELDS,
): SettingName[] {
  return fields
    .filter((field) => {
      if (field.kind === "readonly") return false;
      const text = edited[field.name];
      return (
        text !== undefined && text !== settingToText(field, current[field.name], ctx, modelBounds[field.name]?.step)
      );
    })
    .map((f) => f.name);
}

/**
 * The set-config payload: every editable field whose edited text differs from what the device reports, checked and
 * converted to the device's units. Returns `{settings}` (possibly empty) or `{invalid}` naming the fields that fail
 * the §5 check. `fields` are the model's ({@link SETTING_FIELDS} by default).
 */
export function changedSettings(
  current: SettingsRecord,
  edited: Partial<Record<SettingName, string>>,
  modelBounds: Partial<Record<SettingName, SettingBounds>> = {},
  ctx: UnitContext = DEVICE_UNITS,
  fields: readonly SettingField[] = SETTING_FIELDS,
): { settings: SettingsRecord } | { invalid: SettingName[] } {
  const settings: SettingsRecord = {};
  const invalid: SettingName[] = [];
  for (const name of editedFieldNames(current, edited, modelBounds, ctx, fields)) {
    const field = fields.find((f) => f.name === name) as SettingField;
    const checked = checkSetting(field, edited[name] ?? "", modelBounds[name], ctx);
    if (!checked.ok) invalid.push(name);
    else if (checked.value !== current[name]) settings[name] = checked.value;
  }
  return invalid.length > 0 ? { invalid } : { settings };
}
