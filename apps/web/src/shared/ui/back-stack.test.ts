import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { resetOverlayHistory } from "../navigation/overlay-history.ts";
import { handleBack, openDialogCount, openWithBack } from "./back-stack.ts";

/** A load the test finishes by hand: the overlay's code arriving late. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe("openWithBack (an overlay whose code loads on the tap)", () => {
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

  it("a cancelled opening resolves at once, before its code has arrived, and a load failing later is not reported", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    let fail!: (err: Error) => void;
    const show = vi.fn(() => ({ close: () => {} }));
    const result = openWithBack(
      () =>
        new Promise<string>((_, reject) => {
          fail = reject;
        }),
      show,
    );
    expect(handleBack()).toBe("dialog");
    // The code never arrives: the caller learns at once that nothing opened (its double-tap guard is released).
    expect(await result).toBe(false);
    expect(openDialogCount()).toBe(0);
    fail(new Error("offline"));
    await new Promise((r) => setTimeout(r, 0));
    expect(warn).not.toHaveBeenCalled();
    expect(show).not.toHaveBeenCalled();
  });

  it("tells the caller once that the overlay is gone: on back, when it closes itself, when its opening is cancelled", async () => {
    // Back while shown: gone at once, before the overlay has finished closing (its close may be deferred).
    const gone = vi.fn();
    const close = vi.fn();
    await openWithBack(
      async () => "module",
      () => ({ close }),
      gone,
    );
    expect(gone).not.toHaveBeenCalled();
    handleBack();
    expect(gone).toHaveBeenCalledTimes(1);
    expect(close).toHaveBeenCalledTimes(1);

    // Closed by itself (its onClose and afterClose both report it): gone once, its back entry given back.
    const gone2 = vi.fn();
    let closed = () => {};
    await openWithBack(
      async () => "module",
      (_m, c) => {
        closed = c;
        return { close: () => {} };
      },
      gone2,
    );
    expect(openDialogCount()).toBe(1);
    closed();
    closed();
    expect(gone2).toHaveBeenCalledTimes(1);
    expect(openDialogCount()).toBe(0);

    // Cancelled while loading.
    const gone3 = vi.fn();
    const code = deferred<string>();
    const result = openWithBack(
      () => code.promise,
      () => ({ close: () => {} }),
      gone3,
    );
    handleBack();
    expect(gone3).toHaveBeenCalledTimes(1);
    expect(await result).toBe(false);
    code.resolve("late");
    await new Promise((r) => setTimeout(r, 0));
    expect(gone3).toHaveBeenCalledTimes(1);
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
    const gone = vi.fn();
    const shown = await openWithBack(
      () => Promise.reject(new Error("offline")),
      () => ({ close: () => {} }),
      gone,
    );
    expect(shown).toBe(false);
    expect(openDialogCount()).toBe(0);
    expect(gone).toHaveBeenCalledTimes(1);
  });
});
