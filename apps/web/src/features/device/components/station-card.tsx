import { ProgressBar } from "antd-mobile";
import { useTranslation } from "react-i18next";
import { useNow } from "../../../shared/device/hooks.ts";
import type { LiveDevice } from "../../../shared/device/live-device.ts";
import { stationProgressAt, stationRemainingAt, stationSecondsLeftAt } from "../../../shared/device/station-clock.ts";
import { dateTimeFormat } from "../../../shared/format/intl.ts";
import { formatPercent } from "../../../shared/format/percent.ts";
import { useVolume } from "../../../shared/units/volume.ts";
import { formatCountdown, stationProgress } from "../logic/live-values.ts";
import { ReportedAgo } from "./freshness.tsx";

/** A phone-local "HH:mm" for an instant (ms) in the interface language. */
function formatClockTime(ms: number, lang: string): string {
  return dateTimeFormat(lang === "zh-Hans" ? "zh-CN" : lang, { hour: "2-digit", minute: "2-digit" }).format(
    new Date(ms),
  );
}

/**
 * The live part of the Device screen (spec §3 stations): the station text, the real time left in it counting down
 * locally from the valve's reported station start and duration (one clock, see `station-clock.ts`: never backwards
 * within a station, and at a 60× demo clock a one-hour station shows one real minute) with progress against the
 * station's length, "back in service at HH:mm" in the phone's local time on the same clock, water left before regeneration and the flow now; each value with the time it was reported.
 * The card keeps its own once-a-second clock, so the countdown draws this card only, not the whole screen.
 */
export function StationCard({
  device,
  durations,
}: {
  device: LiveDevice;
  durations: Record<number, number> | undefined;
}) {
  const { t, i18n } = useTranslation();
  const now = useNow(1000);
  const { volume, flow } = useVolume();
  const station = device.station;
  const stationText = station === null ? t("station.unknown") : t(`station.${station}` as "station.0");
  const clock = device.stationClock?.station === station ? device.stationClock : null;
  // The time left and "back in service at" both on the phone's clock: real seconds, whatever the valve's time scale.
  const remaining = clock ? stationSecondsLeftAt(clock, now) : null;
  const progress =
    station === null || !clock
      ? null
      : (stationProgressAt(clock, now) ?? stationProgress(stationRemainingAt(clock, now), durations?.[station]));
  const serviceAt = clock?.serviceAtMs ?? null;
  const tone = !device.online ? "offline" : station === 0 ? "service" : station === 5 ? "closed" : "regenerating";
  return (
    <section className={`device-station device-station--${tone}`} data-testid="device-live">
      <div className="device-station__label">{t("device.station")}</div>
      <div className="device-station__value" data-testid="device-station" data-station={station ?? ""}>
        {stationText}
      </div>
      <ReportedAgo time={device.reported.station} now={now} testId="device-station-reported" />
      {remaining !== null ? (
        <div className="device-station__remaining">
          <div className="device-station__row">
            <span>{t("device.remaining")}</span>
            <strong data-testid="device-remaining" data-seconds={remaining}>
              {formatCountdown(remaining)}
            </strong>
          </div>
          {progress !== null ? (
            <>
              <ProgressBar percent={progress * 100} data-testid="device-station-progress" />
              <div className="device-station__hint">
                {t("device.stationProgress", { percent: formatPercent(progress * 100, i18n.language) })}
              </div>
            </>
          ) : null}
          {serviceAt !== null ? (
            <div className="device-station__hint" data-testid="device-back-in-service" data-at={serviceAt}>
              {t("device.backInService", { time: formatClockTime(serviceAt, i18n.language) })}
            </div>
          ) : null}
        </div>
      ) : null}
      <div className="device-metrics">
        <div className="device-metric">
          <div className="device-metric__label">{t("device.waterLeft")}</div>
          <div className="device-metric__value" data-testid="device-water-left">
            {device.remainingWaterL === null ? "—" : volume(device.remainingWaterL)}
          </div>
          <ReportedAgo time={device.reported.water} now={now} />
        </div>
        <div className="device-metric">
          <div className="device-metric__label">{t("device.flowNow")}</div>
          <div className="device-metric__value" data-testid="device-flow">
            {device.flowRateLpm === null ? "—" : flow(device.flowRateLpm)}
          </div>
          <ReportedAgo time={device.reported.flow} now={now} />
        </div>
      </div>
    </section>
  );
}
