import { describe, expect, it } from "vitest";
import { announcedRows, CsvLineCounter, exportPercent, formatBytes } from "./csv-progress.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

/** Feeds `text` to a fresh counter cut into pieces at every position in `cuts`. */
function countIn(text: string, cuts: number[]): CsvLineCounter {
  const counter = new CsvLineCounter();
  const all = bytes(text);
  let at = 0;
  for (const cut of [...cuts, all.length]) {
    counter.push(all.slice(at, cut));
    at = cut;
  }
  return counter;
}

describe("CSV rows counted as the export streams", () => {
  it("counts data rows (header line excluded) wherever the pieces are cut", () => {
    const text = "hour_start,water_l\n2026-01-01T00:00:00.000Z,1.5\n2026-01-01T01:00:00.000Z,2\n";
    for (let cut = 0; cut <= text.length; cut++) {
      expect(countIn(text, [cut]).dataRows(true), `cut at ${cut}`).toBe(2);
    }
    const counter = countIn(text, [25]);
    expect(counter.dataRows()).toBe(2);
  });

  it("a quoted cell with a line break or quotes stays one row, also split across pieces", () => {
    const text = 'a,b\n"line\none",2\n"say ""hi""\n",3\n';
    expect(countIn(text, [7, 12, 20]).dataRows(true)).toBe(2);
  });

  it("while streaming only complete lines count; at the end a last line without line feed counts too", () => {
    const counter = countIn("a\n1\n2", []);
    expect(counter.dataRows()).toBe(1);
    expect(counter.dataRows(true)).toBe(2);
    expect(new CsvLineCounter().dataRows(true)).toBe(0);
    expect(countIn("a", []).dataRows(true)).toBe(0);
    expect(countIn("a\r\n1\r\n", [2]).dataRows(true)).toBe(1);
  });

  it("multi-byte text is counted by its line feeds only", () => {
    const text = "名称,值\n水,1\n盐,2\n";
    const all = bytes(text);
    for (let cut = 0; cut <= all.length; cut++) {
      const counter = new CsvLineCounter();
      counter.push(all.slice(0, cut));
      counter.push(all.slice(cut));
      expect(counter.dataRows(true)).toBe(2);
    }
  });
});

describe("percent with one decimal (spec §9)", () => {
  it("is rows against the announced total, rounded to one decimal, within 0–100", () => {
    expect(exportPercent(120, 168)).toBe(71.4);
    expect(exportPercent(1, 3)).toBe(33.3);
    expect(exportPercent(2, 3)).toBe(66.7);
    expect(exportPercent(0, 168)).toBe(0);
    expect(exportPercent(170, 168)).toBe(100);
    expect(exportPercent(0, 0)).toBe(100);
    expect(exportPercent(5, null)).toBeNull();
  });

  it("reads the X-Total-Rows header only when it is a whole number", () => {
    expect(announcedRows("168")).toBe(168);
    expect(announcedRows(" 0 ")).toBe(0);
    expect(announcedRows("-1")).toBeNull();
    expect(announcedRows("1e3")).toBeNull();
    expect(announcedRows("")).toBeNull();
    expect(announcedRows(null)).toBeNull();
  });

  it("bytes read in the language's units", () => {
    expect(formatBytes(0, "en")).toBe("0 kB");
    expect(formatBytes(450, "en")).toBe("0.5 kB");
    expect(formatBytes(8240, "en")).toBe("8.2 kB");
    expect(formatBytes(2_500_000, "en")).toBe("2.5 MB");
    expect(formatBytes(8240, "fr").replace(/[\u00a0\u202f]/g, " ")).toBe("8,2 ko");
  });
});
