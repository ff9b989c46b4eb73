import { act, screen, waitFor } from "@testing-library/react";
import { unstableSetRender } from "antd-mobile";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { antdRender } from "./antd-render.ts";
import { ANNOUNCE_DELAY_MS, ANNOUNCE_KEEP_MS, announce, clearAnnouncement } from "./live-region.ts";
import { Toast, toast } from "./toast.ts";

/** The live region of `role`, with its text. */
const region = (role: "status" | "alert") => screen.getByRole(role);

describe("toasts are announced to screen readers (WCAG 4.1.3 Status Messages)", () => {
  beforeAll(() => {
    // antd-mobile's Toast renders through the app's React 19 render (main.tsx).
    unstableSetRender(antdRender);
  });
  afterEach(() => {
    act(() => Toast.clear());
    clearAnnouncement();
    vi.useRealTimers();
  });

  it("the live regions are in the document before any toast, polite and assertive, out of sight", () => {
    const status = region("status");
    const alert = region("alert");
    expect(status.getAttribute("aria-live")).toBe("polite");
    expect(status.getAttribute("aria-atomic")).toBe("true");
    expect(alert.getAttribute("aria-live")).toBe("assertive");
    expect(status.textContent).toBe("");
    expect(status.classList.contains("visually-hidden")).toBe(true);
    expect(status.getAttribute("style")).toBeNull();
  });

  it("an ordinary toast's text ends up in the status region; the toast itself still shows as antd-mobile draws it", async () => {
    toast("Saved");
    await waitFor(() => expect(region("status").textContent).toBe("Saved"));
    expect(region("alert").textContent).toBe("");
    await waitFor(() => expect(document.querySelector(".adm-toast-main")?.textContent).toBe("Saved"));
  });

  it("a failure toast (icon fail) is an alert; the next ordinary one replaces it in the status region", async () => {
    Toast.show({ icon: "fail", content: "Request failed" });
    await waitFor(() => expect(region("alert").textContent).toBe("Request failed"));
    expect(region("status").textContent).toBe("");
    Toast.show({ icon: "success", content: "Code sent" });
    await waitFor(() => expect(region("status").textContent).toBe("Code sent"));
    expect(region("alert").textContent).toBe("");
  });

  it("element content is announced by its text; a loading toast stays announced until cleared", async () => {
    Toast.show({ content: [<span key="a">New message: </span>, <b key="b">Filter due</b>], position: "top" });
    await waitFor(() => expect(region("status").textContent).toBe("New message: Filter due"));
    vi.useFakeTimers();
    Toast.show({ icon: "loading", content: "Loading…", duration: 0 });
    vi.advanceTimersByTime(ANNOUNCE_DELAY_MS);
    expect(region("status").textContent).toBe("Loading…");
    vi.advanceTimersByTime(ANNOUNCE_KEEP_MS * 2);
    expect(region("status").textContent).toBe("Loading…");
    Toast.clear();
    expect(region("status").textContent).toBe("");
  });

  it("the same text twice is written anew (emptied first); an ordinary message is taken away after a while", () => {
    vi.useFakeTimers();
    announce("Copied");
    vi.advanceTimersByTime(ANNOUNCE_DELAY_MS);
    expect(region("status").textContent).toBe("Copied");
    announce("Copied");
    expect(region("status").textContent).toBe("");
    vi.advanceTimersByTime(ANNOUNCE_DELAY_MS);
    expect(region("status").textContent).toBe("Copied");
    vi.advanceTimersByTime(ANNOUNCE_KEEP_MS);
    expect(region("status").textContent).toBe("");
  });

  it("a region removed with the page's body is made again for the next message", async () => {
    document.body.innerHTML = "";
    toast("Back online");
    await waitFor(() => expect(region("status").textContent).toBe("Back online"));
  });
});
