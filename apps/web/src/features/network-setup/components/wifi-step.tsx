import type { TFamily, TPhoneWifi, TWifiNetwork } from "@aquapilot/contract/wire";
import { useQueryClient } from "@tanstack/react-query";
import { Button, DotLoading } from "antd-mobile";
import { ExclamationCircleFill, InformationCircleOutline, LoopOutline } from "antd-mobile-icons";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { getItem, rememberedWifiPassword } from "../../../shared/storage/index.ts";
import { confirmDialog, TextField, toast } from "../../../shared/ui/index.ts";
import { chooseModule } from "../ble/ble-transport.ts";
import type { BluetoothErrorKind } from "../logic/bluetooth-errors.ts";
import { otherNetworkWarning, type SetupMode, validateWifi, type WifiProblem } from "../logic/wifi-validation.ts";
import type { DeviceNetworkParams } from "../params.ts";
import { runningSession } from "../setup-session.ts";
import { startBleSetup, startSmartSetup } from "../start-setup.ts";
import { alertDialog } from "./alert-dialog.tsx";
import { WifiIcon } from "./icons.tsx";
import { goToStep, useWifiBridge } from "./setup-context.ts";
import { WifiNetworkSheet } from "./wifi-network-sheet.tsx";

/** Why no module was chosen in the Bluetooth chooser, as the page shows it. */
type ChooserProblem = Exclude<BluetoothErrorKind, "failed"> | "failed";

/**
 * The Wi-Fi page of spec §2: Current WiFi (or "Currently not connected to WiFi"; in a plain browser, that the
 * browser cannot tell), "Switch the network" (native: the phone's Wi-Fi settings; development bridge: a sheet of the
 * simulated phone's networks), the "2.4GHz only" and "phone on the same network" notes, the Wi-Fi name and password
 * (password visible on demand; prefilled from the persisted `wifi` of spec §3 or the current network), spec §5
 * validation ("Please enter the Wi-Fi name and password", byte limits, 5 GHz refused) and "Connect to Wi-Fi": the
 * new version opens the Bluetooth chooser (a cancelled or failed chooser shows why and how to go on), the old
 * version warns when the phone is on another network; then the setup starts and the progress step opens.
 * A household the caller does not administer is refused here too (a deep link), before the device is touched.
 * Test ids: `network-setup-wifi`, `network-setup-admin-only`, `network-setup-current-wifi` (data-ssid, data-band), `network-setup-switch-network`,
 * `network-setup-only-24`, `network-setup-wifi-name`, `network-setup-wifi-password`, `network-setup-wifi-eye`,
 * `network-setup-wifi-error` (data-problem), `network-setup-connect`, `network-setup-no-device` (data-problem),
 * `network-setup-network-sheet`, `network-setup-network-option`.
 */
export function WifiStep({ params, family }: { params: Partial<DeviceNetworkParams>; family: TFamily | null }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const mode = params.mode as SetupMode;
  // Only the household's administrator may bind (spec §6): refuse before the device is touched.
  const familyId = family?.isAdmin ? family.id : null;
  const bridge = useWifiBridge();
  const stored = getItem("wifi");
  const [current, setCurrent] = useState<TPhoneWifi | null>(null);
  const [networks, setNetworks] = useState<TWifiNetwork[] | null>(null);
  const [name, setName] = useState(stored?.name ?? "");
  const [password, setPassword] = useState(stored?.password ?? "");
  const [problem, setProblem] = useState<WifiProblem | null>(null);
  const [chooser, setChooser] = useState<ChooserProblem | null>(null);
  const [busy, setBusy] = useState(false);
  const [sheetOpen, setSheetOpen] = useState(false);
  const edited = useRef(false);
  /** The owner typed a password: a late read of the phone's Wi-Fi must not replace it. */
  const passwordEdited = useRef(false);
  const busyRef = useRef(false);

  /**
   * Reads the phone's Wi-Fi; an unedited name follows the current network, and an unedited password that network's
   * remembered one (the read may land after the owner has typed: a slow bridge, a fast owner).
   */
  const refresh = useCallback(async () => {
    if (!bridge || bridge.kind === "none") return;
    const [wifi, list] = await Promise.all([bridge.getCurrentWifi(), bridge.getWifiNetworks()]);
    setCurrent(wifi);
    setNetworks(list?.networks ?? null);
    if (!edited.current && wifi?.connected && wifi.ssid) {
      setName(wifi.ssid);
      if (!passwordEdited.current) setPassword(rememberedWifiPassword(wifi.ssid));
    }
  }, [bridge]);

  useEffect(() => {
    void refresh();
    const onVisible = () => {
      if (document.visibilityState === "visible") void refresh();
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => document.removeEventListener("visibilitychange", onVisible);
  }, [refresh]);

  const switchNetwork = async () => {
    if (!bridge) return;
    if (bridge.kind === "dev") {
      setSheetOpen(true);
      setNetworks((await bridge.getWifiNetworks())?.networks ?? []);
      return;
    }
    await bridge.switchNetwork();
  };

  const selectNetwork = async (ssid: string) => {
    setSheetOpen(false);
    if (!bridge) return;
    const wifi = await bridge.switchNetwork(ssid);
    edited.current = false;
    passwordEdited.current = false;
    if (wifi) setCurrent(wifi);
    await refresh();
  };

  const connect = async () => {
    if (busyRef.current) return;
    const running = runningSession();
    if (running) {
      toast(t("networkSetup.wifi.running"));
      goToStep(params, "progress", { run: running.id });
      return;
    }
    const found = validateWifi(name, password, mode, { current, networks });
    setProblem(found);
    if (found) return;
    if (!familyId) return;
    busyRef.current = true;
    setBusy(true);
    setChooser(null);
    try {
      if (mode === "ble") {
        const chosen = await chooseModule();
        if ("error" in chosen) {
          setChooser(chosen.error);
          return;
        }
        const session = startBleSetup({ familyId, ssid: name, password, client, module: chosen });
        goToStep(params, "progress", { run: session.id });
        return;
      }
      if (!bridge || bridge.kind === "none") {
        await alertDialog({
          title: t("networkSetup.mode.needsAppTitle"),
          content: t("networkSetup.mode.needsAppText"),
          testId: "network-setup-needs-app-dialog",
        });
        return;
      }
      if (otherNetworkWarning(name, mode, current)) {
        const go = await confirmDialog({
          title: t("networkSetup.wifi.otherNetworkTitle"),
          content: t("networkSetup.wifi.otherNetwork", { current: current?.ssid ?? "", ssid: name }),
          confirmText: t("networkSetup.wifi.continue"),
        });
        if (!go) return;
      }
      const session = startSmartSetup({ familyId, ssid: name, password, client, bridge });
      goToStep(params, "progress", { run: session.id });
    } finally {
      busyRef.current = false;
      setBusy(false);
    }
  };

  const currentText = () => {
    if (!bridge) return <DotLoading color="primary" />;
    if (bridge.kind === "none") return <span className="ns-wifi__unknown">{t("networkSetup.wifi.unknown")}</span>;
    if (!current) return <DotLoading color="primary" />;
    if (!current.connected || !current.ssid) return t("networkSetup.wifi.notConnected");
    return (
      <span className="ns-wifi__ssid">
        <span className="ns-wifi__name">{current.ssid}</span>
        {current.band ? (
          <span className={`ns-chip ${current.band === "5GHz" ? "ns-chip--warn" : ""}`}>{current.band}</span>
        ) : null}
      </span>
    );
  };

  return (
    <div className="ns-step" data-testid="network-setup-wifi" data-mode={mode} data-bridge={bridge?.kind ?? ""}>
      <section className="ns-card ns-wifi">
        <div className="ns-wifi__row">
          <span className="ns-wifi__icon">
            <WifiIcon />
          </span>
          <div className="ns-wifi__main">
            <div className="ns-wifi__label">{t("networkSetup.wifi.current")}</div>
            <div
              className="ns-wifi__value"
              data-testid="network-setup-current-wifi"
              data-ssid={current?.connected ? (current.ssid ?? "") : ""}
              data-band={current?.band ?? ""}
            >
              {currentText()}
            </div>
            {bridge && bridge.kind !== "none" ? (
              <button
                type="button"
                className="ns-wifi__switch"
                onClick={() => void switchNetwork()}
                data-testid="network-setup-switch-network"
              >
                <LoopOutline /> {t("networkSetup.wifi.switch")}
              </button>
            ) : null}
          </div>
        </div>
        <div className="ns-wifi__notes">
          <div className="ns-wifi__note" data-testid="network-setup-only-24">
            <span className="ns-chip ns-chip--brand">{t("networkSetup.wifi.only24")}</span>
            <span>{t("networkSetup.wifi.only24Text")}</span>
          </div>
          <div className="ns-wifi__note">
            <InformationCircleOutline className="ns-wifi__note-icon" />
            <span>{t("networkSetup.wifi.sameNetwork")}</span>
          </div>
        </div>
      </section>

      <section className="ns-form">
        <TextField
          label={t("networkSetup.wifi.name")}
          value={name}
          onChange={(v) => {
            edited.current = true;
            setName(v);
            setProblem(null);
            const remembered = rememberedWifiPassword(v);
            if (remembered && !password) setPassword(remembered);
          }}
          placeholder={t("networkSetup.wifi.namePlaceholder")}
          autoCapitalize="off"
          autoCorrect="off"
          spellCheck={false}
          autoComplete="off"
          testId="network-setup-wifi-name"
          aria-invalid={problem !== null && problem !== "passwordTooLong" && problem !== "passwordTooLongOld"}
        />
        <TextField
          label={t("networkSetup.wifi.password")}
          value={password}
          onChange={(v) => {
            passwordEdited.current = true;
            setPassword(v);
            setProblem(null);
          }}
          placeholder={t("networkSetup.wifi.passwordPlaceholder")}
          revealable
          autoComplete="off"
          testId="network-setup-wifi-password"
          revealTestId="network-setup-wifi-eye"
        />
        {problem ? (
          <div
            className="ns-field-hint ns-field-hint--error"
            data-testid="network-setup-wifi-error"
            data-problem={problem}
          >
            {t(`networkSetup.wifi.errors.${problem}`, { ssid: name })}
          </div>
        ) : null}
        {chooser ? (
          <div className="ns-banner ns-banner--warn" data-testid="network-setup-no-device" data-problem={chooser}>
            <ExclamationCircleFill />
            <div>
              {chooser === "cancelled" || chooser === "failed" ? (
                <>
                  <div className="ns-banner__title">{t("networkSetup.wifi.noDeviceTitle")}</div>
                  <div>
                    {chooser === "failed"
                      ? t("networkSetup.wifi.bluetoothFailed")
                      : t("networkSetup.wifi.noDeviceText")}
                  </div>
                </>
              ) : chooser === "unsupported" ? (
                <>
                  <div className="ns-banner__title">{t("networkSetup.permissions.unsupportedTitle")}</div>
                  <div>{t("networkSetup.permissions.unsupportedText")}</div>
                </>
              ) : chooser === "permission" ? (
                <div className="ns-banner__title">{t("networkSetup.permissions.problems.bluetoothDenied")}</div>
              ) : (
                <>
                  <div className="ns-banner__title">{t("networkSetup.permissions.problems.bluetoothUnavailable")}</div>
                  <div>{t("networkSetup.permissions.browserHint")}</div>
                </>
              )}
            </div>
          </div>
        ) : null}
        {family && !family.isAdmin ? (
          <div className="ns-banner ns-banner--warn" data-testid="network-setup-admin-only">
            <ExclamationCircleFill />
            <div>{t("networkSetup.mode.adminOnly")}</div>
          </div>
        ) : null}
        <Button
          block
          color="primary"
          shape="rounded"
          size="large"
          loading={busy}
          disabled={busy || !familyId}
          onClick={() => void connect()}
          data-testid="network-setup-connect"
        >
          {chooser === "cancelled" ? t("networkSetup.wifi.chooseAgain") : t("networkSetup.wifi.connect")}
        </Button>
        {busy && mode === "ble" ? <div className="ns-field-hint">{t("networkSetup.wifi.choosing")}</div> : null}
      </section>
      <WifiNetworkSheet
        visible={sheetOpen}
        networks={networks}
        current={current?.connected ? current.ssid : null}
        onSelect={(ssid) => void selectNetwork(ssid)}
        onClose={() => setSheetOpen(false)}
      />
    </div>
  );
}
