import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LongPress } from "./long-press.ts";

describe("LongPress (spec §4 forced switch, §9 2 s)", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("fires once after holding 2 s", () => {
    const fire = vi.fn();
    const press = new LongPress(fire);
    expect(press.holdMs).toBe(2000);
    press.start(0);
    vi.advanceTimersByTime(1999);
    expect(fire).not.toHaveBeenCalled();
    expect(press.progress(1000)).toBeCloseTo(0.5);
    vi.advanceTimersByTime(1);
    expect(fire).toHaveBeenCalledTimes(1);
    expect(press.holding).toBe(false);
    vi.advanceTimersByTime(5000);
    expect(fire).toHaveBeenCalledTimes(1);
  });

  it("does not fire when released early", () => {
    const fire = vi.fn();
    const press = new LongPress(fire);
    press.start(0);
    vi.advanceTimersByTime(1500);
    press.cancel();
    vi.advanceTimersByTime(5000);
    expect(fire).not.toHaveBeenCalled();
    expect(press.progress(1500)).toBe(0);
  });

  it("keeps the first start when pressed again", () => {
    const fire = vi.fn();
    const press = new LongPress(fire, 1000);
    press.start(0);
    vi.advanceTimersByTime(600);
    press.start(600);
    vi.advanceTimersByTime(400);
    expect(fire).toHaveBeenCalledTimes(1);
  });
});
