import { Readable } from "node:stream";
import type { Db } from "../../db/index.ts";

/** Header lines of the CSV export with which owners take their data out. Units in the column names. */
export const CSV_HEADERS = {
  raw: "ts,total_water_l,flow_rate_lpm,interval_water_l",
  hourly: "hour_start,water_l,samples,max_flow_lpm",
} as const;

const PAGE = 2000;

function cell(v: string | number): string {
  const s = String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** What one CSV export covers: the device, `from` ≤ time < `to` (ISO UTC) and the granularity. */
export interface CsvExportInput {
  deviceId: string;
  from: string;
  to: string;
  granularity: "raw" | "hourly";
}

/**
 * How many data rows {@link telemetryCsvStream} will write for `input` as the data stands now (the header line not
 * counted): one indexed count over the same rows (primary keys device_id + ts / hour_start), announced to the app as
 * `X-Total-Rows` so its progress bar has a total although the stream has no Content-Length.
 */
export async function countCsvRows(db: Db, input: CsvExportInput): Promise<number> {
  const row =
    input.granularity === "raw"
      ? await db
          .selectFrom("device_telemetry")
          .select((eb) => eb.fn.countAll<number | string>().as("n"))
          .where("device_id", "=", input.deviceId)
          .where("ts", ">=", input.from)
          .where("ts", "<", input.to)
          .executeTakeFirstOrThrow()
      : await db
          .selectFrom("device_water_hourly")
          .select((eb) => eb.fn.countAll<number | string>().as("n"))
          .where("device_id", "=", input.deviceId)
          .where("hour_start", ">=", input.from)
          .where("hour_start", "<", input.to)
          .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Streams a device's telemetry as CSV text (UTF-8, "\n" line ends): a header line, then one line per raw telemetry
 * row (`granularity` raw) or per hourly rollup (hourly) with `from` ≤ time < `to` (ISO UTC), oldest first. Rows are
 * read in keyset pages of 2 000, so a year of per-minute data is never held in memory.
 */
export function telemetryCsvStream(db: Db, input: CsvExportInput): Readable {
  async function* lines(): AsyncGenerator<string> {
    yield `${CSV_HEADERS[input.granularity]}\n`;
    let after: string | null = null;
    for (;;) {
      let chunk = "";
      let last: string | null = null;
      let count = 0;
      if (input.granularity === "raw") {
        let q = db
          .selectFrom("device_telemetry")
          .select(["ts", "total_water_l", "flow_rate_lpm", "interval_water_l"])
          .where("device_id", "=", input.deviceId)
          .where("ts", ">=", input.from)
          .where("ts", "<", input.to)
          .orderBy("ts")
          .limit(PAGE);
        if (after) q = q.where("ts", ">", after);
        const rows = await q.execute();
        for (const r of rows) {
          chunk += `${[r.ts, r.total_water_l, r.flow_rate_lpm, r.interval_water_l].map(cell).join(",")}\n`;
          last = r.ts;
        }
        count = rows.length;
      } else {
        let q = db
          .selectFrom("device_water_hourly")
          .select(["hour_start", "water_l", "samples", "max_flow_lpm"])
          .where("device_id", "=", input.deviceId)
          .where("hour_start", ">=", input.from)
          .where("hour_start", "<", input.to)
          .orderBy("hour_start")
          .limit(PAGE);
        if (after) q = q.where("hour_start", ">", after);
        const rows = await q.execute();
        for (const r of rows) {
          chunk += `${[r.hour_start, r.water_l, r.samples, r.max_flow_lpm].map(cell).join(",")}\n`;
          last = r.hour_start;
        }
        count = rows.length;
      }
      if (chunk) yield chunk;
      if (count < PAGE) return;
      after = last;
    }
  }
  return Readable.from(lines());
}
