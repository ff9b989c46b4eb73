import { Button } from "antd-mobile";
import { GlobalOutline, RightOutline, ScanningOutline } from "antd-mobile-icons";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../../shared/api/errors.js";
import { navigateTo, PATHS, useRouteParams } from "../../../shared/navigation/index.js";
import { scanQrCode } from "../../../shared/scan/index.js";
import { getItem, setItem } from "../../../shared/storage/index.js";
import { openListPicker, PageShell, TextField, toast } from "../../../shared/ui/index.js";
import { useBindDevice, useHouseholds } from "../api/family-devices.js";
import { parsePairingCode } from "../pairing-code.js";
import type { DeviceNetworkParams } from "../params.js";
import "../device-settings.css";

/**
 * DeviceNetwork (spec §2 /DeviceNetwork), reached by "add device" on the home tab: scan the device's pairing code
 * (camera through the bridge, or the in-page scanner) or type it ("MAC:SECRET"), choose the household (the current
 * one by default; only an administrator may bind), bind with `POST …/app/device`, then name it on
 * DeviceNetworkNameUpdate, which opens the device. The Wi-Fi
 * network-setup flows of §2/§4 come in a later issue and end in the same binding call; a note says so.
 * Params `{familyId?, code?}`: `code` is a pairing code scanned on the home tab, shown prefilled.
 */
export function DeviceNetworkScreen() {
  const { t } = useTranslation();
  const params = useRouteParams<DeviceNetworkParams>();
  const households = useHouseholds();
  const bind = useBindDevice();
  // A pairing code scanned on the home tab arrives prefilled (params {code}); it is checked like a typed one.
  const prefilled = typeof params.code === "string" ? params.code.trim() : "";
  const [code, setCode] = useState(prefilled);
  const [familyId, setFamilyId] = useState<string | null>(params.familyId ?? getItem("family")?.id ?? null);
  const [codeError, setCodeError] = useState(() => prefilled !== "" && parsePairingCode(prefilled) === null);

  const list = households.data ?? [];
  const family = list.find((f) => f.id === familyId) ?? null;
  // Fall back to the first household when the remembered one is gone.
  useEffect(() => {
    if (households.data && households.data.length > 0 && !households.data.some((f) => f.id === familyId)) {
      setFamilyId(households.data[0].id);
    }
  }, [households.data, familyId]);

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

  const chooseHousehold = async () => {
    if (list.length === 0) return;
    const chosen = await openListPicker({
      title: t("addDevice.chooseHousehold"),
      searchable: list.length > 6,
      value: familyId ? [familyId] : [],
      options: list.map((f) => ({ value: f.id, label: f.name })),
      testId: "add-device-household-picker",
    });
    if (chosen?.[0]) setFamilyId(chosen[0].value);
  };

  const submit = async () => {
    const parsed = parsePairingCode(code);
    if (!parsed) {
      setCodeError(true);
      return toast(t("addDevice.invalidCode"));
    }
    if (!family) return toast(t("addDevice.noFamily"));
    if (!family.isAdmin) return toast(t("addDevice.adminOnly"));
    try {
      const device = await bind.mutateAsync({ familyId: family.id, mac: parsed.mac, secret: parsed.secret });
      toast(t("addDevice.bound"));
      setItem("device", { id: device.id, name: device.name, mac: device.mac });
      navigateTo(PATHS.DeviceNetworkNameUpdate, { deviceId: device.id, familyId: device.familyId }, { replace: true });
    } catch (err) {
      toast(errorMessage(err, t("errors.requestFailed")));
    }
  };

  return (
    <PageShell title={t("addDevice.title")} testId="device-network-screen" className="ds-page">
      <div className="ds-form">
        <p className="ds-note" style={{ margin: "0 0 0.32rem" }}>
          {t("addDevice.intro")}
        </p>
        <Button
          color="primary"
          fill="outline"
          shape="rounded"
          className="ds-scan"
          onClick={() => void scan()}
          data-testid="add-device-scan"
        >
          <ScanningOutline /> {t("addDevice.scan")}
        </Button>
        <div className="ds-or">—</div>
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
        <div className="ds-row__hint" style={codeError ? { color: "var(--adm-color-danger)" } : undefined}>
          {codeError ? t("addDevice.invalidCode") : t("addDevice.codeHint")}
        </div>
        <button
          type="button"
          className="ds-household"
          onClick={() => void chooseHousehold()}
          data-testid="add-device-household"
        >
          <span>{t("addDevice.household")}</span>
          <span className="ds-household__value" data-family-id={family?.id ?? ""}>
            {family?.name ?? t("addDevice.chooseHousehold")}
            <RightOutline />
          </span>
        </button>
        <Button
          block
          color="primary"
          shape="rounded"
          loading={bind.isPending}
          disabled={!code.trim()}
          onClick={() => void submit()}
          data-testid="add-device-bind"
        >
          {t("addDevice.bind")}
        </Button>
      </div>
      <div className="ds-wifi" data-testid="device-network-wifi-coming">
        <GlobalOutline className="ds-wifi__icon" />
        <div>
          <div className="ds-wifi__title">{t("deviceNetwork.wifiTitle")}</div>
          {t("deviceNetwork.wifiComing")}
        </div>
      </div>
    </PageShell>
  );
}
