import { numberFormat } from "../format/intl.ts";

/**
 * Progress of the CSV export: the export streams without a Content-Length, so progress is counted
 * in CSV rows as they arrive, against the rows the server announced (`X-Total-Rows`) when it did; the percent has one
 * decimal (spec §9 "Progress percent with one decimal").
 */

const NEWLINE = 0x0a;
const QUOTE = 0x22;

/**
 * Counts the lines of CSV text fed to it in pieces of bytes (RFC 4180): a line ends at a line feed outside quotes, so
 * a quoted cell holding a line break stays one row, and a piece may end anywhere (inside a quoted cell, between
 * "\r" and "\n", inside a UTF-8 character: only the ASCII bytes `"` and LF matter, and they never occur inside a
 * multi-byte UTF-8 sequence).
 */
export class CsvLineCounter {
  private complete = 0;
  private inQuotes = false;
  private pending = false;

  /** Feeds the next piece of the body. */
  push(piece: Uint8Array): void {
    for (const byte of piece) {
      if (byte === QUOTE) this.inQuotes = !this.inQuotes;
      if (byte === NEWLINE && !this.inQuotes) {
        this.complete += 1;
        this.pending = false;
      } else {
        this.pending = true;
      }
    }
  }

  /**
   * Data rows so far: complete lines minus the header line. With `final` (the body has ended) a last line without
   * its line feed counts too. Never below 0.
   */
  dataRows(final = false): number {
    const lines = this.complete + (final && this.pending ? 1 : 0);
    return Math.max(0, lines - 1);
  }
}

/** The row total a `X-Total-Rows` header announces: a non-negative whole number, else null (no total). */
export function announcedRows(header: string | null): number | null {
  if (header === null || !/^\d+$/.test(header.trim())) return null;
  return Number(header.trim());
}

/**
 * Percent of the export done, rounded to one decimal and kept within 0–100 (rows may outgrow the total when data
 * arrives while the export streams); null without a total. An empty export (total 0) is 100 % done.
 */
export function exportPercent(rows: number, totalRows: number | null): number | null {
  if (totalRows === null) return null;
  if (totalRows <= 0) return 100;
  const percent = Math.round((rows / totalRows) * 1000) / 10;
  return Math.min(100, Math.max(0, percent));
}

/** Intl locale of an interface language. */
function intlLocale(lang: string): string {
  return lang === "zh-Hans" ? "zh-CN" : lang;
}

/** A byte count in the language's units: kB below 1 MB, then MB (1000-based), one decimal at most. */
export function formatBytes(bytes: number, lang: string): string {
  const [value, unit] = bytes < 1_000_000 ? [bytes / 1000, "kilobyte"] : [bytes / 1e6, "megabyte"];
  return numberFormat(intlLocale(lang), {
    style: "unit",
    unit,
    unitDisplay: "short",
    maximumFractionDigits: 1,
  }).format(value);
}
