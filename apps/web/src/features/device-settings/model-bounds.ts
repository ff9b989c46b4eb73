import type { TDeviceModelSetting } from "@aquapilot/contract/wire";
import { SETTING_FIELDS, type SettingBounds, type SettingField, type SettingName } from "./settings-fields.ts";

/**
 * Reads get-device-model-setting (spec §7 device-lookup): the bounds and step per setting name (wire units) and the fields
 * the model has, in screen order. Without an answer (still loading, or an older server) every field of §3 shows with
 * the built-in bounds. The model's read-only fields are shown, never sent; its enum values replace the built-in ones.
 */
export function readModelSetting(model: TDeviceModelSetting | null | undefined): {
  bounds: Partial<Record<SettingName, SettingBounds>>;
  fields: readonly SettingField[];
} {
  if (!model || model.fields.length === 0) return { bounds: {}, fields: SETTING_FIELDS };
  const bounds: Partial<Record<SettingName, SettingBounds>> = {};
  const names = new Set<string>();
  for (const d of model.fields) {
    names.add(d.name);
    bounds[d.name as SettingName] = { min: d.min, max: d.max, step: d.step };
  }
  const readOnly = new Set(model.fields.filter((d) => d.readOnly).map((d) => d.name));
  const options = new Map(model.fields.filter((d) => d.options?.length).map((d) => [d.name, d.options ?? []]));
  const fields = SETTING_FIELDS.filter((f) => names.has(f.name)).map((f): SettingField => {
    // The model decides which values an enum has and which fields the device only reports.
    if (readOnly.has(f.name)) return { ...f, kind: "readonly" };
    const own = options.get(f.name);
    return f.kind === "enum" && own ? { ...f, options: own.map((o) => o.value) } : f;
  });
  return { bounds, fields };
}
