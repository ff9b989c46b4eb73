import type { TFamilyDevice } from "@aquapilot/contract";
import { Tag } from "antd-mobile";
import { ClockCircleOutline, RightOutline } from "antd-mobile-icons";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { imageUrl } from "../../../shared/api/client.js";
import { formatReportTime } from "../format.js";

/** Tone of a station: in service green, regeneration steps blue, closed red, unknown grey. */
function stationTone(station: number | null): string {
  if (station === null) return "unknown";
  if (station === 0) return "service";
  if (station === 5) return "closed";
  return "regenerating";
}

/** A softener drawn as a placeholder when the device has no image. */
function SoftenerIcon() {
  return (
    <svg viewBox="0 0 48 48" width="100%" height="100%" aria-hidden="true">
      <rect x="13" y="4" width="22" height="8" rx="3" fill="#0093dd" />
      <rect x="11" y="11" width="26" height="33" rx="8" fill="#d8eefa" stroke="#0093dd" strokeWidth="2" />
      <path d="M24 19c-3 4-6 7-6 10.5a6 6 0 0 0 12 0c0-3.5-3-6.5-6-10.5z" fill="#0093dd" />
    </svg>
  );
}

/**
 * One device on the home tab (spec §2/§3): image (placeholder when none), name, online/offline tag, the station text
 * and the last report time. Data attributes `data-device-id`, `data-station` and `data-online` serve the browser tests.
 */
export function DeviceCard({ device, onOpen }: { device: TFamilyDevice; onOpen: (device: TFamilyDevice) => void }) {
  const { t, i18n } = useTranslation();
  const [broken, setBroken] = useState(false);
  const src = broken ? null : imageUrl(device.image);
  const tone = device.online ? stationTone(device.station) : "offline";
  const stationText = device.station === null ? t("station.unknown") : t(`station.${device.station}` as "station.0");
  return (
    <button
      type="button"
      className={`device-card device-card--${tone}`}
      onClick={() => onOpen(device)}
      data-testid="device-card"
      data-device-id={device.id}
      data-station={device.station ?? ""}
      data-online={device.online ? "true" : "false"}
    >
      <div className="device-card__image">
        {src ? <img src={src} alt="" onError={() => setBroken(true)} /> : <SoftenerIcon />}
      </div>
      <div className="device-card__body">
        <div className="device-card__top">
          <span className="device-card__name">{device.name}</span>
          <Tag
            round
            color={device.online ? "success" : "default"}
            fill="outline"
            className="device-card__tag"
            data-testid="device-online"
            data-online={device.online ? "true" : "false"}
          >
            {device.online ? t("home.online") : t("home.offline")}
          </Tag>
        </div>
        <div className="device-card__station" data-testid="device-station" data-station={device.station ?? ""}>
          <span className="device-card__dot" />
          {stationText}
        </div>
        <div className="device-card__time">
          <ClockCircleOutline />
          {t("home.lastReport", { time: formatReportTime(device.lastReportTime, i18n.language, t("common.never")) })}
        </div>
      </div>
      <RightOutline className="device-card__arrow" />
    </button>
  );
}
