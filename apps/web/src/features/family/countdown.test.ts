import { act, renderHook } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { formatCountdown, remainingSeconds, shareCodeDeadline, useCountdown } from "./countdown.ts";

afterEach(() => vi.useRealTimers());

describe("QR share code countdown (spec §4, §9: valid 15 minutes)", () => {
  it("formats mm:ss", () => {
    expect(formatCountdown(900)).toBe("15:00");
    expect(formatCountdown(899)).toBe("14:59");
    expect(formatCountdown(61)).toBe("01:01");
    expect(formatCountdown(9)).toBe("00:09");
    expect(formatCountdown(0)).toBe("00:00");
    expect(formatCountdown(-5)).toBe("00:00");
    expect(formatCountdown(59.9)).toBe("00:59");
  });

  it("counts whole seconds up, so the last partial second still shows 00:01", () => {
    expect(remainingSeconds(10_000, 0)).toBe(10);
    expect(remainingSeconds(10_000, 9_001)).toBe(1);
    expect(remainingSeconds(10_000, 10_000)).toBe(0);
    expect(remainingSeconds(10_000, 20_000)).toBe(0);
  });

  it("takes the deadline from validSeconds counted from receipt, ignoring a skewed phone clock", () => {
    // The phone's clock is an hour behind the server: expiresAt alone would give 75 minutes.
    const code = {
      receivedAt: 1_000_000,
      validSeconds: 900,
      expiresAt: new Date(1_000_000 + 75 * 60_000).toISOString(),
    };
    expect(shareCodeDeadline(code)).toBe(1_000_000 + 900_000);
    expect(shareCodeDeadline({ receivedAt: 5, validSeconds: 0, expiresAt: "1970-01-01T00:00:10.000Z" })).toBe(10_000);
    expect(shareCodeDeadline({ receivedAt: 5, expiresAt: "not a date" })).toBe(5);
  });

  it("useCountdown ticks every second and stops at 0", () => {
    vi.useFakeTimers();
    const start = Date.now();
    const { result } = renderHook(() => useCountdown(start + 3_000));
    expect(result.current).toBe(3);
    act(() => {
      vi.advanceTimersByTime(1_000);
    });
    expect(result.current).toBe(2);
    act(() => {
      vi.advanceTimersByTime(2_000);
    });
    expect(result.current).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("a new deadline (refresh) restarts the countdown; null clears it", () => {
    vi.useFakeTimers();
    const start = Date.now();
    const { result, rerender } = renderHook(({ deadline }) => useCountdown(deadline), {
      initialProps: { deadline: (start + 1_000) as number | null },
    });
    act(() => {
      vi.advanceTimersByTime(1_500);
    });
    expect(result.current).toBe(0);
    rerender({ deadline: Date.now() + 900_000 });
    expect(result.current).toBe(900);
    rerender({ deadline: null });
    expect(result.current).toBeNull();
  });
});
