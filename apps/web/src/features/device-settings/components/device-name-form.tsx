import { ZDeviceName } from "@aquapilot/contract";
import type { TDeviceWithData } from "@aquapilot/contract/wire";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../../shared/api/errors.ts";
import { getItem, setItem } from "../../../shared/storage/index.ts";
import { TextField, toast } from "../../../shared/ui/index.ts";
import { useDevice } from "../api/get-device.ts";
import { useUpdateDeviceName } from "../api/update-device-name.ts";

/** Longest device name (characters after trimming; contract ZDeviceName). */
export const DEVICE_NAME_MAX = 32;

/** The state of a device-name form: the device, the name typed, and the save action. */
export interface DeviceNameForm {
  device: TDeviceWithData | undefined;
  loading: boolean;
  name: string;
  setName: (name: string) => void;
  saving: boolean;
  /**
   * Saves the name with `update-device-name` (1–32 characters after trimming) and keeps the stored current device in
   * step. Answers "saved", "unchanged" (same as the device's), or "refused" (invalid: a toast says so; or the call
   * failed: a toast shows the error).
   */
  save: () => Promise<"saved" | "unchanged" | "refused">;
}

/**
 * The name form of DeviceNameUpdate and DeviceNetworkNameUpdate (spec §3 "Device name edit has label Device name and
 * field Name"): prefilled with the device's name until the user types.
 */
export function useDeviceNameForm(deviceId: string | undefined): DeviceNameForm {
  const { t } = useTranslation();
  const device = useDevice(deviceId);
  const rename = useUpdateDeviceName();
  const [name, setNameState] = useState("");
  const [touched, setTouched] = useState(false);

  useEffect(() => {
    if (device.data && !touched) setNameState(device.data.name);
  }, [device.data, touched]);

  const save = async (): Promise<"saved" | "unchanged" | "refused"> => {
    if (!deviceId) return "refused";
    const parsed = ZDeviceName.safeParse(name);
    if (!parsed.success) {
      toast(t("deviceName.required"));
      return "refused";
    }
    if (parsed.data === device.data?.name) return "unchanged";
    try {
      await rename.mutateAsync({ deviceId, name: parsed.data });
    } catch (err) {
      toast(errorMessage(err, t("errors.requestFailed")));
      return "refused";
    }
    const stored = getItem("device");
    if (stored?.id === deviceId) setItem("device", { ...stored, name: parsed.data });
    return "saved";
  };

  return {
    device: device.data,
    loading: device.isPending,
    name,
    setName: (v) => {
      setTouched(true);
      setNameState(v);
    },
    saving: rename.isPending,
    save,
  };
}

/** The "Name" field of a {@link DeviceNameForm} with its character count (max {@link DEVICE_NAME_MAX}). */
export function DeviceNameField({ form, testId }: { form: DeviceNameForm; testId: string }) {
  const { t } = useTranslation();
  return (
    <>
      <TextField
        label={t("deviceName.field")}
        value={form.name}
        onChange={form.setName}
        placeholder={t("deviceName.placeholder")}
        maxLength={DEVICE_NAME_MAX}
        disabled={form.loading}
        testId={testId}
      />
      <div className="ds-form__count">
        {form.name.trim().length}/{DEVICE_NAME_MAX}
      </div>
    </>
  );
}
