import { afterEach, describe, expect, it, vi } from "vitest";
import { CoalescedTimers } from "./coalesced-timers.ts";

describe("CoalescedTimers", () => {
  afterEach(() => {
    // The spy on the fake `setTimeout` goes first, so the real one is what comes back.
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it("runs each timer once, when due, in the order of their due times", () => {
    vi.useFakeTimers();
    const timers = new CoalescedTimers();
    const ran: string[] = [];
    timers.setTimeout(() => ran.push("300"), 300);
    timers.setTimeout(() => ran.push("100"), 100);
    timers.setTimeout(() => ran.push("200a"), 200);
    timers.setTimeout(() => ran.push("200b"), 200);
    vi.advanceTimersByTime(99);
    expect(ran).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(ran).toEqual(["100"]);
    vi.advanceTimersByTime(100);
    expect(ran).toEqual(["100", "200a", "200b"]);
    vi.advanceTimersByTime(1_000);
    expect(ran).toEqual(["100", "200a", "200b", "300"]);
    expect(timers.size).toBe(0);
  });

  it("holds one platform timer for many pending ones, and none once they are all cancelled", () => {
    vi.useFakeTimers();
    const platformSet = vi.spyOn(globalThis, "setTimeout");
    const timers = new CoalescedTimers();
    const ids = Array.from({ length: 100 }, (_, i) => timers.setTimeout(() => {}, 300_000 + i));
    expect(platformSet).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(1);
    for (const id of ids) timers.clearTimeout(id);
    expect(vi.getTimerCount()).toBe(0);
    expect(timers.size).toBe(0);
  });

  it("re-arms for an earlier timer set after a later one", () => {
    vi.useFakeTimers();
    const timers = new CoalescedTimers();
    const ran: number[] = [];
    timers.setTimeout(() => ran.push(5_000), 5_000);
    timers.setTimeout(() => ran.push(10), 10);
    vi.advanceTimersByTime(10);
    expect(ran).toEqual([10]);
    vi.advanceTimersByTime(4_990);
    expect(ran).toEqual([10, 5_000]);
  });

  it("does not run a cancelled timer, even when it was the one the platform timer was armed for", () => {
    vi.useFakeTimers();
    const timers = new CoalescedTimers();
    const ran: string[] = [];
    const first = timers.setTimeout(() => ran.push("first"), 100);
    timers.setTimeout(() => ran.push("second"), 200);
    timers.clearTimeout(first);
    timers.clearTimeout(undefined);
    timers.clearTimeout(12_345);
    vi.advanceTimersByTime(150);
    expect(ran).toEqual([]);
    vi.advanceTimersByTime(50);
    expect(ran).toEqual(["second"]);
  });

  it("runs the other timers due when one throws, and reports the error", () => {
    vi.useFakeTimers();
    const timers = new CoalescedTimers();
    const ran: string[] = [];
    timers.setTimeout(() => {
      throw new Error("boom");
    }, 50);
    timers.setTimeout(() => ran.push("after"), 50);
    vi.advanceTimersByTime(50);
    expect(ran).toEqual(["after"]);
    expect(() => vi.advanceTimersByTime(1)).toThrow("boom");
  });

  it("serves timers set from a timer's callback", () => {
    vi.useFakeTimers();
    const timers = new CoalescedTimers();
    const ran: string[] = [];
    timers.setTimeout(() => {
      ran.push("outer");
      timers.setTimeout(() => ran.push("inner"), 0);
    }, 20);
    vi.advanceTimersByTime(20);
    expect(ran).toEqual(["outer"]);
    // A zero-delay timer set while timers run waits for the next tick, as the platform's would (1 ms on the fake clock).
    vi.advanceTimersByTime(1);
    expect(ran).toEqual(["outer", "inner"]);
  });

  it("works on the real clock", async () => {
    const timers = new CoalescedTimers();
    const started = performance.now();
    const at = await new Promise<number>((resolve) => timers.setTimeout(() => resolve(performance.now()), 30));
    // The platform's timers may fire up to a millisecond or so early by `performance.now()`; these do likewise.
    expect(at - started).toBeGreaterThanOrEqual(27);
  });

  it("waits for a timer due after the platform's longest delay (about 24.8 days) instead of firing it at once", () => {
    vi.useFakeTimers();
    const timers = new CoalescedTimers();
    const day = 86_400_000;
    let ran = false;
    timers.setTimeout(() => {
      ran = true;
    }, 30 * day);
    vi.advanceTimersByTime(25 * day);
    expect(ran).toBe(false);
    vi.advanceTimersByTime(5 * day);
    expect(ran).toBe(true);
  });
});
