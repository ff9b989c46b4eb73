import { ZDeviceName } from "@aquapilot/contract";
import { Button } from "antd-mobile";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../../shared/api/errors.js";
import { navigateTo, PATHS, useRouteParams } from "../../../shared/navigation/index.js";
import { getItem, setItem } from "../../../shared/storage/index.js";
import { PageShell, TextField, toast } from "../../../shared/ui/index.js";
import { useHouseholds } from "../api/family-devices.js";
import { useDevice } from "../api/get-device.js";
import { useUpdateDeviceName } from "../api/update-device.js";
import { DeviceImage } from "../components/device-image.js";
import type { DeviceParams } from "../params.js";
import { DEVICE_NAME_MAX } from "./device-name-update-screen.js";
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
  const device = useDevice(deviceId);
  const households = useHouseholds();
  const rename = useUpdateDeviceName();
  const [name, setName] = useState("");
  const [touched, setTouched] = useState(false);

  useEffect(() => {
    if (device.data && !touched) setName(device.data.name);
  }, [device.data, touched]);

  const family = households.data?.find((f) => f.id === (familyId ?? device.data?.familyId));
  const openDevice = () =>
    navigateTo(PATHS.Device, { deviceId, familyId: familyId ?? device.data?.familyId }, { replace: true });

  const done = async () => {
    if (!deviceId) return;
    const parsed = ZDeviceName.safeParse(name);
    if (!parsed.success) return toast(t("deviceName.required"));
    if (parsed.data !== device.data?.name) {
      try {
        await rename.mutateAsync({ deviceId, name: parsed.data });
        const stored = getItem("device");
        if (stored?.id === deviceId) setItem("device", { ...stored, name: parsed.data });
        toast(t("deviceNetworkName.saved"));
      } catch (err) {
        return toast(errorMessage(err, t("errors.requestFailed")));
      }
    }
    openDevice();
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
        <DeviceImage image={device.data?.image} />
      </div>
      <div className="ds-form">
        <p className="ds-note" style={{ margin: "0 0 0.32rem" }} data-testid="device-network-name-intro">
          {t("deviceNetworkName.intro", { family: family?.name ?? "…" })}
        </p>
        <TextField
          label={t("deviceName.field")}
          value={name}
          onChange={(v) => {
            setTouched(true);
            setName(v);
          }}
          placeholder={t("deviceName.placeholder")}
          maxLength={DEVICE_NAME_MAX}
          disabled={device.isPending}
          testId="device-network-name-input"
        />
        <div className="ds-form__count">
          {name.trim().length}/{DEVICE_NAME_MAX}
        </div>
        <Button
          block
          color="primary"
          shape="rounded"
          loading={rename.isPending}
          onClick={() => void done()}
          data-testid="device-network-name-done"
        >
          {t("deviceNetworkName.done")}
        </Button>
      </div>
    </PageShell>
  );
}
