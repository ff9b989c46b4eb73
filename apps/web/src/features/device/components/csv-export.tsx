import type { TFlowStatisticsCsvQuery } from "@aquapilot/contract/wire";
import { ProgressBar } from "antd-mobile";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../../shared/api/errors.ts";
import { type CsvExportProgress, downloadCsv } from "../../../shared/device/api/download-csv.ts";
import { formatBytes } from "../../../shared/device/csv-progress.ts";
import { formatPercent } from "../../../shared/format/percent.ts";
import { toast } from "../../../shared/ui/index.ts";
import "./csv-export.css";
import { numberFormat } from "../../../shared/format/intl.ts";

/** What the export is doing: nothing, or streaming with its progress so far. */
export type CsvExportState = { status: "idle" } | { status: "running"; progress: CsvExportProgress };

/** The export's state and its two actions, shared by the button and the progress panel. */
export interface CsvExportControl {
  state: CsvExportState;
  /** Starts an export of `query` (ignored while one runs: one export at a time). */
  start(query: TFlowStatisticsCsvQuery): void;
  /** Cancels the running export; nothing is saved. */
  cancel(): void;
}

/** Intl locale of an interface language. */
const intlLocale = (lang: string) => (lang === "zh-Hans" ? "zh-CN" : lang);

const STARTING: CsvExportProgress = { rows: 0, totalRows: null, bytes: 0, percent: null };

/**
 * The CSV export with progress of the Device screen: one export at a time, streamed through
 * `apiStream()`, saved as a file at the end; the outcome is a toast in the user's language (saved with its row
 * count, cancelled, or the error). Leaving the screen cancels a running export silently.
 */
export function useCsvExport(): CsvExportControl {
  const { t, i18n } = useTranslation();
  const [state, setState] = useState<CsvExportState>({ status: "idle" });
  const running = useRef<AbortController | null>(null);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      running.current?.abort();
    };
  }, []);

  const start = useCallback(
    (query: TFlowStatisticsCsvQuery) => {
      if (running.current) return;
      const controller = new AbortController();
      running.current = controller;
      setState({ status: "running", progress: STARTING });
      downloadCsv(query, {
        signal: controller.signal,
        onProgress: (progress) => {
          if (mounted.current && running.current === controller) setState({ status: "running", progress });
        },
      })
        .then(({ rows }) => {
          if (!mounted.current) return;
          const number = numberFormat(intlLocale(i18n.language));
          toast(t("deviceCsv.saved", { count: rows, rows: number.format(rows) }));
        })
        .catch((err: unknown) => {
          if (!mounted.current) return;
          if ((err as { name?: unknown })?.name === "AbortError") toast(t("deviceCsv.cancelled"));
          else toast(errorMessage(err, t("deviceCsv.failed")));
        })
        .finally(() => {
          if (running.current === controller) running.current = null;
          if (mounted.current) setState({ status: "idle" });
        });
    },
    [t, i18n],
  );

  const cancel = useCallback(() => running.current?.abort(), []);
  return { state, start, cancel };
}

/** The "Export CSV" link of the statistics head; disabled while an export runs (test id `device-stats-csv`). */
export function CsvExportButton({ control, query }: { control: CsvExportControl; query: TFlowStatisticsCsvQuery }) {
  const { t } = useTranslation();
  const busy = control.state.status === "running";
  return (
    <button
      type="button"
      className="device-link"
      onClick={() => control.start(query)}
      disabled={busy}
      aria-busy={busy}
      data-testid="device-stats-csv"
    >
      {t("deviceStats.exportCsv")}
    </button>
  );
}

/**
 * The running export's panel: rows received (of the announced total), bytes, a bar, the percent with one decimal
 * when the total is known (spec §9), and Cancel. Nothing while idle.
 * Test ids: `device-csv-progress` (data-rows, data-total-rows, data-percent), `device-csv-percent`,
 * `device-csv-rows`, `device-csv-cancel`.
 */
export function CsvExportProgressPanel({ control }: { control: CsvExportControl }) {
  const { t, i18n } = useTranslation();
  if (control.state.status !== "running") return null;
  const { rows, totalRows, bytes, percent } = control.state.progress;
  const lang = i18n.language;
  const number = numberFormat(intlLocale(lang));
  const rowsText =
    totalRows === null
      ? t("deviceCsv.rows", { count: rows, rows: number.format(rows) })
      : t("deviceCsv.rowsOf", { count: totalRows, rows: number.format(rows), total: number.format(totalRows) });
  return (
    <div
      className="csv-export"
      role="status"
      aria-live="polite"
      data-testid="device-csv-progress"
      data-rows={rows}
      data-total-rows={totalRows ?? ""}
      data-percent={percent ?? ""}
    >
      <div className="csv-export__head">
        <span className="csv-export__title">{t("deviceCsv.exporting")}</span>
        {percent === null ? null : (
          <span className="csv-export__percent" data-testid="device-csv-percent">
            {formatPercent(percent, lang)}
          </span>
        )}
      </div>
      {percent === null ? (
        <div className="csv-export__bar csv-export__bar--unknown" aria-hidden="true">
          <span />
        </div>
      ) : (
        <ProgressBar percent={percent} className="csv-export__bar" />
      )}
      <div className="csv-export__foot">
        <span className="csv-export__rows" data-testid="device-csv-rows">
          {`${rowsText} · ${formatBytes(bytes, lang)}`}
        </span>
        <button type="button" className="device-link" onClick={control.cancel} data-testid="device-csv-cancel">
          {t("deviceCsv.cancel")}
        </button>
      </div>
    </div>
  );
}
