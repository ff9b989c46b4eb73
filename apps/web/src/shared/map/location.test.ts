import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createLocationTracker, LOCATION_POLL_MS } from "./location.ts";

describe("location tracking runs only while a listener exists (spec §4, §9)", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.spyOn(console, "info").mockImplementation(() => {});
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it("polls every 7000 ms from the first listener until the last one leaves", async () => {
    expect(LOCATION_POLL_MS).toBe(7000);
    let n = 0;
    const read = vi.fn(async () => ({ longitude: 121 + n++ / 1000, latitude: 31 }));
    const tracker = createLocationTracker(read);
    expect(tracker.isRunning()).toBe(false);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(read).not.toHaveBeenCalled();

    const a = vi.fn();
    const offA = tracker.subscribe(a);
    expect(tracker.isRunning()).toBe(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(read).toHaveBeenCalledTimes(1); // one read at once
    expect(a).toHaveBeenCalledTimes(1);

    await vi.advanceTimersByTimeAsync(6999);
    expect(read).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(read).toHaveBeenCalledTimes(2);

    const b = vi.fn();
    const offB = tracker.subscribe(b);
    expect(b).toHaveBeenCalledTimes(1); // gets the last position at once, no extra read
    expect(read).toHaveBeenCalledTimes(2);

    offA();
    expect(tracker.isRunning()).toBe(true);
    await vi.advanceTimersByTimeAsync(7000);
    expect(read).toHaveBeenCalledTimes(3);
    expect(a).toHaveBeenCalledTimes(2);
    expect(b).toHaveBeenCalledTimes(2);

    offB();
    expect(tracker.isRunning()).toBe(false);
    expect(tracker.listenerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(70_000);
    expect(read).toHaveBeenCalledTimes(3);
  });

  it("restarts with a new listener and survives failed reads", async () => {
    const read = vi
      .fn<() => Promise<{ longitude: number; latitude: number } | null>>()
      .mockRejectedValueOnce(new Error("no fix"))
      .mockResolvedValueOnce(null)
      .mockResolvedValue({ longitude: 1, latitude: 2 });
    const tracker = createLocationTracker(read, 7000);
    const listener = vi.fn();
    const off = tracker.subscribe(listener);
    await vi.advanceTimersByTimeAsync(14_000);
    expect(read).toHaveBeenCalledTimes(3);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(tracker.lastPosition()).toEqual({ longitude: 1, latitude: 2 });
    off();
    const again = tracker.subscribe(vi.fn());
    expect(tracker.isRunning()).toBe(true);
    again();
  });

  it("does not start a second read while one is still running", async () => {
    let resolve: (v: { longitude: number; latitude: number }) => void = () => {};
    const read = vi.fn(() => new Promise<{ longitude: number; latitude: number }>((r) => (resolve = r)));
    const tracker = createLocationTracker(read, 7000);
    const off = tracker.subscribe(() => {});
    await vi.advanceTimersByTimeAsync(21_000);
    expect(read).toHaveBeenCalledTimes(1);
    resolve({ longitude: 0, latitude: 0 });
    await vi.advanceTimersByTimeAsync(7000);
    expect(read).toHaveBeenCalledTimes(2);
    off();
  });
});
