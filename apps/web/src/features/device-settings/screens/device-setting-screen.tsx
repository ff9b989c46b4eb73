import type { TCommandStatus } from "@aquapilot/contract";
import { useQueryClient } from "@tanstack/react-query";
import { Button, SpinLoading } from "antd-mobile";
import { CheckCircleFill, CloseCircleFill, ExclamationCircleOutline, RightOutline } from "antd-mobile-icons";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../../shared/api/errors.js";
import { queryKeys } from "../../../shared/api/query-keys.js";
import { useRouteParams } from "../../../shared/navigation/index.js";
import {
  openDateTimePicker,
  openListPicker,
  openTimePicker,
  PageShell,
  StateBlock,
  toast,
} from "../../../shared/ui/index.js";
import { useDevice } from "../api/get-device.js";
import { useDeviceModelSetting } from "../api/get-device-model-setting.js";
import { sendDeviceConfig, waitForCommand } from "../api/set-device-config.js";
import { readModelSetting } from "../model-bounds.js";
import type { DeviceParams } from "../params.js";
import {
  boundsOf,
  changedSettings,
  checkSetting,
  SETTING_GROUPS,
  type SettingField,
  type SettingName,
  settingToText,
} from "../settings-fields.js";
import "../device-settings.css";

type Status = { state: "idle" } | { state: "pending" } | { state: "done" } | { state: "failed"; offline: boolean };

/**
 * DeviceSetting (spec §2 /DeviceSetting "advanced settings", permission Device.Setting): the 26 settings of §3
 * grouped, each with its unit and the model's bounds (get-device-model-setting); durations through the Min/Second
 * time picker or the Hr/Min date/time picker, choices through the list picker. Save checks every changed value
 * (§5 number range check, "Please enter the correct configuration"), sends `set-config` with only the changes and
 * shows pending → applied (hub 1 acknowledgement or the command's stored status) or the failure.
 */
export function DeviceSettingScreen() {
  const { t, i18n } = useTranslation();
  const { deviceId } = useRouteParams<DeviceParams>();
  const device = useDevice(deviceId);
  const model = useDeviceModelSetting(deviceId);
  const client = useQueryClient();
  const { bounds, fields } = useMemo(() => readModelSetting(model.data), [model.data]);
  const current = useMemo(() => (device.data?.settings ?? {}) as Record<string, number | string>, [device.data]);
  const [edited, setEdited] = useState<Partial<Record<SettingName, string>>>({});
  const [invalid, setInvalid] = useState<SettingName[]>([]);
  const [status, setStatus] = useState<Status>({ state: "idle" });

  // Start from what the device reports; re-read after an applied change.
  useEffect(() => {
    if (!device.data) return;
    const next: Partial<Record<SettingName, string>> = {};
    for (const f of fields) next[f.name] = settingToText(f, current[f.name]);
    setEdited(next);
    setInvalid([]);
  }, [device.data, fields, current]);

  const setValue = (field: SettingField, text: string) => {
    setEdited((e) => ({ ...e, [field.name]: text }));
    setInvalid((list) =>
      list.includes(field.name) && checkSetting(field, text, bounds[field.name]).ok
        ? list.filter((n) => n !== field.name)
        : list,
    );
  };

  const unitText = (field: SettingField) => (field.unit === "none" ? "" : t(`deviceSetting.units.${field.unit}`));
  const optionLabel = (field: SettingField, value: string) => {
    const key = `deviceSetting.${field.name}.${value}`;
    return i18n.exists(key) ? t(key as "deviceSetting.workPattern.0") : t("deviceSetting.option", { value });
  };

  const pick = async (field: SettingField) => {
    const value = edited[field.name] ?? "";
    const title = t(`deviceSetting.fields.${field.name}`);
    const b = boundsOf(field, bounds[field.name]);
    if (field.kind === "enum") {
      const chosen = await openListPicker({
        title,
        searchable: false,
        value: [value],
        options: (field.options ?? []).map((o) => ({ value: String(o), label: optionLabel(field, String(o)) })),
        testId: `device-setting-picker-${field.name}`,
      });
      if (chosen?.[0]) setValue(field, chosen[0].value);
    } else if (field.kind === "minSec") {
      const chosen = await openTimePicker({ title, value });
      if (chosen) setValue(field, chosen);
    } else if (field.kind === "hrMin" || field.kind === "clock") {
      const maxHour = field.kind === "hrMin" && b.max !== undefined ? Math.min(23, Math.floor(b.max / 60)) : 23;
      const chosen = await openDateTimePicker({ type: "time", title, value: value || "00:00", maxHour });
      if (chosen) setValue(field, chosen);
    }
  };

  const save = async () => {
    if (!deviceId || status.state === "pending") return;
    const result = changedSettings(current, edited, bounds);
    if ("invalid" in result) {
      setInvalid(result.invalid);
      toast(t("deviceSetting.wrongConfig"));
      return;
    }
    if (Object.keys(result.settings).length === 0) {
      toast(t("deviceSetting.noChanges"));
      return;
    }
    setStatus({ state: "pending" });
    try {
      const first: TCommandStatus = await sendDeviceConfig(deviceId, result.settings);
      const outcome = first.status === "pending" ? await waitForCommand(first.commandId) : first;
      if (outcome.status === "done") {
        setStatus({ state: "done" });
        await client.invalidateQueries({ queryKey: queryKeys.deviceAll });
      } else {
        setStatus({ state: "failed", offline: outcome.error === "timeout" || outcome.error === "offline" });
      }
    } catch (err) {
      setStatus({ state: "idle" });
      toast(errorMessage(err, t("deviceSetting.wrongConfig")));
    }
  };

  const renderRow = (field: SettingField) => {
    const text = edited[field.name] ?? "";
    const bad = invalid.includes(field.name);
    const b = boundsOf(field, bounds[field.name]);
    const unit = unitText(field);
    const range =
      b.min !== undefined && b.max !== undefined && field.kind !== "enum" && field.kind !== "clock"
        ? t("deviceSetting.range", { min: b.min, max: b.max, unit })
        : "";
    const hint = bad ? t("deviceSetting.wrongConfig") : field.kind === "readonly" ? t("deviceSetting.readOnly") : range;
    const common = {
      className: `ds-row ${bad ? "ds-row--invalid" : ""}`,
      "data-testid": `device-setting-${field.name}`,
      "data-invalid": bad ? "true" : "false",
    };
    const label = (
      <div className="ds-row__main">
        <div className="ds-row__label">{t(`deviceSetting.fields.${field.name}`)}</div>
        {hint ? <div className="ds-row__hint">{hint}</div> : null}
      </div>
    );
    if (field.kind === "number") {
      return (
        <div key={field.name} {...common}>
          {label}
          <span className="ds-row__value">
            <input
              inputMode="decimal"
              value={text}
              placeholder={t("deviceSetting.placeholder")}
              aria-label={t(`deviceSetting.fields.${field.name}`)}
              onChange={(e) => setValue(field, e.target.value)}
              data-testid={`device-setting-input-${field.name}`}
            />
            {unit ? <span className="ds-row__unit">{unit}</span> : null}
          </span>
        </div>
      );
    }
    if (field.kind === "readonly") {
      return (
        <div key={field.name} {...common}>
          {label}
          <span className="ds-row__value" data-testid={`device-setting-value-${field.name}`}>
            {(field.name === "currentTime" ? formatDeviceTime(text) : text) || "—"}
            {unit && text ? <span className="ds-row__unit">{unit}</span> : null}
          </span>
        </div>
      );
    }
    const shown = field.kind === "enum" ? (text === "" ? "" : optionLabel(field, text)) : shortTime(field, text);
    const chip =
      field.kind === "minSec"
        ? t("deviceSetting.entry.minSec")
        : field.kind === "hrMin"
          ? t("deviceSetting.entry.hrMin")
          : null;
    return (
      <button key={field.name} type="button" {...common} onClick={() => void pick(field)}>
        {label}
        <span className="ds-row__value" data-testid={`device-setting-value-${field.name}`}>
          {shown || t("deviceSetting.select")}
          {chip ? <span className="ds-row__chip">{chip}</span> : null}
        </span>
        <RightOutline className="ds-row__arrow" />
      </button>
    );
  };

  const body = () => {
    if (device.isPending) {
      return (
        <StateBlock
          testId="device-setting-loading"
          icon={<SpinLoading color="primary" />}
          title={t("common.loading")}
        />
      );
    }
    if (device.isError) {
      return (
        <StateBlock
          testId="device-setting-error"
          icon={<ExclamationCircleOutline />}
          title={t("deviceSetting.loadFailed")}
          text={errorMessage(device.error, "")}
          action={
            <Button color="primary" fill="outline" onClick={() => void device.refetch()}>
              {t("common.retry")}
            </Button>
          }
        />
      );
    }
    return (
      <>
        {device.data?.settings ? null : <p className="ds-note">{t("deviceSetting.notReported")}</p>}
        {SETTING_GROUPS.map((group) => {
          const rows = fields.filter((f) => f.group === group);
          if (rows.length === 0) return null;
          return (
            <section key={group} data-testid={`device-setting-group-${group}`}>
              <div className="ds-group__title">{t(`deviceSetting.groups.${group}`)}</div>
              <div className="ds-group">{rows.map(renderRow)}</div>
            </section>
          );
        })}
      </>
    );
  };

  return (
    <PageShell
      title={t("routes.DeviceSetting")}
      right={<span data-testid="device-setting-save-top">{t("deviceSetting.save")}</span>}
      onRight={() => void save()}
      testId="device-setting-screen"
      className="ds-page"
      footer={
        device.data ? (
          <div className="ds-footer">
            {status.state !== "idle" ? (
              <div
                className={`ds-status ds-status--${status.state}`}
                data-testid="device-setting-status"
                data-status={status.state}
              >
                {status.state === "pending" ? <SpinLoading style={{ "--size": "0.427rem" }} /> : null}
                {status.state === "done" ? <CheckCircleFill /> : null}
                {status.state === "failed" ? <CloseCircleFill /> : null}
                {status.state === "pending"
                  ? t("deviceSetting.pending")
                  : status.state === "done"
                    ? t("deviceSetting.applied")
                    : status.offline
                      ? t("deviceSetting.offline")
                      : t("deviceSetting.failed")}
              </div>
            ) : null}
            <Button
              block
              color="primary"
              shape="rounded"
              loading={status.state === "pending"}
              onClick={() => void save()}
              data-testid="device-setting-save"
            >
              {t("deviceSetting.save")}
            </Button>
          </div>
        ) : undefined
      }
    >
      {body()}
    </PageShell>
  );
}

/** A duration's picker text shortened for the row: Min/Second "mm:ss" (hour folded back), Hr/Min "HH:mm". */
function shortTime(field: SettingField, text: string): string {
  if (field.kind !== "minSec") return text;
  const m = /^(\d{2}):(\d{2}):(\d{2})$/.exec(text);
  if (!m) return text;
  return `${String(Number(m[1]) * 60 + Number(m[2])).padStart(2, "0")}:${m[3]}`;
}

/** The device clock (ISO 8601) in the phone's locale, or the text itself when it is not a date. */
function formatDeviceTime(text: string): string {
  if (!text) return "";
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? text : date.toLocaleString();
}
