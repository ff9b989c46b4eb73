import { openDateTimePicker, openListPicker, openTimePicker } from "../../shared/ui/index.ts";
import { boundsOf, type SettingBounds, type SettingField } from "./settings-fields.ts";

/**
 * Opens the picker of a DeviceSetting field (spec §2 /DeviceSetting, §3 setting kinds) on its current text `value`
 * and resolves with the text chosen, or null when the owner cancels: an enum field gets the list picker (its values
 * labelled by `optionLabel`, test id `device-setting-picker-<name>`), a Min/Second duration the time picker, an
 * Hr/Min duration or a clock time the hour-and-minute wheel (an Hr/Min duration's hours capped by its maximum, from
 * 00:00 when empty). Other kinds are typed, not picked: null at once.
 */
export async function pickSetting(
  field: SettingField,
  value: string,
  title: string,
  modelBounds: SettingBounds | undefined,
  optionLabel: (field: SettingField, value: string) => string,
): Promise<string | null> {
  const b = boundsOf(field, modelBounds);
  if (field.kind === "enum") {
    const chosen = await openListPicker({
      title,
      searchable: false,
      value: [value],
      options: (field.options ?? []).map((o) => ({ value: String(o), label: optionLabel(field, String(o)) })),
      testId: `device-setting-picker-${field.name}`,
    });
    return chosen?.[0] ? chosen[0].value : null;
  }
  if (field.kind === "minSec") {
    return (await openTimePicker({ title, value })) || null;
  }
  if (field.kind === "hrMin" || field.kind === "clock") {
    const maxHour = field.kind === "hrMin" && b.max !== undefined ? Math.min(23, Math.floor(b.max / 60)) : 23;
    return (await openDateTimePicker({ type: "time", title, value: value || "00:00", maxHour })) || null;
  }
  return null;
}
