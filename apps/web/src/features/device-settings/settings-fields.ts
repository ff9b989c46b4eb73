import { ADVANCED_SETTING_NAMES, WORK_PATTERNS } from "@aquapilot/contract";

/**
 * The 26 advanced settings of spec §3 as the DeviceSetting screen edits them: how each is entered, its unit, its
 * choices, and the §5 checks ("Number range check: strings parsed to numbers must lie inside bounds"; a wrong value
 * gives "Please enter the correct configuration"). Wire units follow docs/device-protocol.md: durations in minutes,
 * times of day "HH:mm", volumes in L, hardness in mg/L CaCO₃, salt in kg, flow in L/min.
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

/** Unit key of a setting (i18n `deviceSetting.units.<unit>`). */
export type SettingUnit = "min" | "day" | "L" | "kg" | "mgL" | "Lmin" | "times" | "none";

/** One advanced setting: wire name (spec §3), entry kind, unit, choices, and the built-in bounds. */
export interface SettingField {
  name: SettingName;
  kind: SettingKind;
  unit: SettingUnit;
  /** Wire values of an `enum`. */
  options?: readonly number[];
  /** Whether a number must be whole. */
  integer?: boolean;
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
  { name: "saltAddition", kind: "number", unit: "kg", min: 0, max: 500, group: "regeneration" },
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
  { name: "resinVolume", kind: "number", unit: "L", min: 0.5, max: 5000, group: "water" },
  { name: "rawWaterHardness", kind: "number", unit: "mgL", min: 1, max: 5000, group: "water" },
  { name: "waterVolumeUnit", kind: "enum", unit: "none", options: [0, 1, 2], group: "water" },
  { name: "periodicWaterProduction", kind: "number", unit: "L", min: 0, max: 1e9, group: "water" },
  { name: "periodicWaterProductionUnit", kind: "enum", unit: "none", options: [0, 1], group: "water" },
  { name: "filterMaterialWorkingDay", kind: "number", unit: "day", integer: true, min: 0, max: 9999, group: "water" },
  // protection: valve closes
  { name: "flowRateOff", kind: "number", unit: "Lmin", min: 0, max: 999, group: "protection" },
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

/** Bounds of one setting: inclusive, wire units. */
export interface SettingBounds {
  min?: number | null;
  max?: number | null;
}

/**
 * The bounds that apply to a field: the model's (get-device-model-setting) where it gives them, else the built-in
 * ones of {@link SETTING_FIELDS}.
 */
export function boundsOf(field: SettingField, model?: SettingBounds | null): { min?: number; max?: number } {
  return {
    min: model?.min ?? field.min,
    max: model?.max ?? field.max,
  };
}

/**
 * The §5 number range check: `text` parsed as a number (trimmed; "," accepted as the decimal mark) must be finite,
 * whole when the field is, and inside the inclusive bounds. Returns the number, or null when the text fails
 * (the screen then shows "Please enter the correct configuration").
 */
export function parseInRange(text: string, bounds: { min?: number; max?: number }, integer = false): number | null {
  const trimmed = String(text).trim().replace(",", ".");
  if (!/^[-+]?(\d+\.?\d*|\.\d+)$/.test(trimmed)) return null;
  const value = Number(trimmed);
  if (!Number.isFinite(value)) return null;
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

/**
 * Checks one edited value against its field and bounds (spec §5) and converts it to the wire value.
 * `text` is what the screen holds: the typed number, the enum value, or the picker's text.
 * Returns `{ok: true, value}` or `{ok: false}` (→ "Please enter the correct configuration").
 */
export function checkSetting(
  field: SettingField,
  text: string,
  modelBounds?: SettingBounds | null,
): { ok: true; value: number | string } | { ok: false } {
  const bounds = boundsOf(field, modelBounds);
  switch (field.kind) {
    case "number": {
      const value = parseInRange(text, bounds, field.integer);
      return value === null ? { ok: false } : { ok: true, value };
    }
    case "enum": {
      const value = parseInRange(text, bounds, true);
      return value !== null && (field.options ?? []).includes(value) ? { ok: true, value } : { ok: false };
    }
    case "minSec":
    case "hrMin": {
      const minutes = field.kind === "minSec" ? minSecTextToMinutes(text) : hrMinTextToMinutes(text);
      if (minutes === null) return { ok: false };
      const value = parseInRange(String(minutes), bounds);
      return value === null ? { ok: false } : { ok: true, value };
    }
    case "clock":
      return isClockText(text) ? { ok: true, value: text.trim() } : { ok: false };
    default:
      return { ok: false };
  }
}

/** The screen's text for a wire value: picker text for durations, "HH:mm" for clocks, the number otherwise. */
export function settingToText(field: SettingField, value: number | string | boolean | undefined | null): string {
  if (value === undefined || value === null) return "";
  if (field.kind === "minSec" && typeof value === "number") return minutesToMinSecText(value);
  if (field.kind === "hrMin" && typeof value === "number") return minutesToHrMinText(value);
  return String(value);
}

/**
 * The set-config payload: every editable field whose edited text differs from what the device reports, checked and
 * converted. Returns `{settings}` (possibly empty) or `{invalid}` naming the fields that fail the §5 check.
 */
export function changedSettings(
  current: SettingsRecord,
  edited: Partial<Record<SettingName, string>>,
  modelBounds: Partial<Record<SettingName, SettingBounds>> = {},
): { settings: SettingsRecord } | { invalid: SettingName[] } {
  const settings: SettingsRecord = {};
  const invalid: SettingName[] = [];
  for (const field of SETTING_FIELDS) {
    if (field.kind === "readonly") continue;
    const text = edited[field.name];
    if (text === undefined || text === settingToText(field, current[field.name])) continue;
    const checked = checkSetting(field, text, modelBounds[field.name]);
    if (!checked.ok) invalid.push(field.name);
    else if (checked.value !== current[field.name]) settings[field.name] = checked.value;
  }
  return invalid.length > 0 ? { invalid } : { settings };
}
