import { Button } from "antd-mobile";
import { useTranslation } from "react-i18next";
import { useFamilies } from "../../../shared/api/families.ts";
import { navigateTo, PATHS, useRouteParams } from "../../../shared/navigation/index.ts";
import { DeviceImage } from "../../../shared/ui/device-image.tsx";
import { PageShell, toast } from "../../../shared/ui/index.ts";
import { DeviceNameField, useDeviceNameForm } from "../components/device-name-form.tsx";
import type { DeviceParams } from "../params.ts";
import "../device-settings.css";

/**
 * DeviceNetworkNameUpdate (spec §2 /DeviceNetworkNameUpdate): the last step of adding a device (DeviceNetwork, and
 * the Wi-Fi network setup that ends in the same binding call). Shows the new device's picture and household, asks for
 * a name (1–32 characters, prefilled with the device's current name) and saves it with `update-device-name`; "Skip"
 * keeps the name. Both open the new device, replacing this step in the history so back returns home.
 * Params `{deviceId, familyId?}`.
 */
export function DeviceNetworkNameUpdateScreen() {
  const { t } = useTranslation();
  const { deviceId, familyId } = useRouteParams<DeviceParams>();
  const form = useDeviceNameForm(deviceId);
  const families = useFamilies();

  const family = families.data?.find((f) => f.id === (familyId ?? form.device?.familyId));
  const openDevice = () =>
    navigateTo(PATHS.Device, { deviceId, familyId: familyId ?? form.device?.familyId }, { replace: true });

  const done = async () => {
    const outcome = await form.save();
    if (outcome === "saved") toast(t("deviceNetworkName.saved"));
    if (outcome !== "refused") openDevice();
  };

  return (
    <PageShell
      title={t("deviceNetworkName.title")}
      right={<span data-testid="device-network-name-skip">{t("deviceNetworkName.skip")}</span>}
      onRight={openDevice}
      testId="device-network-name-screen"
      className="ds-page"
    >
      <div className="ds-current">
        <DeviceImage image={form.device?.image} />
      </div>
      <div className="ds-form">
        <p className="ds-note" style={{ margin: "0 0 0.32rem" }} data-testid="device-network-name-intro">
          {t("deviceNetworkName.intro", { family: family?.name ?? "…" })}
        </p>
        <DeviceNameField form={form} testId="device-network-name-input" />
        <Button
          block
          color="primary"
          shape="rounded"
          loading={form.saving}
          onClick={() => void done()}
          data-testid="device-network-name-done"
        >
          {t("deviceNetworkName.done")}
        </Button>
      </div>
    </PageShell>
  );
}
