import type { TWifiNetwork } from "@aquapilot/contract/wire";
import { DotLoading } from "antd-mobile";
import { CheckOutline, LockOutline } from "antd-mobile-icons";
import { useTranslation } from "react-i18next";
import { useBackClose } from "../../../shared/ui/index.ts";
import { Popup } from "../../../shared/ui/popup.tsx";
import { SignalBars } from "./icons.tsx";

/** Props of {@link WifiNetworkSheet}. */
export interface WifiNetworkSheetProps {
  visible: boolean;
  /** Networks in range; null while loading. */
  networks: TWifiNetwork[] | null;
  current: string | null;
  onSelect: (ssid: string) => void;
  onClose: () => void;
}

/**
 * "Switch the network" with the development bridge: a bottom sheet listing the simulated phone's Wi-Fi
 * networks (`/dev/bridge/wifi/networks`: name, band, password, signal), strongest first; tapping one makes the phone
 * join it. Back closes it first (spec §2). Test ids: `network-setup-network-sheet`, `network-setup-network-option`
 * (data-ssid, data-band, data-current).
 */
export function WifiNetworkSheet({ visible, networks, current, onSelect, onClose }: WifiNetworkSheetProps) {
  const { t } = useTranslation();
  useBackClose(visible, onClose);
  const sorted = [...(networks ?? [])].sort((a, b) => b.rssi - a.rssi);
  return (
    <Popup visible={visible} onMaskClick={onClose} bodyClassName="ns-sheet" destroyOnClose>
      <div data-testid="network-setup-network-sheet">
        <div className="ns-sheet__title">{t("networkSetup.wifi.sheetTitle")}</div>
        <div className="ns-sheet__hint">{t("networkSetup.wifi.sheetHint")}</div>
        {networks === null ? (
          <div className="ns-sheet__loading">
            <DotLoading color="primary" />
          </div>
        ) : (
          <ul className="ns-sheet__list">
            {sorted.map((n) => (
              <li key={`${n.ssid}-${n.band}`}>
                <button
                  type="button"
                  className={`ns-net ${n.ssid === current ? "ns-net--current" : ""}`}
                  onClick={() => onSelect(n.ssid)}
                  data-testid="network-setup-network-option"
                  data-ssid={n.ssid}
                  data-band={n.band}
                  data-current={n.ssid === current}
                >
                  <span className="ns-net__signal">
                    <SignalBars rssi={n.rssi} />
                  </span>
                  <span className="ns-net__main">
                    <span className="ns-net__name">{n.ssid}</span>
                    <span className="ns-net__meta">
                      <span className={`ns-chip ${n.band === "5GHz" ? "ns-chip--warn" : ""}`}>{n.band}</span>
                      {n.secured ? (
                        <span className="ns-net__lock">
                          <LockOutline /> {t("networkSetup.wifi.secured")}
                        </span>
                      ) : (
                        <span className="ns-net__lock">{t("networkSetup.wifi.open")}</span>
                      )}
                    </span>
                  </span>
                  {n.ssid === current ? <CheckOutline className="ns-net__check" /> : null}
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Popup>
  );
}
