import { act, fireEvent, isInaccessible, screen, waitFor, within } from "@testing-library/react";
import type uPlot from "uplot";
import { describe, expect, it, vi } from "vitest";
import { renderScreen } from "../../../shared/testing/render.tsx";
import { StatsSection } from "./stats-section.tsx";

/** What each chart handed to uPlot: the box it draws in, its options and its [times s, values] data. */
const drawn = vi.hoisted(() => ({ plots: [] as Array<{ el: HTMLElement; opts: uPlot.Options; data: number[][] }> }));

// happy-dom's canvas has no 2D context: a stand-in uPlot records what the chart would draw.
vi.mock("uplot", () => {
  class FakePlot {
    static paths = {};
    constructor(opts: uPlot.Options, data: number[][], el: HTMLElement) {
      drawn.plots.push({ el, opts, data });
    }
    setSize() {}
    destroy() {}
  }
  return { default: FakePlot };
});

/** A bucket start at local midnight (or a local hour) of May 2026, as the server sends it (ISO UTC). */
const at = (day: number, hour = 0) => new Date(2026, 4, day, hour).toISOString();

/** The answer of device-flow-statistics with these buckets (daily, or hourly for the day view). */
function statistics(
  reportTimeType: number,
  buckets: Array<{ start: string; waterL: number; regenerations: number; saltKg: number }>,
) {
  return {
    deviceId: "d1",
    reportTimeType,
    from: buckets[0]?.start,
    to: buckets[buckets.length - 1]?.start,
    bucket: reportTimeType === 3 ? "hour" : "day",
    buckets,
    totals: { waterL: 1, regenerations: 1, saltKg: 1 },
    lastReportTime: null,
    clockDriftSeconds: null,
  };
}

const WEEK = statistics(2, [
  { start: at(4), waterL: 1234.5, regenerations: 1, saltKg: 0.45 },
  { start: at(5), waterL: 312.4, regenerations: 0, saltKg: 0 },
  { start: at(6), waterL: 12.44, regenerations: 2, saltKg: 1.2 },
  { start: at(7), waterL: 0, regenerations: 0, saltKg: 0 },
]);

const DAY = statistics(3, [
  { start: at(7, 13), waterL: 6, regenerations: 0, saltKg: 0 },
  { start: at(7, 14), waterL: 378.5411784, regenerations: 1, saltKg: 0.45 },
  { start: at(7, 15), waterL: 0, regenerations: 0, saltKg: 0 },
]);

/** Renders the statistics section for device d1 in `language` and `volumeUnit`, answering week and day statistics. */
async function renderStats(language: "en" | "fr", volumeUnit: "L" | "gal") {
  return renderScreen(<StatsSection deviceId="d1" />, {
    language,
    api: {
      getUnitPreferences: { volumeUnit, hardnessUnit: "mgL" },
      deviceFlowStatistics: (call) => ((call.body as { reportTimeType: number }).reportTimeType === 3 ? DAY : WEEK),
    },
  });
}

/** A table as read: its accessible name (the caption), column headers, and each row as [row header, cell]. */
function readTable(table: HTMLElement) {
  const t = within(table);
  return {
    name: table.querySelector("caption")?.textContent,
    columns: t.getAllByRole("columnheader").map((th) => th.textContent),
    rows: t
      .getAllByRole("row")
      .slice(1)
      .map((row) => [within(row).getByRole("rowheader").textContent, within(row).getByRole("cell").textContent]),
  };
}

/** The drawing of the chart with test id `testId` and what it handed to uPlot. */
function plotOf(testId: string) {
  const el = screen.getByTestId(testId);
  const plot = drawn.plots.filter((p) => p.el === el).at(-1);
  if (!plot) throw new Error(`${testId} was not drawn`);
  return { el, plot };
}

/** The labels the chart's axis `index` (0 time, 1 value) writes for `values`. */
function axisLabels(plot: uPlot.Options, index: number, values: number[]): string[] {
  const format = plot.axes?.[index]?.values as (u: uPlot, splits: number[]) => string[];
  return format({} as uPlot, values);
}

describe("StatsSection: each chart has a table of the same figures for screen readers", () => {
  it("reads the week's charts as tables in English (litres), present before the drawings load", async () => {
    // Charts draw only when their place scrolls into view; this observer never reports it.
    vi.stubGlobal(
      "IntersectionObserver",
      class {
        observe() {}
        disconnect() {}
      },
    );
    await renderStats("en", "L");
    const water = await screen.findByRole("table", { name: "Water used (L): this week, by day" });
    expect(screen.getByTestId("device-charts").dataset.shown).toBe("false");
    expect(readTable(water)).toEqual({
      name: "Water used (L): this week, by day",
      columns: ["Date", "Water used (L)"],
      rows: [
        ["5/4", "1,235"],
        ["5/5", "312"],
        ["5/6", "12.4"],
        ["5/7", "0"],
      ],
    });
    expect(readTable(screen.getByRole("table", { name: "Regenerations: this week, by day" }))).toEqual({
      name: "Regenerations: this week, by day",
      columns: ["Date", "Regenerations"],
      rows: [
        ["5/4", "1"],
        ["5/5", "0"],
        ["5/6", "2"],
        ["5/7", "0"],
      ],
    });
    expect(readTable(screen.getByRole("table", { name: "Salt used (kg): this week, by day" }))).toEqual({
      name: "Salt used (kg): this week, by day",
      columns: ["Date", "Salt used (kg)"],
      rows: [
        ["5/4", "0.45"],
        ["5/5", "0"],
        ["5/6", "1.2"],
        ["5/7", "0"],
      ],
    });
    expect(screen.getAllByRole("table")).toHaveLength(3);
    // Read by screen readers, not drawn: the tables sit in the visually hidden box.
    expect(screen.getByTestId("device-chart-tables").className).toBe("visually-hidden");
    // The loading text stands for the drawings, which assistive technology skips.
    expect(isInaccessible(screen.getByText("Loading chart…"))).toBe(true);
  });

  it("hides the drawings from assistive technology and tables exactly what each one draws", async () => {
    vi.stubGlobal("IntersectionObserver", undefined);
    drawn.plots = [];
    await renderStats("en", "L");
    await waitFor(() => expect(screen.getByTestId("chart-salt")).toBeTruthy());
    for (const [testId, name] of [
      ["chart-water", "Water used (L): this week, by day"],
      ["chart-regenerations", "Regenerations: this week, by day"],
      ["chart-salt", "Salt used (kg): this week, by day"],
    ] as const) {
      const { el, plot } = plotOf(testId);
      expect(el.getAttribute("aria-hidden"), testId).toBe("true");
      expect(isInaccessible(el), testId).toBe(true);
      const [times = [], values = []] = plot.data;
      const rows = readTable(screen.getByRole("table", { name })).rows;
      // One row per bar, labelled as the time axis labels that bar.
      expect(
        rows.map((row) => row[0]),
        testId,
      ).toEqual(axisLabels(plot.opts, 0, times));
      expect(
        rows.map((row) => Number((row[1] ?? "").replace(/,/g, ""))),
        testId,
      ).toEqual(values.map((v) => (testId === "chart-water" ? Number(v.toFixed(v >= 100 ? 0 : 1)) : v)));
    }
    // The titles above the drawings are in the tables' captions and headers: read once, not twice.
    expect(screen.queryByText("Water used (L)", { selector: ".device-chart__title" })).not.toBeNull();
    expect(isInaccessible(screen.getByText("Water used (L)", { selector: ".device-chart__title" }))).toBe(true);
  });

  it("reads the day's charts by hour in French, in gallons, with French numbers on the tables and the value axis", async () => {
    vi.stubGlobal("IntersectionObserver", undefined);
    drawn.plots = [];
    await renderStats("fr", "gal");
    await screen.findByRole("table", { name: "Eau consommée (gal) : cette semaine, par jour" });
    await act(async () => {
      fireEvent.click(screen.getByText("Jour"));
    });
    const water = await screen.findByRole("table", { name: "Eau consommée (gal) : aujourd'hui, par heure" });
    expect(readTable(water)).toEqual({
      name: "Eau consommée (gal) : aujourd'hui, par heure",
      columns: ["Heure", "Eau consommée (gal)"],
      rows: [
        ["13:00", "1,6"],
        ["14:00", "100"],
        ["15:00", "0"],
      ],
    });
    expect(readTable(screen.getByRole("table", { name: "Régénérations : aujourd'hui, par heure" }))).toEqual({
      name: "Régénérations : aujourd'hui, par heure",
      columns: ["Heure", "Régénérations"],
      rows: [
        ["13:00", "0"],
        ["14:00", "1"],
        ["15:00", "0"],
      ],
    });
    expect(readTable(screen.getByRole("table", { name: "Sel utilisé (kg) : aujourd'hui, par heure" }))).toEqual({
      name: "Sel utilisé (kg) : aujourd'hui, par heure",
      columns: ["Heure", "Sel utilisé (kg)"],
      rows: [
        ["13:00", "0"],
        ["14:00", "0,45"],
        ["15:00", "0"],
      ],
    });
    // The drawing got the same gallons, and its value axis writes French numbers as the table does.
    await waitFor(() => expect(plotOf("chart-salt").plot.data[0]).toHaveLength(3));
    const { plot } = plotOf("chart-water");
    expect(plot.data[1]?.map((v) => Number(v.toFixed(3)))).toEqual([1.585, 100, 0]);
    expect(axisLabels(plot.opts, 0, plot.data[0] ?? [])).toEqual(["13:00", "14:00", "15:00"]);
    expect(axisLabels(plotOf("chart-salt").plot.opts, 1, [0, 0.1, 0.5])).toEqual(["0", "0,1", "0,5"]);
  });
});
