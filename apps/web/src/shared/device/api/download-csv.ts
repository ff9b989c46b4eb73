import { CSV_TOTAL_ROWS_HEADER, deviceFlowStatisticsCsv, type TFlowStatisticsCsvQuery } from "@aquapilot/contract/wire";
import { saveBlob } from "../../api/save-file.ts";
import { apiStream } from "../../api/stream.ts";
import { announcedRows, CsvLineCounter, exportPercent } from "../csv-progress.ts";

/** How far a CSV export is: data rows and bytes received, the rows announced (null: unknown) and the percent. */
export interface CsvExportProgress {
  rows: number;
  totalRows: number | null;
  bytes: number;
  /** Percent with one decimal (spec §9), null while the total is unknown. */
  percent: number | null;
}

/**
 * Downloads the CSV export (owners' data) through `apiStream()`, showing its progress, and saves it as a file once
 * complete: `onProgress` follows every piece with the rows so far against the server's `X-Total-Rows`.
 * Resolves with the data rows saved and the file name (the server's, else `water-<granularity>.csv`).
 * Errors: ApiError from the client (the server's message in the user's language, code -2 on a lost connection);
 * an AbortError when `signal` aborts (nothing is saved).
 */
export async function downloadCsv(
  query: TFlowStatisticsCsvQuery,
  options: { signal?: AbortSignal; onProgress?: (progress: CsvExportProgress) => void } = {},
): Promise<{ rows: number; fileName: string }> {
  const counter = new CsvLineCounter();
  let totalRows: number | null = null;
  const result = await apiStream(deviceFlowStatisticsCsv, {
    query,
    signal: options.signal,
    onResponse: (headers) => {
      totalRows = announcedRows(headers.get(CSV_TOTAL_ROWS_HEADER));
    },
    onChunk: (chunk, progress) => {
      counter.push(chunk);
      const rows = counter.dataRows();
      options.onProgress?.({ rows, totalRows, bytes: progress.loaded, percent: exportPercent(rows, totalRows) });
    },
  });
  const fileName = result.fileName ?? `water-${query.granularity ?? "raw"}.csv`;
  saveBlob(result.blob, fileName);
  return { rows: counter.dataRows(true), fileName };
}
