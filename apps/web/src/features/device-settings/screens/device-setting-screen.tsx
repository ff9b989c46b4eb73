import { Button, SpinLoading } from "antd-mobile";
import { ExclamationCircleOutline } from "antd-mobile-icons";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../../shared/api/errors.ts";
import { useRouteParams } from "../../../shared/navigation/index.ts";
import { PageShell, StateBlock } from "../../../shared/ui/index.ts";
import { useUnitPreferences } from "../../../shared/units/api/get-unit-preferences.ts";
import { useDevice } from "../api/get-device.ts";
import { useDeviceModelSetting } from "../api/get-device-model-setting.ts";
import { DeviceClockRow } from "../components/device-clock-row.tsx";
import { SettingRow } from "../components/setting-row.tsx";
import { SettingsSaveBar } from "../components/settings-save-bar.tsx";
import type { DeviceParams } from "../params.ts";
import { SETTING_GROUPS } from "../settings-fields.ts";
import { useSettingLabels } from "../use-setting-labels.ts";
import { useSettingsForm } from "../use-settings-form.ts";
import "../device-settings.css";

/**
 * DeviceSetting (spec §2 /DeviceSetting "advanced settings", permission Device.Setting): the 26 settings of §3
 * grouped, each with its allowed range beside it (the model's bounds from get-device-model-setting) — still shown next
 * to the error when a value is outside it. Volumes, flows and hardness are shown and typed in the owner's units
 * (Setting → Units, kept per user) and sent in the device's; every duration reads in the one format of the spec §9
 * duration helper. The device's own clock is shown with the phone's beside it and a time sync (spec §4). A sticky save
 * bar at the bottom (safe-area aware) counts unsaved changes, is disabled while saving or with nothing changed, and
 * shows the outcome where the owner is: sending, applied by the device, or refused with the server's message.
 * This screen loads the device, its model and the owner's units and lays the page out; the form's state and save are
 * use-settings-form.ts, a row is components/setting-row.tsx, the clock components/device-clock-row.tsx, the bar
 * components/settings-save-bar.tsx. Test ids: `device-setting-screen`, `device-setting-loading`,
 * `device-setting-error`, `device-setting-group-<group>`.
 */
export function DeviceSettingScreen() {
  const { t } = useTranslation();
  const { deviceId } = useRouteParams<DeviceParams>();
  const device = useDevice(deviceId);
  const model = useDeviceModelSetting(deviceId);
  const units = useUnitPreferences();
  const form = useSettingsForm(deviceId, device.data, model.data, units);
  const labels = useSettingLabels(form.bounds, form.ctx);

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
          const rows = form.fields.filter((f) => f.group === group);
          if (rows.length === 0) return null;
          return (
            <section key={group} data-testid={`device-setting-group-${group}`}>
              <div className="ds-group__title">{t(`deviceSetting.groups.${group}`)}</div>
              <div className="ds-group">
                {rows.map((field) =>
                  field.name === "currentTime" && device.data ? (
                    <DeviceClockRow key={field.name} device={device.data} />
                  ) : (
                    <SettingRow key={field.name} field={field} form={form} labels={labels} />
                  ),
                )}
              </div>
            </section>
          );
        })}
      </>
    );
  };

  return (
    <PageShell
      title={t("routes.DeviceSetting")}
      testId="device-setting-screen"
      className="ds-page"
      footer={
        device.data && units.ready ? (
          <SettingsSaveBar status={form.status} dirtyCount={form.dirty.length} onSave={() => void form.save()} />
        ) : undefined
      }
    >
      {body()}
    </PageShell>
  );
}
