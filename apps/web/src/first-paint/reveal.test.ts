import { act, renderHook } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { useRevealedCount } from "./reveal.ts";

/** Lets the page's event loop run one task (nextTask falls back to a zero-delay timeout here). */
const oneTask = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));

describe("useRevealedCount (one list item per task, so no task is long)", () => {
  it("shows the first item at once, then one more per task, then follows the total at once", async () => {
    const { result, rerender } = renderHook(({ total }) => useRevealedCount(total), { initialProps: { total: 0 } });
    expect(result.current).toBe(0);
    // The list arrives: its first item shows in the same render.
    rerender({ total: 3 });
    expect(result.current).toBe(1);
    await oneTask();
    expect(result.current).toBe(2);
    await oneTask();
    expect(result.current).toBe(3);
    await oneTask();
    expect(result.current).toBe(3);
    // Everything has shown once: a longer list shows whole, a shorter one too.
    rerender({ total: 5 });
    expect(result.current).toBe(5);
    rerender({ total: 2 });
    expect(result.current).toBe(2);
  });

  it("starts with the first item when the list is there from the first render", async () => {
    const { result } = renderHook(() => useRevealedCount(2));
    expect(result.current).toBe(1);
    await oneTask();
    expect(result.current).toBe(2);
  });
});
