import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { appUrl, replaceFlow, setNavigator } from "./index.ts";
import { setOverlayPage } from "./overlay-history.ts";
import { PATHS } from "./paths.ts";

/**
 * replaceFlow against happy-dom's session history: the flow's entries are pushed, then the flow ends; the navigator
 * stands for the router (a number goes back and reports the landing with popstate, a URL is pushed or replaced).
 */
describe("replaceFlow (a finished flow takes its pages out of history)", () => {
  const calls: Array<[string | number, { replace?: boolean } | undefined]> = [];
  beforeEach(() => {
    calls.length = 0;
    setNavigator({
      navigate: (to, options) => {
        calls.push([to, options]);
        if (typeof to === "number") {
          // happy-dom does not traverse: land on the page the flow was opened from by hand, as a browser reports it.
          setTimeout(() => {
            window.history.replaceState({ idx: 0 }, "", "#/index/home");
            window.dispatchEvent(new PopStateEvent("popstate", { state: window.history.state }));
          }, 10);
        } else if (options?.replace) window.history.replaceState({ idx: window.history.state?.idx ?? 0 }, "", `#${to}`);
        else window.history.pushState({ idx: (window.history.state?.idx ?? 0) + 1 }, "", `#${to}`);
      },
    });
  });
  afterEach(() => {
    setNavigator(null);
    vi.useRealTimers();
  });

  const name = { deviceId: "d1" };

  it("goes back over the flow's entries to the page it was opened from, then pushes the end page there", async () => {
    window.history.replaceState({ idx: 0 }, "", "#/index/home");
    for (const [i, step] of ["mode", "guide", "wifi", "progress"].entries()) {
      window.history.pushState({ idx: i + 1 }, "", `#/DeviceNetwork?step=${step}`);
    }
    // The router has told the overlay history which page shows (it lets a change of page through to the router).
    setOverlayPage("progress");
    replaceFlow(4, PATHS.DeviceNetworkNameUpdate, name);
    await vi.waitFor(() => expect(calls.length).toBe(2), { timeout: 500 });
    expect(calls[0]).toEqual([-4, undefined]);
    expect(calls[1]).toEqual([appUrl(PATHS.DeviceNetworkNameUpdate, name), { replace: false }]);
  });

  it("with no entry below the flow (opened in a fresh tab) the end page replaces the current one", async () => {
    window.history.replaceState({ idx: 0 }, "", "#/DeviceNetwork?step=progress");
    replaceFlow(3, PATHS.DeviceNetworkNameUpdate, name);
    await vi.waitFor(() => expect(calls.length).toBe(1));
    expect(calls[0]).toEqual([appUrl(PATHS.DeviceNetworkNameUpdate, name), { replace: true }]);
  });

  it("a traversal that never reports still ends the flow, in place", async () => {
    vi.useFakeTimers();
    window.history.replaceState({ idx: 2 }, "", "#/DeviceNetwork?step=progress");
    setNavigator({ navigate: (to, options) => calls.push([to, options]) });
    replaceFlow(2, PATHS.DeviceNetworkNameUpdate, name);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls).toEqual([
      [-2, undefined],
      [appUrl(PATHS.DeviceNetworkNameUpdate, name), { replace: true }],
    ]);
  });
});
