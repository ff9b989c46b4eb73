import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Rng } from "./random.ts";
import { mqttTimerOf, SharedScheduler } from "./scheduler.ts";

/** A scheduler on fake timers: its clock is the faked Date.now, its randomness seeded. */
function fakeScheduler(resolutionMs = 50): SharedScheduler {
  const rng = new Rng(42);
  return new SharedScheduler({ resolutionMs, now: () => Date.now(), random: () => rng.next() });
}

describe("SharedScheduler (docs/device-sim.md §14)", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "Date"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("runs 10,000 devices' 10 s jobs once each per period, spread over it, with jitter, on one Node timer", () => {
    const scheduler = fakeScheduler();
    const runs = new Uint16Array(10_000);
    const perSecond = new Map<number, number>();
    const t0 = Date.now();
    for (let d = 0; d < runs.length; d++) {
      scheduler.every(
        10_000,
        () => {
          runs[d] += 1;
          const second = Math.floor((Date.now() - t0) / 1000);
          perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
        },
        { jitterMs: 500 },
      );
    }
    expect(vi.getTimerCount()).toBe(1);
    expect(scheduler.size).toBe(10_000);
    // Past the first period (random phases) the grid does not drift: every 10 s window holds every device once, give
    // or take the ones the ±500 ms jitter moved across the window's edges.
    vi.advanceTimersByTime(10_000);
    // (a device whose phase fell in the first 500 ms may already have run twice, its second run jittered early)
    expect(Math.max(...runs)).toBeLessThanOrEqual(2);
    const afterFirst = runs.reduce((a, n) => a + n, 0);
    expect(afterFirst).toBeGreaterThan(9_400);
    for (let window = 1; window <= 6; window++) {
      const before = runs.reduce((a, n) => a + n, 0);
      vi.advanceTimersByTime(10_000);
      const inWindow = runs.reduce((a, n) => a + n, 0) - before;
      expect(Math.abs(inWindow - 10_000)).toBeLessThan(600);
    }
    // After 70 s every device ran 7 times, ± one at the edges.
    expect(Math.min(...runs)).toBeGreaterThanOrEqual(6);
    expect(Math.max(...runs)).toBeLessThanOrEqual(8);
    expect(runs.reduce((a, n) => a + n, 0)).toBeGreaterThan(69_000);
    // Spread over the period: no second carries more than twice the mean of 1,000 runs.
    for (const [second, n] of perSecond) if (second >= 1) expect(n).toBeLessThan(2_000);
    scheduler.stop();
  });

  it("keeps a job's rhythm from firstInMs, and runs a stalled job once, not once per missed period", () => {
    const scheduler = fakeScheduler(10);
    const at: number[] = [];
    const t0 = Date.now();
    scheduler.every(100, () => at.push(Date.now() - t0), { firstInMs: 100 });
    vi.advanceTimersByTime(350);
    expect(at).toEqual([100, 200, 300]);
    // A stall of 1 s (the event loop blocked): the next tick runs the job once and goes on on the grid.
    vi.setSystemTime(Date.now() + 1_000);
    scheduler.runDue();
    expect(at).toHaveLength(4);
    vi.advanceTimersByTime(100);
    expect(at).toHaveLength(5);
    scheduler.stop();
  });

  it("stop() cancels every job and its one timer; cancel() stops one job, also from inside it", () => {
    const scheduler = fakeScheduler();
    let a = 0;
    let b = 0;
    let once = 0;
    scheduler.every(100, () => a++, { firstInMs: 100 });
    const jobB = scheduler.every(100, () => {
      b++;
      if (b === 2) jobB.cancel();
    });
    scheduler.after(150, () => once++);
    vi.advanceTimersByTime(1_000);
    expect(a).toBe(10);
    expect(b).toBe(2);
    expect(once).toBe(1);
    expect(scheduler.size).toBe(1);
    scheduler.stop();
    expect(scheduler.size).toBe(0);
    expect(scheduler.running).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(1_000);
    expect(a).toBe(10);
  });

  it("stops its timer when the last job is cancelled and starts it again for a new one", () => {
    const scheduler = fakeScheduler();
    const job = scheduler.every(100, () => undefined);
    expect(scheduler.running).toBe(true);
    job.cancel();
    job.cancel();
    expect(scheduler.size).toBe(0);
    expect(scheduler.running).toBe(false);
    let ran = 0;
    scheduler.after(0, () => ran++);
    vi.advanceTimersByTime(50);
    expect(ran).toBe(1);
    expect(scheduler.running).toBe(false);
  });

  it("refuses a period that is not positive and a jitter of half the period or more", () => {
    const scheduler = fakeScheduler();
    expect(() => scheduler.every(0, () => undefined)).toThrow(RangeError);
    expect(() => scheduler.every(Number.NaN, () => undefined)).toThrow(RangeError);
    expect(() => scheduler.every(100, () => undefined, { jitterMs: 50 })).toThrow(RangeError);
    expect(scheduler.size).toBe(0);
  });

  it("keeps going when a job throws, reporting the error", () => {
    const scheduler = fakeScheduler();
    const errors: unknown[] = [];
    scheduler.onError = (err) => errors.push(err);
    let ok = 0;
    scheduler.every(
      100,
      () => {
        throw new Error("boom");
      },
      { firstInMs: 100 },
    );
    scheduler.every(100, () => ok++, { firstInMs: 100 });
    vi.advanceTimersByTime(300);
    expect(ok).toBe(3);
    expect(errors).toHaveLength(3);
    scheduler.stop();
  });

  it("serves mqtt.js's keep-alive timer: set runs every ms until clear", () => {
    const scheduler = fakeScheduler(10);
    const timer = mqttTimerOf(scheduler);
    let pings = 0;
    const id = timer.set(() => pings++, 200);
    vi.advanceTimersByTime(1_000);
    expect(pings).toBe(5);
    timer.clear(id);
    vi.advanceTimersByTime(1_000);
    expect(pings).toBe(5);
    expect(scheduler.running).toBe(false);
  });
});
