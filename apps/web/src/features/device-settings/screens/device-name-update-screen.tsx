import { ZDeviceName } from "@aquapilot/contract";
import { Button } from "antd-mobile";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../../shared/api/errors.js";
import { goBack, useRouteParams } from "../../../shared/navigation/index.js";
import { getItem, setItem } from "../../../shared/storage/index.js";
import { PageShell, TextField, toast } from "../../../shared/ui/index.js";
import { useDevice } from "../api/get-device.js";
import { useUpdateDeviceName } from "../api/update-device.js";
import type { DeviceParams } from "../params.js";
import "../device-settings.css";

/** Longest device name (characters after trimming; contract ZDeviceName). */
export const DEVICE_NAME_MAX = 32;

/**
 * DeviceNameUpdate (spec §2 /DeviceNameUpdate; §3 "Device name edit has label Device name and field Name"): one
 * field, 1–32 characters, saved with `update-device-name`, then back.
 */
export function DeviceNameUpdateScreen() {
  const { t } = useTranslation();
  const { deviceId } = useRouteParams<DeviceParams>();
  const device = useDevice(deviceId);
  const rename = useUpdateDeviceName();
  const [name, setName] = useState("");
  const [touched, setTouched] = useState(false);

  useEffect(() => {
    if (device.data && !touched) setName(device.data.name);
  }, [device.data, touched]);

  const save = async () => {
    if (!deviceId) return;
    const parsed = ZDeviceName.safeParse(name);
    if (!parsed.success) return toast(t("deviceName.required"));
    if (parsed.data === device.data?.name) return goBack();
    try {
      await rename.mutateAsync({ deviceId, name: parsed.data });
      const stored = getItem("device");
      if (stored?.id === deviceId) setItem("device", { ...stored, name: parsed.data });
      toast(t("deviceName.saved"));
      goBack();
    } catch (err) {
      toast(errorMessage(err, t("errors.requestFailed")));
    }
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
          testId="device-name-input"
        />
        <div className="ds-form__count">
          {name.trim().length}/{DEVICE_NAME_MAX}
        </div>
        <Button
          block
          color="primary"
          shape="rounded"
          loading={rename.isPending}
          onClick={() => void save()}
          data-testid="device-name-save"
        >
          {t("deviceName.save")}
        </Button>
      </div>
    </PageShell>
  );
}
