import { describe, expect, it } from "vitest";
import {
  codeRequests,
  isCodeUrl,
  type RepeatVisitRun,
  readyWatcher,
  repeatVisitRows,
  type VisitFigures,
  visitMedians,
} from "./web-repeat-visit.ts";

const B = "http://127.0.0.1:4000";

/** A visit with the given figures and `network` of `code` code URLs from the network. */
function visit(fcpMs: number, readyMs: number, code: number, network: number): VisitFigures {
  const codeUrls = Array.from({ length: code }, (_, i) => `${B}/assets/c${i}.js`);
  return { fcpMs, lcpMs: fcpMs + 100, readyMs, codeUrls, codeFromNetwork: codeUrls.slice(0, network) };
}

describe("repeat visit figures", () => {
  it("code is the page, boot.js and built scripts and stylesheets; calls, images and version.json are not", () => {
    for (const u of ["/", "/index.html", "/boot.js", "/assets/app-x.js", "/assets/app-x.css", "/assets/a.mjs"])
      expect(isCodeUrl(B + u), u).toBe(true);
    for (const u of ["/api/abp/application-configuration", "/version.json", "/device-images/a.png", "/sw.js"])
      expect(isCodeUrl(B + u), u).toBe(false);
  });

  it("a response the worker answered counts as network only when the worker fetched that URL too", () => {
    const page = [
      { url: `${B}/#/index/home`, fromServiceWorker: true },
      { url: `${B}/boot.js`, fromServiceWorker: true },
      { url: `${B}/assets/app.js`, fromServiceWorker: true },
      { url: `${B}/assets/app.js`, fromServiceWorker: true },
      { url: `${B}/assets/late.js`, fromServiceWorker: true },
      { url: `${B}/assets/direct.css`, fromServiceWorker: false },
      { url: `${B}/api/x`, fromServiceWorker: false },
    ];
    const r = codeRequests(page, [`${B}/assets/late.js`, `${B}/api/y`, `${B}/assets/only-worker.js`]);
    expect(r.codeUrls).toEqual([
      `${B}/`,
      `${B}/boot.js`,
      `${B}/assets/app.js`,
      `${B}/assets/late.js`,
      `${B}/assets/direct.css`,
    ]);
    expect(r.codeFromNetwork).toEqual([`${B}/assets/late.js`, `${B}/assets/direct.css`, `${B}/assets/only-worker.js`]);
  });

  it("medians per figure (a visit that never got ready left out), code counts from the worst run", () => {
    const m = visitMedians([visit(300, 900, 28, 0), visit(500, Number.NaN, 27, 2), visit(400, 700, 28, 0)]);
    expect(m).toEqual({ fcpMs: 400, lcpMs: 500, readyMs: 800, codeRequests: 28, fromNetwork: 2 });
  });

  it("rows: code from the network against the visit without the worker, times against their baselines", () => {
    const run = (f: number): RepeatVisitRun => ({
      repeat: visit(f, 900, 28, 0),
      firstVisit: visit(2400, 3000, 16, 16),
      staticPage: visit(250, Number.NaN, 1, 0),
      device: visit(200, 850, 30, 0),
      deviceFirst: visit(1400, 3400, 20, 20),
    });
    const rows = repeatVisitRows([run(300), run(320), run(310)]);
    expect(rows).toHaveLength(5);
    expect(rows[0]).toMatch(
      /median of 3 \| Code requests that reached the network.* \| 0 of 28 \| 16 of 16 \| n\/a \|$/,
    );
    expect(rows[1]).toMatch(/\| 900 \| 3,000 \| ×0\.30 \|$/);
    expect(rows[2]).toMatch(/\| 310 \| 250 \| ×1\.24 \|$/);
    expect(rows[4]).toMatch(/#\/Device live figures shown .* \| 850 \| 3,400 \| ×0\.25 \|$/);
    expect(() => repeatVisitRows([])).toThrow(RangeError);
  });

  it("the ready watcher is plain script text that carries the selector quoted", () => {
    const src = readyWatcher('[data-testid="device-card"]');
    expect(src).toContain(JSON.stringify('[data-testid="device-card"]'));
    expect(() => new Function(src)).not.toThrow();
    expect(src).not.toMatch(/__name|=>/);
  });
});
