import { Button, ProgressBar } from "antd-mobile";
import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSaltStatus } from "../../../shared/device/api/get-salt-status.ts";
import { intlLocale } from "../../../shared/format/index.ts";
import { regenerationBasis, saltGaugePercent } from "../logic/salt-gauge.ts";
import { SaltReminderSetting } from "./salt-reminder.tsx";
import "./salt-gauge.css";
import { dateTimeFormat, numberFormat } from "../../../shared/format/intl.ts";
import { useBackClose } from "../../../shared/ui/overlay.tsx";

/**
 * The refill dialog (antd-mobile's Dialog with its animation library), loaded on the first tap, off the first screen.
 */
const SaltRefillDialog = lazy(() => import("./salt-refill-dialog.tsx").then((m) => ({ default: m.SaltRefillDialog })));

/**
 * The salt card of the Device screen: a gauge of the salt left against the level
 * entered at the last refill (percent), the level in kg, "lasts about N days", what that rests on ("3 kg per
 * regeneration, about every 9 days": salt per regeneration and the server's estimate of the days between
 * regenerations), the last refill's date and time in the
 * phone's local time (the cloud's time of the refill), the server's low-salt text, "Salt refilled" (the refill
 * dialog, offering the last refill's level) and the low-salt reminder setting. Before the first refill it says the level is not set yet and offers the
 * refill. Data attributes for the browser tests: `data-level` (kg), `data-low`, `data-percent`.
 */
export function SaltGaugeCard({ deviceId }: { deviceId: string }) {
  const { t, i18n } = useTranslation();
  const salt = useSaltStatus(deviceId).data;
  const [refilling, setRefilling] = useState(false);
  // The dialog's code loads on its first opening, and it stays mounted after (its closing animation); its back entry
  // exists from the tap on, before the code has loaded (a back at once closes it).
  const [refillMounted, setRefillMounted] = useState(false);
  useBackClose(refilling, () => setRefilling(false));
  if (!salt) return null;
  const locale = intlLocale(i18n.language);
  const number = numberFormat(locale, { maximumFractionDigits: 1 });
  const percentFormat = numberFormat(locale, { style: "percent", maximumFractionDigits: 1 });
  const percent = saltGaugePercent(salt.saltLevelKg, salt.refillLevelKg);
  const basis = regenerationBasis(salt.saltPerRegenerationKg, salt.regenerationIntervalDays);
  const refilledAt = salt.refilledAt ? new Date(salt.refilledAt) : null;
  const refilled =
    refilledAt && !Number.isNaN(refilledAt.getTime())
      ? dateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" }).format(refilledAt)
      : null;
  return (
    <section
      className={`device-section salt-gauge${salt.lowSalt ? " salt-gauge--low" : ""}`}
      data-testid="device-salt"
      data-low={salt.lowSalt}
      data-level={salt.saltLevelKg ?? ""}
      data-percent={percent ?? ""}
    >
      <div className="device-section__head">
        <h2 className="device-section__title">{t("saltGauge.title")}</h2>
        <Button
          size="mini"
          color="primary"
          fill="outline"
          shape="rounded"
          className="salt-gauge__refill"
          onClick={() => {
            setRefillMounted(true);
            setRefilling(true);
          }}
          data-testid="device-salt-refill"
        >
          {t("deviceSalt.refilled")}
        </Button>
      </div>
      {salt.saltLevelKg === null ? (
        <div className="salt-gauge__unknown" data-testid="device-salt-unknown">
          {t("deviceSalt.unknown")}
        </div>
      ) : (
        <>
          <div
            className="salt-gauge__bar"
            data-testid="device-salt-gauge"
            role="img"
            aria-label={t("saltGauge.gauge", { percent: percent ?? 0 })}
          >
            <ProgressBar percent={percent ?? 0} className="salt-gauge__progress" />
            {percent !== null ? (
              <span className="salt-gauge__percent">{percentFormat.format(percent / 100)}</span>
            ) : null}
          </div>
          <div className="salt-gauge__figures">
            <span className="salt-gauge__level" data-testid="device-salt-level">
              {t("deviceStats.saltLevel", { value: number.format(salt.saltLevelKg) })}
            </span>
            <span className="salt-gauge__days" data-testid="device-salt-days" data-days={salt.saltDaysLeft ?? ""}>
              {salt.saltDaysLeft === null
                ? t("saltGauge.noForecast")
                : t("saltGauge.daysLeft", { count: salt.saltDaysLeft })}
            </span>
          </div>
        </>
      )}
      {basis ? (
        <div className="salt-gauge__basis" data-testid="device-salt-basis" data-days={basis.days ?? ""}>
          {basis.days === null
            ? t("saltGauge.basisNoInterval", { kg: number.format(basis.kg) })
            : t("saltGauge.basis", { kg: number.format(basis.kg), count: basis.days })}
        </div>
      ) : null}
      {refilled ? (
        <div className="salt-gauge__refilled" data-testid="device-salt-refilled-at" data-time={salt.refilledAt ?? ""}>
          {t("saltGauge.lastRefill", { date: refilled })}
        </div>
      ) : null}
      {salt.message ? (
        <div className="salt-gauge__message" data-testid="device-salt-message">
          {salt.message}
        </div>
      ) : null}
      <SaltReminderSetting deviceId={deviceId} days={salt.reminderDays} />
      {refillMounted ? (
        <Suspense fallback={null}>
          <SaltRefillDialog
            deviceId={deviceId}
            visible={refilling}
            tankSizeKg={salt.refillLevelKg}
            onClose={() => setRefilling(false)}
          />
        </Suspense>
      ) : null}
    </section>
  );
}
