import { ReportTimeType } from "@aquapilot/contract";
import { Selector, Skeleton } from "antd-mobile";
import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { apiBaseUrl } from "../../../shared/api/client.js";
import { useFlowStatistics } from "../api/device-api.js";

/** The chart module, fetched only when the statistics section renders (keeps uPlot out of every other screen). */
const FlowChart = lazy(() => import("./flow-chart.js"));

const TABS = [
  { value: ReportTimeType.Month, key: "deviceStats.month" },
  { value: ReportTimeType.Week, key: "deviceStats.week" },
  { value: ReportTimeType.Day, key: "deviceStats.day" },
] as const;

/**
 * Water-usage statistics of the Device screen (spec §3 report time types 1 month, 2 week, 3 day; §7
 * device-flow-statistics): charts of water used, regenerations and salt used; salt level, salt forecast, CSV export
 * and the regeneration timeline when the server offers them.
 */
export function StatsSection({ deviceId }: { deviceId: string }) {
  const { t, i18n } = useTranslation();
  const [type, setType] = useState<number>(ReportTimeType.Week);
  const stats = useFlowStatistics(deviceId, type);
  const locale = i18n.language === "zh-Hans" ? "zh-CN" : i18n.language;
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
  const data = stats.data;
  const hourly = type === ReportTimeType.Day;
  return (
    <section className="device-section" data-testid="device-stats" data-report-time-type={type}>
      <div className="device-section__head">
        <h2 className="device-section__title">{t("deviceStats.title")}</h2>
        {data?.csvUrl ? (
          <a className="device-link" href={`${apiBaseUrl()}${data.csvUrl}`} download data-testid="device-stats-csv">
            {t("deviceStats.exportCsv")}
          </a>
        ) : null}
      </div>
      <Selector
        className="device-tabs"
        columns={3}
        showCheckMark={false}
        value={[type]}
        onChange={(v) => v.length && setType(v[0])}
        options={TABS.map((tab) => ({ label: t(tab.key), value: tab.value }))}
        data-testid="device-stats-tabs"
      />
      {stats.isPending ? <Skeleton.Paragraph lineCount={4} animated /> : null}
      {stats.isError ? (
        <div className="device-empty" data-testid="device-stats-error">
          {t("deviceStats.loadFailed")}
        </div>
      ) : null}
      {data && data.points.length === 0 ? (
        <div className="device-empty" data-testid="device-stats-empty">
          {t("deviceStats.empty")}
        </div>
      ) : null}
      {data && data.points.length > 0 ? (
        <>
          <div className="device-stats__total" data-testid="device-stats-total">
            {t("deviceStats.total", { value: number.format(data.totalWaterL) })}
          </div>
          <Suspense fallback={<div className="device-empty">{t("deviceStats.loadingChart")}</div>}>
            <div className="device-chart__title">{t("deviceStats.waterUsed")}</div>
            <FlowChart
              points={data.points}
              metric="waterL"
              color="#0093dd"
              hourly={hourly}
              locale={locale}
              testId="chart-water"
            />
            <div className="device-chart__title">{t("deviceStats.regenerations")}</div>
            <FlowChart
              points={data.points}
              metric="regenerations"
              color="#22b573"
              hourly={hourly}
              locale={locale}
              testId="chart-regenerations"
            />
            <div className="device-chart__title">{t("deviceStats.saltUsed")}</div>
            <FlowChart
              points={data.points}
              metric="saltKg"
              color="#ff9f1a"
              hourly={hourly}
              locale={locale}
              testId="chart-salt"
            />
          </Suspense>
        </>
      ) : null}
      {data && (data.saltLevelKg !== null || data.saltDaysLeft !== null) ? (
        <div className="device-salt" data-testid="device-salt">
          {data.saltLevelKg !== null ? (
            <span>{t("deviceStats.saltLevel", { value: number.format(data.saltLevelKg) })}</span>
          ) : null}
          {data.saltDaysLeft !== null ? (
            <span data-testid="device-salt-days">
              {t("deviceStats.saltDaysLeft", { count: Math.floor(data.saltDaysLeft) })}
            </span>
          ) : null}
        </div>
      ) : null}
      {data && data.cycles.length > 0 ? (
        <div className="device-timeline" data-testid="device-timeline">
          <div className="device-chart__title">{t("deviceStats.timeline")}</div>
          {data.cycles.map((c) => (
            <div
              key={c.startTime}
              className={`device-timeline__item${c.deviating ? " device-timeline__item--deviating" : ""}`}
              data-deviating={c.deviating ? "true" : "false"}
            >
              <span>
                {new Intl.DateTimeFormat(locale, { dateStyle: "short", timeStyle: "short" }).format(
                  new Date(c.startTime),
                )}
              </span>
              <span>
                {t("deviceStats.cycle", {
                  minutes: c.durationSeconds === null ? "—" : Math.round(c.durationSeconds / 60),
                  water: c.waterL === null ? "—" : number.format(c.waterL),
                  salt: c.saltKg === null ? "—" : number.format(c.saltKg),
                })}
              </span>
              {c.deviating ? <span className="device-timeline__flag">{t("deviceStats.deviating")}</span> : null}
            </div>
          ))}
        </div>
      ) : null}
    </section>
  );
}
