import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { trickle } from "../../../shared/api/testing/fake-fetch.ts";
import { type CsvExportProgress, downloadCsv } from "../../../shared/device/api/download-csv.ts";
import { i18n } from "../../../shared/i18n/index.ts";

/** What the page saved: the clicked download links (the browser's download), with their blob. */
function watchDownloads() {
  const saved: Array<{ name: string; blob: Blob }> = [];
  const blobs = new Map<string, Blob>();
  let n = 0;
  vi.spyOn(URL, "createObjectURL").mockImplementation((blob: Blob | MediaSource) => {
    const url = `blob:test/${++n}`;
    blobs.set(url, blob as Blob);
    return url;
  });
  vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => {});
  const click = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ name: this.download, blob: blobs.get(this.getAttribute("href") ?? "") as Blob });
  });
  return { saved, restore: () => click.mockRestore() };
}

const query = {
  deviceId: "d1",
  from: "2026-01-01T00:00:00.000Z",
  to: "2026-01-08T00:00:00.000Z",
  granularity: "hourly",
} as const;

beforeEach(async () => {
  localStorage.clear();
  await i18n.changeLanguage("en");
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("the CSV export with progress", () => {
  it("counts rows against X-Total-Rows as pieces arrive, then saves the whole file under the server's name", async () => {
    const body = trickle(["hour_start,water_l\n2026-01-01T00:00", ":00.000Z,1\n2026-01-01T01:00:00.000Z,2\n", "x,3\n"]);
    const calls: string[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) => {
        calls.push(url);
        return new Response(body.stream, {
          headers: {
            "content-type": "text/csv; charset=utf-8",
            "content-disposition": 'attachment; filename="water-hourly.csv"',
            "x-total-rows": "3",
          },
        });
      }),
    );
    const { saved } = watchDownloads();
    const seen: CsvExportProgress[] = [];
    const done = downloadCsv(query, { onProgress: (p) => seen.push(p) });
    body.next();
    await vi.waitFor(() => expect(seen).toHaveLength(1));
    // Half a row arrived: nothing counted yet, and nothing saved before the end.
    expect(seen[0]).toEqual({ rows: 0, totalRows: 3, bytes: 35, percent: 0 });
    expect(saved).toEqual([]);
    body.next();
    body.next();
    body.next();
    await expect(done).resolves.toEqual({ rows: 3, fileName: "water-hourly.csv" });
    expect(seen.map((p) => [p.rows, p.percent])).toEqual([
      [0, 0],
      [2, 66.7],
      [3, 100],
    ]);
    expect(saved).toHaveLength(1);
    expect(saved[0].name).toBe("water-hourly.csv");
    expect(await saved[0].blob.text()).toBe(
      "hour_start,water_l\n2026-01-01T00:00:00.000Z,1\n2026-01-01T01:00:00.000Z,2\nx,3\n",
    );
    expect(calls[0]).toBe(
      "/api/run-lucky/device/app/device/device-flow-statistics/export.csv?deviceId=d1&from=2026-01-01T00%3A00%3A00.000Z&to=2026-01-08T00%3A00%3A00.000Z&granularity=hourly",
    );
  });

  it("without a total there is no percent; cancelled midway nothing is saved", async () => {
    const body = trickle(["a\n1\n"]);
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response(body.stream, { headers: { "content-type": "text/csv" } })),
    );
    const { saved } = watchDownloads();
    const controller = new AbortController();
    const seen: CsvExportProgress[] = [];
    const done = downloadCsv(query, { signal: controller.signal, onProgress: (p) => seen.push(p) });
    body.next();
    await vi.waitFor(() => expect(seen).toEqual([{ rows: 1, totalRows: null, bytes: 4, percent: null }]));
    controller.abort();
    await expect(done).rejects.toMatchObject({ name: "AbortError" });
    expect(saved).toEqual([]);
  });

  it("a refusal is the server's message in the user's language; nothing is saved", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(
        async () =>
          new Response(JSON.stringify({ success: false, error: { code: "Forbidden", message: "Доступ запрещён" } }), {
            status: 403,
          }),
      ),
    );
    const { saved } = watchDownloads();
    await expect(downloadCsv(query)).rejects.toMatchObject({ status: 403, message: "Доступ запрещён" });
    expect(saved).toEqual([]);
  });
});
