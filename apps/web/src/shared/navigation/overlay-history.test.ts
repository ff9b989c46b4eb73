import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  addPageGuard,
  afterOverlays,
  closeTopOverlay,
  OVERLAY_STATE_KEY,
  openOverlay,
  openOverlayCount,
  resetOverlayHistory,
  setOverlayPage,
} from "./overlay-history.ts";

const tick = () => new Promise((r) => setTimeout(r, 0));
const depth = () => (window.history.state as Record<string, unknown> | null)?.[OVERLAY_STATE_KEY] ?? 0;

/** What the browser does on a back press to an entry of `state`. */
function popTo(state: object) {
  window.dispatchEvent(new PopStateEvent("popstate", { state }));
}

/** What the browser does on a back press that leaves the page: the history is on the earlier entry, then popstate. */
function leaveTo(state: object) {
  window.history.replaceState(state, "");
  popTo(state);
}

describe("overlays as history entries (back is one stack: the top overlay closes first)", () => {
  let go: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    window.history.replaceState({ key: "page-a", idx: 3 }, "");
    resetOverlayHistory();
    setOverlayPage("page-a");
    // The traversal lands as the browser would report it: on the entry `n` below, i.e. the page itself here.
    go = vi.spyOn(window.history, "go").mockImplementation(() => {
      window.history.replaceState({ key: "page-a", idx: 3 }, "");
      setTimeout(() => popTo({ key: "page-a", idx: 3 }), 0);
    });
  });
  afterEach(() => go.mockRestore());

  it("an open overlay gets an entry of the same page; back to the page closes it as 'back'", async () => {
    const close = vi.fn();
    openOverlay(close);
    await tick();
    expect(depth()).toBe(1);
    expect((window.history.state as { key: string }).key).toBe("page-a");
    popTo({ key: "page-a", idx: 3 });
    expect(close).toHaveBeenCalledWith("back");
    expect(openOverlayCount()).toBe(0);
    expect(go).not.toHaveBeenCalled();
  });

  it("two overlays: back closes only the top one", async () => {
    const lower = vi.fn();
    const upper = vi.fn();
    openOverlay(lower);
    openOverlay(upper);
    await tick();
    expect(depth()).toBe(2);
    popTo({ key: "page-a", idx: 3, [OVERLAY_STATE_KEY]: 1 });
    expect(upper).toHaveBeenCalledWith("back");
    expect(lower).not.toHaveBeenCalled();
    expect(openOverlayCount()).toBe(1);
  });

  it("an overlay that closes itself takes its entry away; a navigation asked meanwhile waits for that", async () => {
    const remove = openOverlay(vi.fn());
    await tick();
    remove();
    const navigate = vi.fn();
    afterOverlays(navigate);
    expect(navigate).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(navigate).toHaveBeenCalledTimes(1));
    expect(go).toHaveBeenCalledWith(-1);
  });

  it("a navigation closes the page's overlays as 'leave' first; the top bar closes the top one as 'back'", async () => {
    const first = vi.fn();
    const second = vi.fn();
    openOverlay(first);
    openOverlay(second);
    await tick();
    expect(closeTopOverlay()).toBe(true);
    expect(second).toHaveBeenCalledWith("back");
    const navigate = vi.fn();
    afterOverlays(navigate);
    expect(first).toHaveBeenCalledWith("leave");
    await vi.waitFor(() => expect(navigate).toHaveBeenCalledTimes(1));
    expect(closeTopOverlay()).toBe(false);
  });

  it("another page shown by the router closes what was left open, as 'leave'", async () => {
    const close = vi.fn();
    openOverlay(close);
    await tick();
    window.history.pushState({ key: "page-b", idx: 4 }, "");
    setOverlayPage("page-b");
    expect(close).toHaveBeenCalledWith("leave");
    expect(openOverlayCount()).toBe(0);
  });

  it("a back press leaving a guarded page is undone before the router hears it, and asks the guard", async () => {
    const router = vi.fn();
    window.addEventListener("popstate", router);
    const onBack = vi.fn();
    const remove = addPageGuard(onBack);
    leaveTo({ key: "page-before", idx: 2 });
    expect(router).not.toHaveBeenCalled();
    expect(go).toHaveBeenCalledWith(1);
    expect(onBack).toHaveBeenCalledTimes(1);
    // Without the guard, the same press reaches the router.
    await vi.waitFor(() => expect(go).toHaveBeenCalledTimes(1));
    await tick();
    remove();
    leaveTo({ key: "page-before", idx: 2 });
    expect(router).toHaveBeenCalledTimes(1);
    window.removeEventListener("popstate", router);
  });

  it("an overlay whose entry back skipped (opened without a gesture) is closed instead of leaving the page", async () => {
    const close = vi.fn();
    const onBack = vi.fn();
    addPageGuard(onBack);
    openOverlay(close);
    await tick();
    leaveTo({ key: "page-before", idx: 2 });
    expect(close).toHaveBeenCalledWith("back");
    expect(onBack).not.toHaveBeenCalled();
    expect(go).toHaveBeenCalledWith(1);
  });

  it("a typed URL (an entry the router did not make, no key) is another page even from a page without a key", async () => {
    await new Promise((r) => setTimeout(r, 10)); // the traversals of the tests before have landed
    window.history.replaceState({ idx: 0 }, "", "#/Test");
    resetOverlayHistory();
    setOverlayPage("default");
    const router = vi.fn();
    window.addEventListener("popstate", router);
    const close = vi.fn();
    openOverlay(close);
    await tick();
    window.history.pushState(null, "", "#/Test2");
    popTo(null as unknown as object);
    expect(router).toHaveBeenCalledTimes(1);
    expect(close).toHaveBeenCalledWith("leave");
    window.removeEventListener("popstate", router);
  });
});
