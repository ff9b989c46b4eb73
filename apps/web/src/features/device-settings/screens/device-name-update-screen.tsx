import { Button } from "antd-mobile";
import { useTranslation } from "react-i18next";
import { goBack, useRouteParams } from "../../../shared/navigation/index.ts";
import { PageShell, toast } from "../../../shared/ui/index.ts";
import { DeviceNameField, useDeviceNameForm } from "../components/device-name-form.tsx";
import type { DeviceParams } from "../params.ts";
import "../device-settings.css";

export { DEVICE_NAME_MAX } from "../components/device-name-form.tsx";

/**
 * DeviceNameUpdate (spec §2 /DeviceNameUpdate; §3 "Device name edit has label Device name and field Name"): one
 * field, 1–32 characters, saved with `update-device-name`, then back.
 */
export function DeviceNameUpdateScreen() {
  const { t } = useTranslation();
  const { deviceId } = useRouteParams<DeviceParams>();
  const form = useDeviceNameForm(deviceId);

  const save = async () => {
    const outcome = await form.save();
    if (outcome === "saved") toast(t("deviceName.saved"));
    if (outcome !== "refused") goBack();
  };

  return (
    <PageShell
      title={t("deviceName.label")}
      right={<span data-testid="device-name-save-top">{t("deviceName.save")}</span>}
      onRight={() => void save()}
      testId="device-name-screen"
      className="ds-page"
    >
      <div className="ds-form">
        <div className="ds-form__label">{t("deviceName.label")}</div>
        <DeviceNameField form={form} testId="device-name-input" />
        <Button
          block
          color="primary"
          shape="rounded"
          loading={form.saving}
          onClick={() => void save()}
          data-testid="device-name-save"
        >
          {t("deviceName.save")}
        </Button>
      </div>
    </PageShell>
  );
}
