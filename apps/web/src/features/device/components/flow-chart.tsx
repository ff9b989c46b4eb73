import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import type { FlowPoint } from "../../../shared/device/api/get-flow-statistics.ts";
import { axisLabelFormat, bucketLabelFormat, type ChartMetric, valueAxis } from "../logic/chart-axis.ts";

/**
 * Props of {@link FlowChart}: the buckets (start as ISO time; water already in the owner's volume unit), which figure
 * to draw, its colour (#rrggbb), the kind of buckets and the interface language's Intl locale (e.g. "zh-CN").
 */
export interface FlowChartProps {
  points: FlowPoint[];
  metric: ChartMetric;
  color: string;
  /** Hourly buckets (day view) label the axis with hours, else with dates. */
  hourly: boolean;
  locale: string;
  testId?: string;
}

/**
 * A bar chart of one statistics series drawn by uPlot (uPlot loads only with the statistics: this module
 * is imported dynamically by the statistics section). Resizes with its container. Its value axis covers the tallest
 * bar with round gridlines, whole numbers for regenerations ({@link valueAxis}); both axes label in the interface
 * language. The drawing is hidden from assistive technology: its text alternative is the table of the same points
 * the statistics section shows beside it.
 */
function FlowChart({ points, metric, color, hourly, locale, testId }: FlowChartProps) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const xs = points.map((p) => Date.parse(p.time) / 1000);
    const ys = points.map((p) => p[metric]);
    const axis = valueAxis(Math.max(0, ...ys), metric === "regenerations");
    const step = xs.length > 1 ? xs[1] - xs[0] : hourly ? 3600 : 86_400;
    const format = bucketLabelFormat(locale, hourly);
    const number = axisLabelFormat(locale, axis.step);
    const rem = Number.parseFloat(getComputedStyle(document.documentElement).fontSize) || 37.5;
    const font = `${Math.round(rem * 0.28)}px sans-serif`;
    const opts: uPlot.Options = {
      width: Math.max(200, el.clientWidth),
      height: Math.round(rem * 4),
      legend: { show: false },
      cursor: { show: true, drag: { x: false, y: false } },
      scales: {
        x: {
          time: true,
          // half a bucket of room on both sides so the first and last bars are drawn whole
          range: (_u, min, max) => [min - step / 2, max + step / 2],
        },
        y: { range: () => [0, axis.top] },
      },
      axes: [
        {
          font,
          stroke: "#6b7483",
          grid: { show: false },
          size: rem * 0.9,
          values: (_u, splits) => splits.map((s) => format.format(new Date(s * 1000))),
        },
        {
          font,
          stroke: "#6b7483",
          grid: { stroke: "#eef1f4" },
          size: rem * 1.3,
          splits: () => axis.ticks,
          values: (_u, splits) => splits.map((s) => number.format(s)),
        },
      ],
      series: [
        {},
        {
          stroke: color,
          fill: `${color}cc`,
          width: 0,
          paths: uPlot.paths.bars?.({ size: [0.7, 24] }),
          points: { show: false },
        },
      ],
    };
    const chart = new uPlot(opts, [xs, ys], el);
    const observer = new ResizeObserver(() =>
      chart.setSize({ width: Math.max(200, el.clientWidth), height: opts.height }),
    );
    observer.observe(el);
    return () => {
      observer.disconnect();
      chart.destroy();
    };
  }, [points, metric, color, hourly, locale]);
  return <div ref={box} className="device-chart" data-testid={testId} data-points={points.length} aria-hidden="true" />;
}

export default FlowChart;
