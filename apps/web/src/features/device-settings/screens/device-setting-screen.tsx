import type { TCommandStatus, TDeviceWithData } from "@aquapilot/contract/wire";
import { useQueryClient } from "@tanstack/react-query";
import { Button, SpinLoading } from "antd-mobile";
import { CheckCircleFill, CloseCircleFill, ExclamationCircleOutline, RightOutline } from "antd-mobile-icons";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../../shared/api/errors.ts";
import { queryKeys } from "../../../shared/api/query-keys.ts";
import { useDeviceCommand, useNow } from "../../../shared/device/hooks.ts";
import { formatDuration, formatMinutes } from "../../../shared/format/duration.ts";
import { useRouteParams } from "../../../shared/navigation/index.ts";
import { formatDate } from "../../../shared/ui/date-time-rules.ts";
import {
  confirmDialog,
  openDateTimePicker,
  openListPicker,
  openTimePicker,
  PageShell,
  StateBlock,
  useSingleFlight,
} from "../../../shared/ui/index.ts";
import { useUnitPreferences } from "../../../shared/units/api/get-unit-preferences.ts";
import { useDevice } from "../api/get-device.ts";
import { useDeviceModelSetting } from "../api/get-device-model-setting.ts";
import { sendDeviceConfig } from "../api/send-device-config.ts";
import { waitForCommand } from "../api/wait-for-command.ts";
import { deviceClockNow, deviceClockOffset } from "../device-clock.ts";
import { readModelSetting } from "../model-bounds.ts";
import type { DeviceParams } from "../params.ts";
import {
  boundsOf,
  changedSettings,
  checkSetting,
  type DisplayUnitKey,
  displayRangeOf,
  displayUnitOf,
  durationMinutesOf,
  editedFieldNames,
  formatNumberText,
  parseNumberText,
  SETTING_GROUPS,
  type SettingField,
  type SettingName,
  type SettingProblem,
  type SettingsRecord,
  settingToText,
  type UnitContext,
  wireToDisplayText,
} from "../settings-fields.ts";
import "../device-settings.css";

/** What the save bar says: nothing yet, sending, the device applied it (or nothing needed sending), refused. */
type Status =
  | { state: "idle" }
  | { state: "pending" }
  | { state: "done"; nothing: boolean }
  | { state: "failed"; message: string }
  | { state: "invalid"; count: number };

/** How long values the device acknowledged are shown before its report must confirm them, ms. */
const APPLIED_HOLD_MS = 30_000;

/**
 * DeviceSetting (spec §2 /DeviceSetting "advanced settings", permission Device.Setting): the 26 settings of §3
 * grouped, each with its allowed range beside it (the model's bounds from get-device-model-setting) — still shown next
 * to the error when a value is outside it. Volumes, flows and hardness are shown and typed in the owner's units
 * (Setting → Units, kept per user) and sent in the device's; every duration reads in the one format of the spec §9
 * duration helper. The device's own clock is shown with the phone's beside it and a time sync (spec §4). A sticky save
 * bar at the bottom (safe-area aware) counts unsaved changes, is disabled while saving or with nothing changed, and
 * shows the outcome where the owner is: sending, applied by the device, or refused with the server's message.
 */
export function DeviceSettingScreen() {
  const { t, i18n } = useTranslation();
  const { deviceId } = useRouteParams<DeviceParams>();
  const device = useDevice(deviceId);
  const model = useDeviceModelSetting(deviceId);
  const units = useUnitPreferences();
  const client = useQueryClient();
  const flight = useSingleFlight();
  const { bounds, fields } = useMemo(() => readModelSetting(model.data), [model.data]);
  const reported = useMemo(() => (device.data?.settings ?? {}) as SettingsRecord, [device.data]);
  // Values the device acknowledged, shown until its next report carries them (it may arrive a moment later).
  const [applied, setApplied] = useState<SettingsRecord>({});
  const current = useMemo(() => ({ ...reported, ...applied }), [reported, applied]);
  const lang = i18n.language;
  const ctx = useMemo<UnitContext>(
    () => ({
      volumeUnit: units.volumeUnit,
      hardnessUnit: units.hardnessUnit,
      lang,
      periodicUnit: reported.periodicWaterProductionUnit as number | undefined,
    }),
    [units.volumeUnit, units.hardnessUnit, lang, reported.periodicWaterProductionUnit],
  );
  // The owner's typed or picked values, by field; a field without one shows what the device has.
  const [edits, setEdits] = useState<Partial<Record<SettingName, string>>>({});
  const [invalid, setInvalid] = useState<Partial<Record<SettingName, SettingProblem>>>({});
  const [status, setStatus] = useState<Status>({ state: "idle" });

  const initial = useMemo(() => {
    const texts: Partial<Record<SettingName, string>> = {};
    for (const f of fields) texts[f.name] = settingToText(f, current[f.name], ctx, bounds[f.name]?.step);
    return texts;
  }, [fields, current, ctx, bounds]);
  const edited = useMemo(() => ({ ...initial, ...edits }), [initial, edits]);
  const dirty = useMemo(
    () => editedFieldNames(current, edited, bounds, ctx, fields),
    [current, edited, bounds, ctx, fields],
  );

  // Once the device's report shows what it acknowledged (or after a while), read the report alone again.
  useEffect(() => {
    const names = Object.keys(applied) as SettingName[];
    if (names.length === 0) return;
    if (names.every((n) => reported[n] === applied[n])) {
      setApplied({});
      return;
    }
    const timer = setTimeout(() => setApplied({}), APPLIED_HOLD_MS);
    return () => clearTimeout(timer);
  }, [reported, applied]);

  const setValue = (field: SettingField, text: string) => {
    setEdits((e) => ({ ...e, [field.name]: text }));
    setStatus((s) => (s.state === "pending" ? s : { state: "idle" }));
    // A field marked wrong is checked again at once, so its error goes as soon as the value is right.
    setInvalid((list) => {
      if (!list[field.name]) return list;
      const checked = checkSetting(field, text, bounds[field.name], ctx);
      const { [field.name]: _, ...rest } = list;
      return checked.ok ? rest : { ...rest, [field.name]: checked.problem };
    });
  };

  /** Checks a typed number when the owner leaves the field (an empty or unchanged field is left alone). */
  const checkOnBlur = (field: SettingField) => {
    const text = edited[field.name] ?? "";
    if (text.trim() === "" || text === initial[field.name]) return;
    const checked = checkSetting(field, text, bounds[field.name], ctx);
    setInvalid((list) => {
      const { [field.name]: _, ...rest } = list;
      return checked.ok ? rest : { ...rest, [field.name]: checked.problem };
    });
  };

  const unitLabel = (key: DisplayUnitKey, count?: number) => {
    if (key === "none") return "";
    if (key === "day" || key === "times") return t(`units.symbols.${key}`, { count: count ?? 2 });
    return t(`units.symbols.${key}`);
  };
  const optionLabel = (field: SettingField, value: string) => {
    const key = `deviceSetting.${field.name}.${value}`;
    return i18n.exists(key) ? t(key as "deviceSetting.workPattern.0") : t("deviceSetting.option", { value });
  };

  /** The allowed range of a field as text in the owner's unit (durations in the §9 format); "" when it has none. */
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

  const save = () =>
    flight.run(async () => {
      if (!deviceId || status.state === "pending") return;
      const result = changedSettings(current, edited, bounds, ctx, fields);
      if ("invalid" in result) {
        const problems: Partial<Record<SettingName, SettingProblem>> = {};
        for (const name of result.invalid) {
          const field = fields.find((f) => f.name === name);
          const checked = field ? checkSetting(field, edited[name] ?? "", bounds[name], ctx) : null;
          problems[name] = checked && !checked.ok ? checked.problem : "range";
        }
        setInvalid(problems);
        setStatus({ state: "invalid", count: result.invalid.length });
        document
          .querySelector(`[data-testid="device-setting-${result.invalid[0]}"]`)
          ?.scrollIntoView({ block: "center", behavior: "smooth" });
        return;
      }
      setInvalid({});
      if (Object.keys(result.settings).length === 0) {
        setEdits({});
        setStatus({ state: "done", nothing: true });
        return;
      }
      setStatus({ state: "pending" });
      try {
        const first: TCommandStatus = await sendDeviceConfig(deviceId, result.settings);
        const outcome = first.status === "pending" ? await waitForCommand(first.commandId) : first;
        if (outcome.status === "done") {
          setApplied((a) => ({ ...a, ...result.settings }));
          setEdits({});
          setStatus({ state: "done", nothing: false });
          await client.invalidateQueries({ queryKey: queryKeys.deviceAll });
        } else {
          const offline = outcome.error === "timeout" || outcome.error === "offline";
          setStatus({
            state: "failed",
            message: offline ? t("deviceSetting.offline") : outcome.message || t("deviceSetting.failed"),
          });
        }
      } catch (err) {
        setStatus({ state: "failed", message: errorMessage(err, t("deviceSetting.failed")) });
      }
    });

  const renderHint = (field: SettingField) => {
    const problem = invalid[field.name];
    const range = rangeText(field);
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
  };

  const renderRow = (field: SettingField) => {
    if (field.name === "currentTime" && device.data) {
      return <DeviceClockRow key={field.name} device={device.data} />;
    }
    const text = edited[field.name] ?? "";
    const bad = Boolean(invalid[field.name]);
    const common = {
      className: `ds-row ${bad ? "ds-row--invalid" : ""}`,
      "data-testid": `device-setting-${field.name}`,
      "data-invalid": bad ? "true" : "false",
    };
    const label = (
      <div className="ds-row__main">
        <div className="ds-row__label">{t(`deviceSetting.fields.${field.name}`)}</div>
        {renderHint(field)}
      </div>
    );
    if (field.kind === "number") {
      const unit = displayUnitOf(field, ctx, bounds[field.name]?.step);
      const typed = parseNumberText(text);
      return (
        <div key={field.name} {...common}>
          {label}
          <span className="ds-row__value">
            <input
              inputMode="decimal"
              value={text}
              placeholder={t("deviceSetting.placeholder")}
              aria-label={t(`deviceSetting.fields.${field.name}`)}
              aria-invalid={bad}
              onChange={(e) => setValue(field, e.target.value)}
              onBlur={() => checkOnBlur(field)}
              data-testid={`device-setting-input-${field.name}`}
            />
            {unit.key !== "none" ? (
              <span className="ds-row__unit" data-testid={`device-setting-unit-${field.name}`}>
                {unitLabel(unit.key, typed ?? undefined)}
              </span>
            ) : null}
          </span>
        </div>
      );
    }
    if (field.kind === "readonly") {
      const unit = displayUnitOf(field, ctx, bounds[field.name]?.step);
      const value = current[field.name];
      const shown = typeof value === "number" ? wireToDisplayText(field, value, ctx, bounds[field.name]?.step) : text;
      return (
        <div key={field.name} {...common}>
          {label}
          <span className="ds-row__value" data-testid={`device-setting-value-${field.name}`}>
            {shown || "—"}
            {unit.key !== "none" && shown ? (
              <span className="ds-row__unit">{unitLabel(unit.key, typeof value === "number" ? value : undefined)}</span>
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
          : optionLabel(field, text)
        : minutes !== null
          ? formatMinutes(minutes, lang)
          : text;
    return (
      <button key={field.name} type="button" {...common} onClick={() => void pick(field)}>
        {label}
        <span className="ds-row__value" data-testid={`device-setting-value-${field.name}`}>
          {shown || t("deviceSetting.select")}
        </span>
        <RightOutline className="ds-row__arrow" />
      </button>
    );
  };

  const body = () => {
    if (device.isPending || !units.ready) {
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

  const pending = status.state === "pending";
  const statusText = (() => {
    switch (status.state) {
      case "pending":
        return t("deviceSetting.pending");
      case "done":
        return status.nothing ? t("deviceSetting.savedNothing") : t("deviceSetting.applied");
      case "failed":
        return t("deviceSetting.failedWith", { message: status.message });
      case "invalid":
        return `${t("deviceSetting.wrongConfig")} · ${t("deviceSetting.fixFields", { count: status.count })}`;
      default:
        return dirty.length > 0 ? t("deviceSetting.unsaved", { count: dirty.length }) : "";
    }
  })();
  const tone = status.state === "idle" ? "dirty" : status.state === "invalid" ? "failed" : status.state;

  return (
    <PageShell
      title={t("routes.DeviceSetting")}
      testId="device-setting-screen"
      className="ds-page"
      footer={
        device.data && units.ready ? (
          <div className="ds-bar" data-testid="device-setting-bar">
            <div
              className={`ds-status ds-status--${tone}`}
              data-testid="device-setting-status"
              data-status={status.state}
              role="status"
              aria-live="polite"
            >
              {pending ? <SpinLoading style={{ "--size": "0.427rem" }} /> : null}
              {status.state === "done" ? <CheckCircleFill /> : null}
              {status.state === "failed" || status.state === "invalid" ? <CloseCircleFill /> : null}
              <span className="ds-status__text">{statusText}</span>
            </div>
            <Button
              color="primary"
              shape="rounded"
              className="ds-bar__save"
              loading={pending}
              disabled={pending || dirty.length === 0}
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

/**
 * The device's own clock (spec §3 currentTime; shown only here and in the drift warning, any other time is the
 * phone's), read only: the device time now in the phone's time zone, the phone's time beside it, how far apart they
 * are (§9 duration format) and "Sync time" (spec §4: asks "Confirm synchronization time?", sets the device clock to
 * the phone's).
 */
function DeviceClockRow({ device }: { device: TDeviceWithData }) {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const now = useNow(1000);
  const [syncedAt, setSyncedAt] = useState<number | null>(null);
  const [sentAt, setSentAt] = useState<number | null>(null);
  const { state, run } = useDeviceCommand(device.id, device.online);

  // After an acknowledged sync the clock reads from the phone's time at sending until the device reports again.
  useEffect(() => {
    if (state.status !== "done" || state.kind !== "timeSync" || sentAt === null) return;
    setSyncedAt(sentAt);
    void client.invalidateQueries({ queryKey: queryKeys.deviceAll });
  }, [state, sentAt, client]);

  const deviceNow = deviceClockNow(device, now, syncedAt);
  const offset = deviceClockOffset(device, now, syncedAt);
  const sync = async () => {
    if (state.status === "pending") return;
    if (!(await confirmDialog({ content: t("deviceControl.confirmTimeSync") }))) return;
    setSentAt(Date.now());
    await run("timeSync");
  };

  const lang = i18n.language;
  const offsetText =
    offset === null
      ? null
      : Math.abs(offset) < 2000
        ? t("deviceSetting.deviceTime.inStep")
        : t(offset > 0 ? "deviceSetting.deviceTime.ahead" : "deviceSetting.deviceTime.behind", {
            duration: formatDuration(Math.abs(offset), lang),
          });
  const syncText = (() => {
    if (state.status === "idle" || state.kind !== "timeSync") return null;
    if (state.status === "pending") return t("deviceSetting.deviceTime.syncing");
    if (state.status === "done") return t("deviceSetting.deviceTime.synced");
    const f = state.failure;
    const message =
      f.reason === "offline"
        ? t("deviceSetting.deviceTime.offline")
        : f.reason === "refused"
          ? (f.error ?? t("deviceSetting.failed"))
          : f.message;
    return t("deviceSetting.deviceTime.syncFailed", { message });
  })();

  return (
    <div className="ds-row ds-clock" data-testid="device-setting-currentTime" data-invalid="false">
      <div className="ds-row__main">
        <div className="ds-row__label">{t("deviceSetting.fields.currentTime")}</div>
        {deviceNow === null ? (
          <div className="ds-row__hint">{t("deviceSetting.deviceTime.unknown")}</div>
        ) : (
          <>
            <div className="ds-clock__time" data-testid="device-setting-device-time">
              {formatDate(new Date(deviceNow), "yyyy-MM-dd HH:mm:ss")}
            </div>
            <div className="ds-row__hint" data-testid="device-setting-phone-time">
              {t("deviceSetting.deviceTime.phone")} {formatDate(new Date(now), "yyyy-MM-dd HH:mm:ss")}
            </div>
            {offsetText ? (
              <div className="ds-row__hint" data-testid="device-setting-clock-offset">
                {offsetText}
              </div>
            ) : null}
          </>
        )}
        {syncText ? (
          <div
            className={`ds-clock__status ds-clock__status--${state.status}`}
            data-testid="device-setting-sync-status"
            data-status={state.status}
            role="status"
          >
            {syncText}
          </div>
        ) : null}
        <Button
          size="small"
          color="primary"
          fill="outline"
          shape="rounded"
          className="ds-clock__sync"
          loading={state.status === "pending"}
          disabled={state.status === "pending"}
          onClick={() => void sync()}
          data-testid="device-setting-sync-time"
        >
          {t("deviceSetting.deviceTime.sync")}
        </Button>
      </div>
    </div>
  );
}
