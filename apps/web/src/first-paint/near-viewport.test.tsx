import { act, cleanup, render, screen } from "@testing-library/react";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { useNearViewport } from "./near-viewport.ts";

/** A stand-in IntersectionObserver the test drives: `show(el)` reports `el` in view to its observers. */
function fakeObservers() {
  const live = new Set<{ callback: IntersectionObserverCallback; targets: Set<Element>; margin: string }>();
  class FakeObserver {
    entry: { callback: IntersectionObserverCallback; targets: Set<Element>; margin: string };
    constructor(callback: IntersectionObserverCallback, options?: IntersectionObserverInit) {
      this.entry = { callback, targets: new Set(), margin: options?.rootMargin ?? "" };
      live.add(this.entry);
    }
    observe(target: Element) {
      this.entry.targets.add(target);
    }
    disconnect() {
      live.delete(this.entry);
    }
  }
  vi.stubGlobal("IntersectionObserver", FakeObserver);
  return {
    observed: () => [...live].flatMap((o) => [...o.targets]),
    margins: () => [...live].map((o) => o.margin),
    report: (target: Element, isIntersecting: boolean) => {
      for (const o of [...live]) {
        if (o.targets.has(target)) {
          o.callback([{ target, isIntersecting } as IntersectionObserverEntry], o as unknown as IntersectionObserver);
        }
      }
    },
  };
}

function Probe({ margin }: { margin?: string }) {
  const [shown, setShown] = useState(false);
  const view = useNearViewport(margin);
  return (
    <div>
      <button type="button" onClick={() => setShown(true)}>
        show
      </button>
      {shown ? (
        <div ref={view.ref} data-testid="target">
          {view.near ? "drawn" : "waiting"}
        </div>
      ) : null}
    </div>
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("useNearViewport (below-the-fold parts draw when scrolled to, not during start-up)", () => {
  it("watches an element that appears later, turns true when it comes into view and stays true", () => {
    const io = fakeObservers();
    render(<Probe margin="0px 0px 40px 0px" />);
    expect(io.observed()).toHaveLength(0);
    act(() => screen.getByText("show").click());
    const target = screen.getByTestId("target");
    expect(io.observed()).toEqual([target]);
    expect(io.margins()).toEqual(["0px 0px 40px 0px"]);
    act(() => io.report(target, false));
    expect(target.textContent).toBe("waiting");
    act(() => io.report(target, true));
    expect(target.textContent).toBe("drawn");
    // Seen once: the observer is gone, scrolling away changes nothing.
    expect(io.observed()).toHaveLength(0);
    act(() => io.report(target, false));
    expect(target.textContent).toBe("drawn");
  });

  it("is true at once where the browser has no IntersectionObserver", () => {
    vi.stubGlobal("IntersectionObserver", undefined);
    render(<Probe />);
    act(() => screen.getByText("show").click());
    expect(screen.getByTestId("target").textContent).toBe("drawn");
  });
});
