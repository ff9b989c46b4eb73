import type { TFamily } from "@aquapilot/contract/wire";
import { Button } from "antd-mobile";
import { RightOutline, ScanningOutline } from "antd-mobile-icons";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useBindDevice } from "../../../shared/api/bind-device.ts";
import { errorMessage } from "../../../shared/api/errors.ts";
import { PATHS, replaceFlow } from "../../../shared/navigation/index.ts";
import { parsePairingCode, scanQrCode } from "../../../shared/scan/index.tsx";
import { setItem } from "../../../shared/storage/index.ts";
import { openListPicker, TextField, toast, useSingleFlight } from "../../../shared/ui/index.ts";
import { type DeviceNetworkParams, setupEntries } from "../params.ts";
import { goToStep } from "./setup-context.ts";

/** Props of {@link CodeStep}. */
export interface CodeStepProps {
  params: Partial<DeviceNetworkParams>;
  family: TFamily | null;
  families: TFamily[];
}

/**
 * "I have a pairing code" (kept as the third way of /DeviceNetwork): scan the device's pairing code (camera
 * through the bridge, or the in-page scanner) or type it ("MAC:SECRET"), choose the household (only an administrator
 * may bind), bind with `POST …/app/device`, then name the device on DeviceNetworkNameUpdate. A code scanned on the
 * home tab arrives in the params (`code`), prefilled. Test ids: `add-device-scan`, `add-device-code`,
 * `add-device-family`, `add-device-bind`.
 */
export function CodeStep({ params, family, families }: CodeStepProps) {
  const { t } = useTranslation();
  const bind = useBindDevice();
  const prefilled = typeof params.code === "string" ? params.code.trim() : "";
  const [code, setCode] = useState(prefilled);
  const [codeError, setCodeError] = useState(() => prefilled !== "" && parsePairingCode(prefilled) === null);

  const scan = async () => {
    const text = await scanQrCode({
      title: t("addDevice.scanTitle"),
      hint: t("addDevice.scanHint"),
      cameraError: t("addDevice.cameraError"),
      album: t("addDevice.album"),
      noCodeInImage: t("addDevice.noCodeInImage"),
      close: t("addDevice.close"),
    });
    if (!text) return;
    setCode(text);
    const ok = parsePairingCode(text) !== null;
    setCodeError(!ok);
    if (!ok) toast(t("addDevice.invalidCode"));
  };

  const chooseFamily = async () => {
    if (families.length === 0) return;
    const chosen = await openListPicker({
      title: t("addDevice.chooseFamily"),
      searchable: families.length > 6,
      value: family ? [family.id] : [],
      options: families.map((f) => ({ value: f.id, label: f.name })),
      testId: "add-device-family-picker",
    });
    const id = chosen?.[0]?.value;
    if (id && id !== family?.id) goToStep({ ...params, familyId: id, code }, "code", {}, { replace: true });
  };

  // One binding per tap series (a double tap binds once).
  const flight = useSingleFlight();
  const submit = () =>
    flight.run(async () => {
      const parsed = parsePairingCode(code);
      if (!parsed) {
        setCodeError(true);
        return toast(t("addDevice.invalidCode"));
      }
      if (!family) return toast(t("addDevice.noFamily"));
      if (!family.isAdmin) return toast(t("addDevice.adminOnly"));
      try {
        const device = await bind.mutateAsync({ familyId: family.id, mac: parsed.mac, secret: parsed.secret });
        toast(device.alreadyInFamily ? t("addDevice.alreadyHere") : t("addDevice.bound"));
        setItem("device", { id: device.id, name: device.name, mac: device.mac });
        // The name page takes the setup's pages' place in history: back goes to where the setup was opened.
        replaceFlow(setupEntries(params), PATHS.DeviceNetworkNameUpdate, {
          deviceId: device.id,
          familyId: device.familyId,
        });
      } catch (err) {
        toast(errorMessage(err, t("errors.requestFailed")));
      }
    });

  return (
    <div className="ns-step ns-form" data-testid="network-setup-code">
      <p className="ns-lead">{t("addDevice.intro")}</p>
      <Button
        block
        color="primary"
        fill="outline"
        shape="rounded"
        onClick={() => void scan()}
        data-testid="add-device-scan"
      >
        <ScanningOutline /> {t("addDevice.scan")}
      </Button>
      <div className="ns-or">—</div>
      <TextField
        label={t("addDevice.code")}
        value={code}
        onChange={(v) => {
          setCode(v);
          setCodeError(false);
        }}
        placeholder={t("addDevice.codePlaceholder")}
        autoCapitalize="off"
        autoCorrect="off"
        spellCheck={false}
        testId="add-device-code"
        aria-invalid={codeError}
      />
      <div className={`ns-field-hint ${codeError ? "ns-field-hint--error" : ""}`}>
        {codeError ? t("addDevice.invalidCode") : t("addDevice.codeHint")}
      </div>
      <button type="button" className="ns-family" onClick={() => void chooseFamily()} data-testid="add-device-family">
        <span className="ns-family__label">{t("addDevice.family")}</span>
        <span className="ns-family__value" data-family-id={family?.id ?? ""}>
          {family?.name ?? t("addDevice.chooseFamily")}
        </span>
        <RightOutline className="ns-family__arrow" />
      </button>
      <Button
        block
        color="primary"
        shape="rounded"
        size="large"
        loading={flight.running}
        disabled={!code.trim()}
        onClick={() => void submit()}
        data-testid="add-device-bind"
      >
        {t("addDevice.bind")}
      </Button>
    </div>
  );
}
