import fs from "node:fs";
import { fileURLToPath } from "node:url";
import {
  ADVANCED_SETTING_NAMES,
  type TDeviceModelSetting,
  type TDeviceSettings,
  type TSettingDescriptor,
} from "@aquapilot/contract";
import { AppError, ErrorCode } from "../../http/errors.ts";

/** The shipped table of advanced settings per model (apps/server/data/device-model-settings.json). */
export const DEVICE_MODEL_SETTINGS_FILE = fileURLToPath(
  new URL("../../../data/device-model-settings.json", import.meta.url),
);

interface SettingsFile {
  sources: string[];
  fields: Record<string, Omit<TSettingDescriptor, "name">>;
  models: Record<string, { name: string; omit: string[] }>;
}

let cached: SettingsFile | null = null;

function table(): SettingsFile {
  if (!cached) {
    const data = JSON.parse(fs.readFileSync(DEVICE_MODEL_SETTINGS_FILE, "utf8")) as SettingsFile;
    const missing = ADVANCED_SETTING_NAMES.filter((n) => !data.fields[n]);
    if (missing.length > 0) throw new Error(`${DEVICE_MODEL_SETTINGS_FILE} lacks ${missing.join(", ")}`);
    cached = data;
  }
  return cached;
}

/** Models the shipped settings table knows (AQ-S15, AQ-S25, AQ-S35). */
export function knownSettingModels(): string[] {
  return Object.keys(table().models);
}

/**
 * Which of the 26 advanced settings of spec §3 `deviceModel` has, with type, unit, picker and bounds
 * (docs/device-protocol.md "Advanced settings"). A model missing from the table (or null) gets every field.
 */
export function modelSetting(deviceModel: string | null): TDeviceModelSetting {
  const t = table();
  const omit = new Set(deviceModel ? (t.models[deviceModel]?.omit ?? []) : []);
  return {
    deviceModel: deviceModel ?? "",
    fields: ADVANCED_SETTING_NAMES.filter((n) => !omit.has(n)).map((name) => ({ name, ...t.fields[name] })),
    sources: t.sources,
  };
}

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

function accepts(field: TSettingDescriptor, value: unknown): boolean {
  if (field.type === "time") return typeof value === "string" && HHMM.test(value);
  if (field.type === "datetime") return typeof value === "string" && !Number.isNaN(Date.parse(value));
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  if (typeof n !== "number" || !Number.isFinite(n)) return false;
  if (field.type === "enum") return (field.options ?? []).some((o) => o.value === n);
  if (field.min !== null && n < field.min) return false;
  if (field.max !== null && n > field.max) return false;
  return true;
}

/**
 * Checks a partial set of advanced settings against the bounds of `deviceModel` before it is sent to the device
 * (`set-config`, spec §5 "Advanced settings: wrong configuration gives Please enter the correct configuration").
 * Numbers may arrive as numeric text; they are answered as numbers. Times of day are "HH:mm", currentTime ISO 8601.
 * @returns the accepted settings (values normalised).
 * @throws AppError Validation (device.wrongConfiguration, the §5 text in the caller's language) whose
 *   validationErrors members name every offending field: unknown names, fields the model lacks, read-only fields,
 *   values of the wrong type or out of bounds, or an empty set.
 */
export function validateDeviceSettings(deviceModel: string | null, partial: Record<string, unknown>): TDeviceSettings {
  const fields = new Map(modelSetting(deviceModel).fields.map((f) => [f.name, f]));
  const bad: string[] = [];
  const out: TDeviceSettings = {};
  for (const [name, value] of Object.entries(partial ?? {})) {
    const field = fields.get(name);
    if (!field || field.readOnly || !accepts(field, value)) {
      bad.push(name);
      continue;
    }
    out[name] = field.type === "number" || field.type === "enum" ? Number(value) : (value as string);
  }
  if (bad.length > 0 || Object.keys(out).length === 0) {
    throw new AppError(ErrorCode.Validation, "device.wrongConfiguration", {}, [
      { message: "device.wrongConfiguration", members: bad.length > 0 ? bad : ["settings"] },
    ]);
  }
  return out;
}
