import { waitFor } from "@testing-library/react";
import { unstableSetRender } from "antd-mobile";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { afterOverlays, resetOverlayHistory, setOverlayPage } from "../navigation/overlay-history.ts";
import { antdRender } from "../ui/antd-render.ts";
import { handleBack, openDialogCount } from "../ui/back-stack.ts";
import { showFamilyNotice } from "./family-lost.tsx";

/** Notices in the document (a closed dialog lingers for its leave animation here). */
const notices = () => document.querySelectorAll('[data-testid="family-notice"]').length;

describe("the notice of a household that went (docs/architecture.md: Endings)", () => {
  // antd-mobile's imperative Dialog renders through the app's React 19 shim (main.tsx).
  beforeAll(() => {
    unstableSetRender(antdRender);
  });
  afterEach(() => {
    resetOverlayHistory();
  });

  it("stays through the screen changes the ending causes; only the owner closes it", async () => {
    setOverlayPage("device-screen");
    await showFamilyNotice("f-1", "Removed", "You were removed from Home by Ana.");
    await waitFor(() => expect(notices()).toBe(1));
    expect(openDialogCount()).toBe(1);
    // The ending's redirects: the Device screen goes to Home, Home to NoFamily. Each closes the screen's dialogs…
    setOverlayPage("home");
    expect(openDialogCount()).toBe(0);
    setOverlayPage("no-family");
    // …but this one stays open, the same dialog, in the back stack of the screen the ending led to.
    await waitFor(() => expect(openDialogCount()).toBe(1));
    await new Promise((r) => setTimeout(r, 400));
    expect(notices()).toBe(1);
    expect(document.querySelector(".adm-dialog-mask")?.getAttribute("style") ?? "").not.toContain("display: none");
    // Back closes it for good: the next screen change brings nothing back.
    expect(handleBack(() => {})).toBe("dialog");
    expect(openDialogCount()).toBe(0);
    setOverlayPage("message-centre");
    await new Promise((r) => setTimeout(r, 20));
    expect(openDialogCount()).toBe(0);
  });

  it("does not stand in the way of a navigation the app makes while it shows (Home sending the owner to NoFamily)", async () => {
    setOverlayPage("home");
    await showFamilyNotice("f-2", "Removed", "You were removed from Home by Ana.");
    await waitFor(() => expect(openDialogCount()).toBe(1));
    const order: string[] = [];
    // navigateTo's own path: the overlays close as "leave", the navigation runs once the history is settled.
    afterOverlays(() => {
      order.push(`navigated with ${openDialogCount()} dialog(s) open`);
      setOverlayPage("no-family");
    });
    await waitFor(() => expect(order).toEqual(["navigated with 0 dialog(s) open"]));
    // Then the notice is back, on the new screen's stack.
    await waitFor(() => expect(openDialogCount()).toBe(1));
    expect(handleBack(() => {})).toBe("dialog");
    expect(openDialogCount()).toBe(0);
  });
});
