import { describe, expect, it } from "vitest";
import { median } from "./stats.ts";
import { medianMetrics, metricsOf, statisticsAfterLive, withRetry } from "./web-bench.ts";

/** A minimal Lighthouse result with the audits the web benchmark reads. */
function lhr(opts: { score?: number | null; lcp?: number; scriptBytes?: number; runtimeError?: boolean }) {
  const audit = (v: number | undefined) => ({ numericValue: v });
  return {
    finalDisplayedUrl: "http://127.0.0.1/#/login",
    runtimeError: opts.runtimeError ? { code: "NO_FCP", message: "no paint" } : undefined,
    categories: { performance: { score: opts.score === undefined ? 0.57 : opts.score } },
    audits: {
      "largest-contentful-paint": audit(opts.lcp),
      "total-blocking-time": audit(170),
      "first-contentful-paint": audit(900),
      interactive: audit(1900),
      "total-byte-weight": audit(500_000),
      "resource-summary": {
        details: {
          items: [
            { resourceType: "total", transferSize: 500_000 },
            ...(opts.scriptBytes === undefined ? [] : [{ resourceType: "script", transferSize: opts.scriptBytes }]),
          ],
        },
      },
    },
  } as unknown as Parameters<typeof metricsOf>[0];
}

describe("web benchmark figures", () => {
  it("medians: middle value, mean of the middle two, error when empty", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(() => median([])).toThrow(RangeError);
  });

  it("takes each metric's median on its own", () => {
    const base = { score: 50, lcpMs: 1000, tbtMs: 10, fcpMs: 800, ttiMs: 1500, totalBytes: 100, jsBytes: 50 };
    const m = medianMetrics([
      { ...base, score: 90, lcpMs: 3000 },
      { ...base, score: 40, lcpMs: 1000 },
      { ...base, score: 60, lcpMs: 2000 },
    ]);
    expect(m.score).toBe(60);
    expect(m.lcpMs).toBe(2000);
  });

  it("reads score, times and script bytes from a Lighthouse result", () => {
    expect(metricsOf(lhr({ lcp: 7400, scriptBytes: 333_000 }))).toEqual({
      score: 57,
      lcpMs: 7400,
      tbtMs: 170,
      fcpMs: 900,
      ttiMs: 1900,
      totalBytes: 500_000,
      jsBytes: 333_000,
    });
    expect(metricsOf(lhr({ lcp: 700 })).jsBytes).toBe(0);
  });

  it("refuses a run without LCP, score, or with a runtime error", () => {
    expect(() => metricsOf(lhr({}))).toThrow(/no largest-contentful-paint/);
    expect(() => metricsOf(lhr({ lcp: 1, score: null }))).toThrow(/no performance score/);
    expect(() => metricsOf(lhr({ lcp: 1, runtimeError: true }))).toThrow(/NO_FCP/);
  });

  it("runs again only when Lighthouse failed to record its trace, and at most three times", async () => {
    const navstart = new Error("Lighthouse: NO_NAVSTART Something went wrong with recording the trace");
    const wrongScreen = new Error("the login run did not show the Login screen (#/index/home)");
    /** Runs withRetry over a run that throws `errors` in turn, then answers "ok"; gives the outcome and the tries. */
    const tries = async (errors: Error[]) => {
      let calls = 0;
      const outcome = await withRetry(async () => {
        const error = errors[calls++];
        if (error) throw error;
        return "ok";
      }, "login").catch((error: unknown) => error);
      return { outcome, calls };
    };
    expect(await tries([navstart, navstart])).toEqual({ outcome: "ok", calls: 3 });
    expect(await tries([navstart, navstart, navstart])).toEqual({ outcome: navstart, calls: 3 });
    expect(await tries([wrongScreen])).toEqual({ outcome: wrongScreen, calls: 1 });
  });

  it("tells whether the Device screen asked for its statistics only after its live figures answered", () => {
    const live = "http://127.0.0.1/api/run-lucky/device/app/device-control/query-device-info?deviceId=d1";
    const stats = "http://127.0.0.1/api/run-lucky/device/app/device/device-flow-statistics";
    const run = (items: Array<{ url: string; networkRequestTime?: number; networkEndTime?: number }>) =>
      statisticsAfterLive({ audits: { "network-requests": { details: { items } } } } as never);
    expect(
      run([
        { url: live, networkRequestTime: 100, networkEndTime: 400 },
        { url: stats, networkRequestTime: 420, networkEndTime: 600 },
      ]),
    ).toBe(true);
    expect(
      run([
        { url: stats, networkRequestTime: 120, networkEndTime: 600 },
        { url: live, networkRequestTime: 100, networkEndTime: 400 },
      ]),
    ).toBe(false);
    expect(run([{ url: live, networkRequestTime: 100, networkEndTime: 400 }])).toBeNull();
  });
});
