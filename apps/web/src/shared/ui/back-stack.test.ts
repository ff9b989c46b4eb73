import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { resetOverlayHistory } from "../navigation/overlay-history.js";
import { handleBack, openDialogCount, openWithBack } from "./back-stack.js";

/** A load the test finishes by hand: the overlay's code arriving late. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe("openWithBack (issue 12: an overlay whose code loads on the tap)", () => {
  beforeEach(() => {
    window.history.replaceState({ key: "page-a", idx: 1 }, "");
    vi.spyOn(window.history, "go").mockImplementation(() => {});
  });
  afterEach(() => {
    resetOverlayHistory();
    vi.restoreAllMocks();
  });

  it("takes the back entry at once; a back while loading cancels the opening", async () => {
    const code = deferred<{ open: () => { close: () => void } }>();
    const show = vi.fn((m: { open: () => { close: () => void } }) => m.open());
    const result = openWithBack(() => code.promise, show);
    expect(openDialogCount()).toBe(1);
    expect(handleBack()).toBe("dialog");
    code.resolve({ open: () => ({ close: () => {} }) });
    expect(await result).toBe(false);
    expect(show).not.toHaveBeenCalled();
  });

  it("shows the overlay once loaded, and back then closes it", async () => {
    const close = vi.fn();
    const shown = await openWithBack(
      async () => "module",
      () => ({ close }),
    );
    expect(shown).toBe(true);
    expect(openDialogCount()).toBe(1);
    expect(handleBack()).toBe("dialog");
    expect(close).toHaveBeenCalledTimes(1);
  });

  it("gives the entry back when the code cannot be loaded", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const shown = await openWithBack(
      () => Promise.reject(new Error("offline")),
      () => ({ close: () => {} }),
    );
    expect(shown).toBe(false);
    expect(openDialogCount()).toBe(0);
  });
});
