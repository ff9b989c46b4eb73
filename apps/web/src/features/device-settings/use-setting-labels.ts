import { useTranslation } from "react-i18next";
import { formatMinutes } from "../../shared/format/duration.ts";
import {
  boundsOf,
  type DisplayUnitKey,
  displayRangeOf,
  formatNumberText,
  type SettingBounds,
  type SettingField,
  type SettingName,
  type UnitContext,
} from "./settings-fields.ts";

/** The texts DeviceSetting writes beside its values; see {@link useSettingLabels}. */
export interface SettingLabels {
  /**
   * A unit's symbol in the interface language ("" for none); day and times agree with `count`, or without one take
   * the form of a unit column (the plural of many), which stays as the owner types.
   */
  unitLabel: (key: DisplayUnitKey, count?: number) => string;
  /** The label of one of an enum field's values: its own text where it has one, else "Option {value}". */
  optionLabel: (field: SettingField, value: string) => string;
  /** The allowed range of a field as text in the owner's unit (durations in the §9 format); "" when it has none. */
  rangeText: (field: SettingField) => string;
}

/**
 * The texts of DeviceSetting's rows (spec §2 /DeviceSetting: each setting with its allowed range beside it, in the
 * owner's units; §9 duration format): unit symbols, enum value labels and the allowed range of a field, from the
 * model's `bounds` (wire units) converted with `ctx`. Numbers use the interface language's decimal mark.
 */
export function useSettingLabels(bounds: Partial<Record<SettingName, SettingBounds>>, ctx: UnitContext): SettingLabels {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;

  const unitLabel = (key: DisplayUnitKey, count?: number) => {
    if (key === "none") return "";
    // Without a count (a unit column), the word a unit heading takes: the plural of many ("times", "раз", "дней").
    if (key === "day" || key === "times") return t(`units.symbols.${key}`, { count: count ?? 5 });
    return t(`units.symbols.${key}`);
  };
  const optionLabel = (field: SettingField, value: string) => {
    const key = `deviceSetting.${field.name}.${value}`;
    return i18n.exists(key) ? t(key as "deviceSetting.workPattern.0") : t("deviceSetting.option", { value });
  };

  const rangeText = (field: SettingField): string => {
    if (field.kind === "number") {
      const range = displayRangeOf(field, bounds[field.name], ctx);
      if (!range) return "";
      const digits = range.unit.factor === 1 ? 6 : range.unit.decimals;
      const min = formatNumberText(range.min, lang, digits);
      const max = formatNumberText(range.max, lang, digits);
      const unit = unitLabel(range.unit.key, range.max);
      // No space before a Chinese unit word (天, 次, 分钟; docs/glossary.md "Units"); a space before symbols.
      const gap = lang === "zh-Hans" && /^[\u4e00-\u9fff]/.test(unit) ? "" : " ";
      return t("deviceSetting.range", { range: `${min}–${max}${unit ? `${gap}${unit}` : ""}` });
    }
    if (field.kind === "minSec" || field.kind === "hrMin") {
      const b = boundsOf(field, bounds[field.name]);
      if (b.min === undefined || b.max === undefined) return "";
      return t("deviceSetting.range", { range: `${formatMinutes(b.min, lang)} – ${formatMinutes(b.max, lang)}` });
    }
    return "";
  };

  return { unitLabel, optionLabel, rangeText };
}
