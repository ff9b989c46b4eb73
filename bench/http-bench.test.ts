import { describe, expect, it } from "vitest";
import { type LoadResult, medianLoad } from "./http-bench.ts";

const run = (rps: number, p50: number, p99: number, extra: Partial<LoadResult> = {}): LoadResult => ({
  url: "http://127.0.0.1:1/x",
  requestsPerSec: rps,
  p50Ms: p50,
  p99Ms: p99,
  total: 100,
  non2xx: 0,
  errors: 0,
  ...extra,
});

describe("medianLoad", () => {
  it("takes each figure's median on its own and sums the counts", () => {
    const m = medianLoad([run(3000, 15, 40), run(6000, 6, 20, { non2xx: 2 }), run(4000, 9, 31, { errors: 1 })]);
    expect(m).toEqual({
      url: "http://127.0.0.1:1/x",
      requestsPerSec: 4000,
      p50Ms: 9,
      p99Ms: 31,
      total: 300,
      non2xx: 2,
      errors: 1,
    });
  });

  it("refuses no runs", () => {
    expect(() => medianLoad([])).toThrow(/no runs/);
  });
});
