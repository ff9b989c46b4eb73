import { afterEach, describe, expect, it, vi } from "vitest";
import { ANNOUNCE_DELAY_MS, announce } from "./live-region.ts";

describe("announce", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it("writes nothing, and throws nothing, when the document is gone before the message's turn", () => {
    vi.useFakeTimers();
    announce("Saved");
    const status = document.querySelector('[role="status"]');
    expect(status?.textContent).toBe("");
    // As when a test's page is torn down: the body emptied, then no document at all.
    document.body.innerHTML = "";
    vi.stubGlobal("document", undefined);
    expect(() => vi.advanceTimersByTime(ANNOUNCE_DELAY_MS)).not.toThrow();
    vi.unstubAllGlobals();
    expect(status?.textContent).toBe("");
  });

  it("writes the message into the status region after its delay", () => {
    vi.useFakeTimers();
    announce("Saved");
    vi.advanceTimersByTime(ANNOUNCE_DELAY_MS);
    expect(document.querySelector('[role="status"]')?.textContent).toBe("Saved");
  });
});
