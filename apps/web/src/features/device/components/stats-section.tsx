import { ReportTimeType } from "@aquapilot/contract/wire";
import { Skeleton } from "antd-mobile";
import { Fragment, lazy, Suspense, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNearViewport } from "../../../first-paint/near-viewport.ts";
import { type FlowPoint, useFlowStatistics } from "../../../shared/device/api/get-flow-statistics.ts";
import { useRegenerationCycles } from "../../../shared/device/api/get-regeneration-cycles.ts";
import { dateTimeFormat, numberFormat } from "../../../shared/format/intl.ts";
import { SegmentedChoice } from "../../../shared/ui/segmented-choice.tsx";
import { fromLitres } from "../../../shared/units/conversions.ts";
import { useVolume } from "../../../shared/units/volume.ts";
import { barValueText, bucketLabelFormat, type ChartMetric } from "../logic/chart-axis.ts";
import { formatCountdown } from "../logic/live-values.ts";
import { CsvExportButton, CsvExportProgressPanel, useCsvExport } from "./csv-export.tsx";

/**
 * The chart module, fetched when the charts first come into view (keeps uPlot out of every other screen, and its
 * start-up and drawing out of the Device screen's first seconds: the charts are below its first screen).
 */
const FlowChart = lazy(() => import("./flow-chart.tsx"));

/** The report time types as tabs: the tab's text and the period a chart's table names in its caption. */
const TABS = [
  { value: ReportTimeType.Month, key: "deviceStats.month", period: "deviceStats.periodMonth" },
  { value: ReportTimeType.Week, key: "deviceStats.week", period: "deviceStats.periodWeek" },
  { value: ReportTimeType.Day, key: "deviceStats.day", period: "deviceStats.periodDay" },
] as const;

/** Intl locale of an interface language. */
const intlLocale = (lang: string) => (lang === "zh-Hans" ? "zh-CN" : lang);

/**
 * One chart of the statistics section: its title (with the unit), the buckets it draws (water already in the owner's
 * volume unit), which figure, its colour and test id. The drawing and its table are both made from it.
 */
interface StatsChart {
  title: string;
  points: FlowPoint[];
  metric: ChartMetric;
  color: string;
  testId: string;
}

/**
 * The text alternative of one statistics chart: a table of exactly the buckets and values the chart draws, with a
 * caption naming the chart and the period, the buckets labelled as the chart's time axis labels them (dates, or
 * hours in the day view) and the values as {@link barValueText} writes them, under a header carrying the unit.
 */
function ChartTable({
  chart,
  period,
  hourly,
  locale,
}: {
  chart: StatsChart;
  period: string;
  hourly: boolean;
  locale: string;
}) {
  const { t } = useTranslation();
  const label = bucketLabelFormat(locale, hourly);
  return (
    <table data-testid={`${chart.testId}-table`}>
      <caption>{t("deviceStats.tableCaption", { chart: chart.title, period })}</caption>
      <thead>
        <tr>
          <th scope="col">{t(hourly ? "deviceStats.tableHour" : "deviceStats.tableDate")}</th>
          <th scope="col">{chart.title}</th>
        </tr>
      </thead>
      <tbody>
        {chart.points.map((point) => (
          <tr key={point.time}>
            <th scope="row">{label.format(new Date(point.time))}</th>
            <td>{barValueText(point[chart.metric], chart.metric, locale)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * Water-usage statistics of the Device screen (spec §3 report time types 1 month, 2 week, 3 day; §7
 * device-flow-statistics): charts of water used, regenerations and salt used, and the CSV export. The figures come
 * with the answer; the charts draw once their place scrolls into view, after the live figures. Screen readers skip
 * the drawings and read instead one table per chart, made from the same list of charts and present from the
 * answer on (visually hidden: sighted owners see the screen as drawn).
 */
export function StatsSection({ deviceId }: { deviceId: string }) {
  const { t, i18n } = useTranslation();
  const { unit, volume, symbol } = useVolume();
  const [type, setType] = useState<number>(ReportTimeType.Week);
  const stats = useFlowStatistics(deviceId, type);
  const locale = intlLocale(i18n.language);
  const number = numberFormat(locale, { maximumFractionDigits: 1 });
  const data = stats.data;
  const csv = useCsvExport();
  const charts = useNearViewport();
  const list = useMemo<StatsChart[]>(
    () =>
      data
        ? [
            {
              title: t("deviceStats.waterUsed", { unit: symbol }),
              points: data.points.map((p) => ({ ...p, waterL: fromLitres(p.waterL, unit) })),
              metric: "waterL",
              color: "#0093dd",
              testId: "chart-water",
            },
            {
              title: t("deviceStats.regenerations"),
              points: data.points,
              metric: "regenerations",
              color: "#22b573",
              testId: "chart-regenerations",
            },
            {
              title: t("deviceStats.saltUsed"),
              points: data.points,
              metric: "saltKg",
              color: "#ff9f1a",
              testId: "chart-salt",
            },
          ]
        : [],
    [data, t, symbol, unit],
  );
  const period = t((TABS.find((tab) => tab.value === type) ?? TABS[1]).period);
  const loadingChart = <div className="device-empty">{t("deviceStats.loadingChart")}</div>;
  return (
    <section className="device-section" data-testid="device-stats" data-report-time-type={type}>
      <div className="device-section__head">
        <h2 className="device-section__title">{t("deviceStats.title")}</h2>
        {data ? <CsvExportButton control={csv} query={data.csvQuery} /> : null}
      </div>
      <CsvExportProgressPanel control={csv} />
      <div className="device-tabs" data-testid="device-stats-tabs">
        <SegmentedChoice
          label={t("deviceStats.periodChoice")}
          value={type}
          onChange={setType}
          options={TABS.map((tab) => ({
            label: t(tab.key),
            value: tab.value,
            testId: `device-stats-tab-${tab.value}`,
          }))}
        />
      </div>
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
          <div className="device-stats__totals" data-testid="device-stats-total">
            <span>{t("deviceStats.total", { value: volume(data.totalWaterL) })}</span>
            <span>
              {t("deviceStats.regenerations")} {data.totalRegenerations}
            </span>
            <span>{t("device.kilograms", { value: number.format(data.totalSaltKg) })}</span>
          </div>
          {/* The drawings, their titles and their loading text: the tables below say the same to assistive technology. */}
          <div
            ref={charts.ref}
            className="device-charts"
            data-testid="device-charts"
            data-shown={charts.near}
            aria-hidden="true"
          >
            {charts.near ? (
              <Suspense fallback={loadingChart}>
                {list.map((chart) => (
                  <Fragment key={chart.testId}>
                    <div className="device-chart__title">{chart.title}</div>
                    <FlowChart
                      points={chart.points}
                      metric={chart.metric}
                      color={chart.color}
                      hourly={data.hourly}
                      locale={locale}
                      testId={chart.testId}
                    />
                  </Fragment>
                ))}
              </Suspense>
            ) : (
              loadingChart
            )}
          </div>
          <div className="visually-hidden" data-testid="device-chart-tables">
            {list.map((chart) => (
              <ChartTable key={chart.testId} chart={chart} period={period} hourly={data.hourly} locale={locale} />
            ))}
          </div>
        </>
      ) : null}
    </section>
  );
}

/** The regeneration timeline: each cycle with duration, water and salt; deviating cycles and stations flagged. */
export function CyclesSection({ deviceId }: { deviceId: string }) {
  const { t, i18n } = useTranslation();
  const { volume } = useVolume();
  const cycles = useRegenerationCycles(deviceId).data?.items ?? [];
  if (cycles.length === 0) return null;
  const locale = intlLocale(i18n.language);
  const number = numberFormat(locale, { maximumFractionDigits: 1 });
  const when = dateTimeFormat(locale, {
    month: "numeric",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  });
  return (
    <section className="device-section" data-testid="device-timeline">
      <h2 className="device-section__title">{t("deviceStats.timeline")}</h2>
      {cycles.slice(0, 8).map((c) => (
        <div
          key={c.startTime}
          className={`device-timeline__item${c.deviates ? " device-timeline__item--deviating" : ""}`}
          data-testid="device-cycle"
          data-deviating={c.deviates ? "true" : "false"}
        >
          <div className="device-timeline__row">
            <span>{when.format(new Date(c.startTime))}</span>
            <span>
              {t("deviceStats.cycle", {
                minutes: c.durationSeconds === null ? "—" : Math.round(c.durationSeconds / 60),
                water: c.waterL === null ? "—" : volume(c.waterL),
                salt: number.format(c.saltKg),
              })}
            </span>
          </div>
          {c.deviates ? (
            <div className="device-timeline__flag">
              {t("deviceStats.deviating")}
              {c.stations
                .filter((s) => s.deviates)
                .map((s) => (
                  <span key={s.startTime} className="device-timeline__station">
                    {`${t(`station.${s.station}` as "station.0")} ${formatCountdown(s.durationSeconds)}${
                      s.expectedSeconds === null ? "" : ` / ${formatCountdown(s.expectedSeconds)}`
                    }`}
                  </span>
                ))}
            </div>
          ) : null}
        </div>
      ))}
    </section>
  );
}
