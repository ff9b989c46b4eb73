import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { whenNetworkQuiet } from "./service-worker.ts";

describe("the service worker waits for a quiet network (its install must not slow the first screen)", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A page whose resources the test finishes by hand; tells whether someone still listens. */
  function page() {
    let listener: (() => void) | null = null;
    return {
      observe: (onResource: () => void) => {
        listener = onResource;
        return () => {
          listener = null;
        };
      },
      finish: () => listener?.(),
      listening: () => listener !== null,
    };
  }

  it("resolves once no resource has finished for the quiet time; each one starts the wait again", async () => {
    const p = page();
    let resolved = false;
    void whenNetworkQuiet(2_000, 15_000, p.observe).then(() => {
      resolved = true;
    });
    await vi.advanceTimersByTimeAsync(1_500);
    p.finish();
    await vi.advanceTimersByTimeAsync(1_500);
    expect(resolved).toBe(false);
    p.finish();
    await vi.advanceTimersByTimeAsync(1_999);
    expect(resolved).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(resolved).toBe(true);
    expect(p.listening()).toBe(false);
  });

  it("resolves at the latest after the longest wait, on a page that never goes quiet", async () => {
    const p = page();
    let resolved = false;
    void whenNetworkQuiet(2_000, 15_000, p.observe).then(() => {
      resolved = true;
    });
    for (let t = 0; t < 14_000; t += 1_000) {
      await vi.advanceTimersByTimeAsync(1_000);
      p.finish();
    }
    expect(resolved).toBe(false);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(resolved).toBe(true);
    expect(p.listening()).toBe(false);
  });
});
