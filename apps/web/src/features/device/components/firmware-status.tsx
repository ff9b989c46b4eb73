import { ProgressBar } from "antd-mobile";
import { useTranslation } from "react-i18next";
import { formatPercent } from "../../../shared/format/percent.ts";

/**
 * How the last firmware update ended (docs/device-protocol.md §3.7): done, or failed with the device's reason
 * ("download", "hash", "signature", "boot") or the cloud's ("timeout", "offline", a refusal such as "busy").
 */
export interface FirmwareOutcome {
  ok: boolean;
  reason: string | null;
}

/** The failure reasons with a text of their own; any other reads as the general one. */
const REASONS = ["download", "hash", "signature", "boot", "timeout", "offline"] as const;

type Reason = (typeof REASONS)[number] | "other";

/** The text key of a failure reason (`deviceControl.otaReason.*`; "other" for one without its own text). */
export function otaReasonKey(reason: string | null): `deviceControl.otaReason.${Reason}` {
  const known = REASONS.find((r) => r === reason);
  return `deviceControl.otaReason.${known ?? "other"}`;
}

/**
 * The firmware part of the Device screen's controls (spec §4 firmware update): the current and the available version,
 * and either the running update's progress (percent, one decimal) or how the last one ended — done (to the available
 * version, which the app always asks for), or failed with its reason and the version the device keeps — in the user's
 * language. Versions unknown yet show nothing.
 */
export function FirmwareStatus(props: {
  currentVersion: string | null;
  latestVersion: string | null;
  /** Percent of the running update, 0–100; null when none runs. */
  progress: number | null;
  /** How the last update ended; null when none ended since the screen opened (or the cloud knows none). */
  outcome: FirmwareOutcome | null;
}) {
  const { currentVersion, latestVersion, progress, outcome } = props;
  const { t, i18n } = useTranslation();
  return (
    <>
      {currentVersion !== null || latestVersion !== null ? (
        <div className="device-firmware" data-testid="device-firmware-versions">
          {t("deviceControl.firmwareVersions", { current: currentVersion ?? "–", latest: latestVersion ?? "–" })}
        </div>
      ) : null}
      {progress !== null ? (
        <div className="device-ota" data-testid="device-ota" data-progress={progress}>
          <div className="device-ota__text">{t("deviceControl.updating")}</div>
          <ProgressBar percent={progress} />
          <div className="device-ota__percent" data-testid="device-ota-percent">
            {formatPercent(progress, i18n.language)}
          </div>
        </div>
      ) : outcome ? (
        <div
          className={`device-ota-outcome device-ota-outcome--${outcome.ok ? "done" : "failed"}`}
          data-testid="device-ota-outcome"
          data-outcome={outcome.ok ? "done" : "failed"}
          data-reason={outcome.reason ?? ""}
          role="status"
        >
          {outcome.ok
            ? t("deviceControl.otaDone", { version: latestVersion ?? currentVersion ?? "" })
            : t("deviceControl.otaFailed", { reason: t(otaReasonKey(outcome.reason)), version: currentVersion ?? "" })}
        </div>
      ) : null}
    </>
  );
}
