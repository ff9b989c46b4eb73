import type { TDeviceDashboard, TFamilyDevice } from "@aquapilot/contract/wire";
import { Tag } from "antd-mobile";
import { ClockCircleOutline, RightOutline } from "antd-mobile-icons";
import { memo } from "react";
import { useTranslation } from "react-i18next";
import { formatKg, formatMoment } from "../../../shared/format/index.ts";
import { DeviceImage } from "../../../shared/ui/device-image.tsx";
import { useVolume } from "../../../shared/units/volume.ts";
import { isCycleStation } from "../logic/dashboard-live.ts";

/** Tone of a station: in service green, regeneration steps blue, closed red, unknown grey. */
function stationTone(station: number | null): string {
  if (station === null) return "unknown";
  if (station === 0) return "service";
  if (station === 5) return "closed";
  return "regenerating";
}

/**
 * The badges of a device as antd-mobile tags (keys for the browser tests' `data-badges`): first that the cloud refuses
 * its reports (its figures stopped: the list's own, live fact), then the dashboard's.
 */
function badgeList(figures: TDeviceDashboard | undefined, regenerating: boolean, refused: boolean) {
  const b = figures?.badges;
  const list: Array<{ key: string; color: "primary" | "success" | "warning" | "danger" | "default"; text: string }> =
    [];
  if (refused) list.push({ key: "refused", color: "warning", text: "refused" });
  if (!b) return list;
  if (b.alarm)
    list.push({ key: `alarm-${b.alarm}`, color: "danger", text: b.alarm === "closed" ? "closed" : "offline" });
  if (regenerating) list.push({ key: "regenerating", color: "primary", text: "regenerating" });
  if (b.vacation) list.push({ key: "vacation", color: "success", text: "vacation" });
  if (b.firmwareUpdate) {
    list.push({
      key: `firmware-${b.firmwareUpdate}`,
      color: "warning",
      text: b.firmwareUpdate === "updating" ? "updating" : "updateAvailable",
    });
  }
  return list;
}

/**
 * One device on the Home dashboard (spec §2/§3; Home is a dashboard): image (placeholder when none), name,
 * online/offline tag, the live station and when the cloud last heard from it (phone time), the badges (alarm,
 * regenerating, vacation, firmware) as tags, and three figures — salt (days until empty, else the level), water used
 * today and water left before regeneration — with the next regeneration time. `figures` is the device's entry of the
 * dashboard (absent when the dashboard failed or does not hold the device yet: the figures show "—"; Home shows the
 * cards only once the dashboard has answered). Data attributes carry the raw values for the browser tests:
 * `data-device-id`, `data-station`, `data-online`, and on the figures `data-value`. Memoised: the list
 * renders again for each card it reveals without rendering the cards already shown, whose props keep their identity
 * until the device list or the dashboard changes.
 */
export const DeviceCard = memo(function DeviceCard({
  device,
  figures,
  onOpen,
}: {
  device: TFamilyDevice;
  figures?: TDeviceDashboard;
  onOpen: (device: TFamilyDevice) => void;
}) {
  const { t, i18n } = useTranslation();
  const { volume } = useVolume();
  const lang = i18n.language;
  const tone = device.online ? stationTone(device.station) : "offline";
  const stationText = device.station === null ? t("station.unknown") : t(`station.${device.station}` as "station.0");
  // The live station (hub 1) is newer than the dashboard's badge.
  const regenerating =
    device.station === null ? (figures?.badges.regenerating ?? false) : isCycleStation(device.station);
  const badges = badgeList(figures, regenerating, Boolean(device.reportsRefusedSince));
  const seen = formatMoment(figures?.lastSeenAt, lang, { timeOnlyToday: true });
  const dash = "—";

  const salt =
    figures?.saltDaysLeft !== null && figures?.saltDaysLeft !== undefined
      ? t("dashboard.saltDays", { count: figures.saltDaysLeft })
      : figures?.saltLevelKg !== null && figures?.saltLevelKg !== undefined
        ? t("dashboard.kg", { value: formatKg(figures.saltLevelKg, lang) })
        : figures
          ? t("dashboard.saltNotSet")
          : dash;
  const today = figures ? volume(figures.waterTodayL) : dash;
  const left =
    figures?.remainingWaterL !== null && figures?.remainingWaterL !== undefined
      ? volume(figures.remainingWaterL)
      : dash;
  const next = regenerating
    ? t("dashboard.regeneratingNow")
    : figures?.nextRegenerationAt
      ? (formatMoment(figures.nextRegenerationAt, lang) ?? dash)
      : figures?.badges.vacation
        ? t("dashboard.pausedVacation")
        : figures
          ? t("dashboard.notPlanned")
          : dash;

  return (
    <button
      type="button"
      className={`device-card device-card--dashboard device-card--${tone}`}
      onClick={() => onOpen(device)}
      data-testid="device-card"
      data-device-id={device.id}
      data-station={device.station ?? ""}
      data-online={device.online ? "true" : "false"}
      data-badges={badges.map((b) => b.key).join(" ")}
    >
      <div className="device-card__main">
        <div className="device-card__image">
          <DeviceImage image={device.image} />
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
            <span className="device-card__station-text">{stationText}</span>
          </div>
          {seen ? (
            <div className="device-card__time" data-testid="device-seen" data-time={figures?.lastSeenAt ?? ""}>
              <ClockCircleOutline />
              {t("dashboard.seen", { time: seen })}
            </div>
          ) : null}
        </div>
        <RightOutline className="device-card__arrow" />
      </div>
      {badges.length > 0 ? (
        <div className="device-card__badges" data-testid="device-badges">
          {badges.map((b) => (
            <Tag key={b.key} color={b.color} fill="outline" className="device-card__badge" data-badge={b.key}>
              {t(`dashboard.badge.${b.text}` as "dashboard.badge.vacation")}
            </Tag>
          ))}
        </div>
      ) : null}
      <div className="device-card__figures">
        <div
          className={`device-card__figure${figures?.lowSalt ? " device-card__figure--low" : ""}`}
          data-testid="device-salt-figure"
          data-days={figures?.saltDaysLeft ?? ""}
          data-level={figures?.saltLevelKg ?? ""}
          data-low={figures?.lowSalt ? "true" : "false"}
        >
          <span className="device-card__figure-label">
            {figures?.lowSalt ? t("dashboard.lowSalt") : t("dashboard.salt")}
          </span>
          <span className="device-card__figure-value">{salt}</span>
        </div>
        <div className="device-card__figure" data-testid="device-water-today" data-value={figures?.waterTodayL ?? ""}>
          <span className="device-card__figure-label">{t("dashboard.today")}</span>
          <span className="device-card__figure-value">{today}</span>
        </div>
        <div
          className="device-card__figure"
          data-testid="device-water-left"
          data-value={figures?.remainingWaterL ?? ""}
        >
          <span className="device-card__figure-label">{t("dashboard.waterLeft")}</span>
          <span className="device-card__figure-value">{left}</span>
        </div>
      </div>
      <div
        className="device-card__next"
        data-testid="device-next-regeneration"
        data-value={regenerating ? "regenerating" : (figures?.nextRegenerationAt ?? "")}
      >
        <span className="device-card__next-label">{t("dashboard.nextRegeneration")}</span>
        <span className="device-card__next-value">{next}</span>
      </div>
    </button>
  );
});
