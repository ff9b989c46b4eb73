import { RightOutline } from "antd-mobile-icons";
import { useTranslation } from "react-i18next";
import { formatMinutes } from "../../../shared/format/duration.ts";
import { pickSetting } from "../pick-setting.ts";
import { displayUnitOf, durationMinutesOf, type SettingField, wireToDisplayText } from "../settings-fields.ts";
import type { SettingLabels } from "../use-setting-labels.ts";
import type { SettingsForm } from "../use-settings-form.ts";

/**
 * The hint under a setting's name: the problem of a refused value, the allowed range (kept beside the error), or
 * "read only" for a field the device only reports. Nothing when there is none of them.
 */
function SettingHint({ field, form, labels }: SettingRowProps) {
  const { t } = useTranslation();
  const problem = form.invalid[field.name];
  const range = labels.rangeText(field);
  if (!problem && !range && field.kind !== "readonly") return null;
  return (
    <div className="ds-row__hint">
      {problem ? (
        <span className="ds-row__error" data-testid={`device-setting-error-${field.name}`}>
          {t(`deviceSetting.problem.${problem}`)}
        </span>
      ) : null}
      {range ? (
        <span className="ds-row__range" data-testid={`device-setting-range-${field.name}`}>
          {range}
        </span>
      ) : null}
      {!range && field.kind === "readonly" ? <span>{t("deviceSetting.readOnly")}</span> : null}
    </div>
  );
}

/** Props of {@link SettingRow}: the field, the form it belongs to and the texts beside its value. */
export interface SettingRowProps {
  field: SettingField;
  form: SettingsForm;
  labels: SettingLabels;
}

/**
 * One setting of DeviceSetting (spec §2 /DeviceSetting, §3): its name, the hint ({@link SettingHint}) and its value
 * in the owner's unit — typed for a number (checked when left), shown for a read-only field, and picked
 * (pick-setting.ts) for an enum, a duration (§9 format) or a clock time. Test ids: `device-setting-<name>`
 * (data-invalid), `device-setting-input-<name>`, `device-setting-unit-<name>`, `device-setting-value-<name>`,
 * `device-setting-error-<name>`, `device-setting-range-<name>`.
 */
export function SettingRow(props: SettingRowProps) {
  const { field, form, labels } = props;
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const { bounds, ctx } = form;
  const text = form.edited[field.name] ?? "";
  const bad = Boolean(form.invalid[field.name]);
  const common = {
    className: `ds-row ${bad ? "ds-row--invalid" : ""}`,
    "data-testid": `device-setting-${field.name}`,
    "data-invalid": bad ? "true" : "false",
  };
  const label = (
    <div className="ds-row__main">
      <div className="ds-row__label">{t(`deviceSetting.fields.${field.name}`)}</div>
      <SettingHint {...props} />
    </div>
  );
  if (field.kind === "number") {
    const unit = displayUnitOf(field, ctx, bounds[field.name]?.step);
    return (
      <div {...common}>
        {label}
        <span className="ds-row__value">
          <input
            inputMode="decimal"
            value={text}
            placeholder={t("deviceSetting.placeholder")}
            aria-label={t(`deviceSetting.fields.${field.name}`)}
            aria-invalid={bad}
            onChange={(e) => form.setValue(field, e.target.value)}
            onBlur={() => form.checkOnBlur(field)}
            data-testid={`device-setting-input-${field.name}`}
          />
          {unit.key !== "none" ? (
            <span className="ds-row__unit" data-testid={`device-setting-unit-${field.name}`}>
              {labels.unitLabel(unit.key)}
            </span>
          ) : null}
        </span>
      </div>
    );
  }
  if (field.kind === "readonly") {
    const unit = displayUnitOf(field, ctx, bounds[field.name]?.step);
    const value = form.current[field.name];
    const shown = typeof value === "number" ? wireToDisplayText(field, value, ctx, bounds[field.name]?.step) : text;
    return (
      <div {...common}>
        {label}
        <span className="ds-row__value" data-testid={`device-setting-value-${field.name}`}>
          {shown || "—"}
          {unit.key !== "none" && shown ? (
            <span className="ds-row__unit">
              {labels.unitLabel(unit.key, typeof value === "number" ? value : undefined)}
            </span>
          ) : null}
        </span>
      </div>
    );
  }
  const minutes = durationMinutesOf(field, text);
  const shown =
    field.kind === "enum"
      ? text === ""
        ? ""
        : labels.optionLabel(field, text)
      : minutes !== null
        ? formatMinutes(minutes, lang)
        : text;
  const pick = async () => {
    const title = t(`deviceSetting.fields.${field.name}`);
    const chosen = await pickSetting(field, text, title, bounds[field.name], labels.optionLabel);
    if (chosen !== null) form.setValue(field, chosen);
  };
  return (
    <button type="button" {...common} onClick={() => void pick()}>
      {label}
      <span className="ds-row__value" data-testid={`device-setting-value-${field.name}`}>
        {shown || t("deviceSetting.select")}
      </span>
      <RightOutline className="ds-row__arrow" />
    </button>
  );
}
