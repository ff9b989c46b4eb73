import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { signOut } from "../shared/auth/session.ts";
import { setNavigator } from "../shared/navigation/index.ts";
import { setItem } from "../shared/storage/index.ts";
import { Toast } from "../shared/ui/toast.ts";
import { RouteGuard } from "./guard.tsx";
import type { AppRoute } from "./routes.ts";

const guarded: AppRoute = { name: "FamilyList", path: "/FamilyList", transition: "slide" };
const open: AppRoute = { name: "Article", path: "/Article", open: true, transition: "slide" };
const settings: AppRoute = {
  name: "DeviceSetting",
  path: "/DeviceSetting",
  transition: "slide",
  permission: "Device.Setting",
};

const envelope = (policies: Record<string, boolean>) =>
  JSON.stringify({
    success: true,
    error: null,
    unAuthorizedRequest: false,
    __abp: true,
    result: {
      currentUser: { isAuthenticated: true, id: "u", userName: "ana", name: null, email: null, phoneNumber: null },
      auth: { grantedPolicies: policies },
      localization: { currentCulture: { name: "zh-Hans" } },
    },
  });

let navigate: ReturnType<typeof vi.fn<(to: string | number, options?: { replace?: boolean }) => void>>;
let reload: ReturnType<typeof vi.fn>;

beforeEach(() => {
  localStorage.clear();
  signOut();
  navigate = vi.fn<(to: string | number, options?: { replace?: boolean }) => void>();
  setNavigator({ navigate });
  reload = vi.fn();
  vi.stubGlobal("location", { ...window.location, reload });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe("route guard (spec §4)", () => {
  it("renders open routes without a token", () => {
    render(<RouteGuard route={open}>page</RouteGuard>);
    expect(screen.getByText("page")).toBeTruthy();
  });

  it("no token on a guarded route: go to Login, reload after 1000 ms", () => {
    vi.useFakeTimers();
    render(<RouteGuard route={guarded}>page</RouteGuard>);
    expect(screen.queryByText("page")).toBeNull();
    expect(navigate).toHaveBeenCalledWith("/App?target=%2Flogin", { replace: true });
    vi.advanceTimersByTime(999);
    expect(reload).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it("no token: the route asked for, path and query, goes to Login for after sign-in", () => {
    vi.useFakeTimers();
    const wanted = `/FamilyList?${new URLSearchParams({ params: JSON.stringify({ joinCode: "J1" }) })}`;
    vi.stubGlobal("location", { ...window.location, hash: `#${wanted}`, reload });
    render(<RouteGuard route={guarded}>page</RouteGuard>);
    const query = new URLSearchParams({ target: "/login", params: JSON.stringify({ returnTo: wanted }) });
    expect(navigate).toHaveBeenCalledWith(`/App?${query}`, { replace: true });
  });

  it("loads permissions, then checks the route's permission", async () => {
    setItem("token", { accessToken: "A", refreshToken: "R", expiresAt: Date.now() + 3600_000 });
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response(envelope({ "Device.View": true }), { status: 200 })),
    );
    render(
      <>
        <RouteGuard route={guarded}>family page</RouteGuard>
        <RouteGuard route={settings}>settings page</RouteGuard>
      </>,
    );
    await act(async () => {});
    expect(screen.getByText("family page")).toBeTruthy();
    expect(screen.queryByText("settings page")).toBeNull();
    expect(await screen.findByTestId("no-permission")).toBeTruthy();
  });

  it("a failed permission load clears token and login info and reloads after 1000 ms", async () => {
    vi.useFakeTimers();
    setItem("token", { accessToken: "A", refreshToken: "R", expiresAt: Date.now() + 3600_000 });
    setItem("loginInfo", { userName: "ana", grantedPolicies: [], token: "A" });
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response("{}", { status: 500, statusText: "Internal" })),
    );
    render(<RouteGuard route={guarded}>page</RouteGuard>);
    await act(async () => {});
    expect(localStorage.getItem("token")).toBeNull();
    expect(localStorage.getItem("loginInfo")).toBeNull();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(999);
    });
    expect(reload).not.toHaveBeenCalled();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1);
    });
    expect(reload).toHaveBeenCalledTimes(1);
    expect(screen.queryByText("page")).toBeNull();
  });

  it("a permission load that got no answer (aborted, no network) keeps the session and asks again, at once when the network returns", async () => {
    setItem("token", { accessToken: "A", refreshToken: "R", expiresAt: Date.now() + 3600_000 });
    setItem("loginInfo", { userName: "ana", grantedPolicies: [], token: "A" });
    // The browser aborting the call (the page reloaded meanwhile), then no network, then the answer.
    const answers = [
      () => Promise.reject(new DOMException("The user aborted a request.", "AbortError")),
      () => Promise.reject(new TypeError("Failed to fetch")),
      async () => new Response(envelope({}), { status: 200, headers: { "Content-Type": "application/json" } }),
    ];
    const fetch = vi.fn(() => (answers.shift() ?? answers[answers.length - 1])());
    vi.stubGlobal("fetch", fetch);
    const toasts: unknown[] = [];
    vi.spyOn(Toast, "show").mockImplementation((props) => void toasts.push(props));
    vi.useFakeTimers();
    render(<RouteGuard route={guarded}>page</RouteGuard>);
    // The aborted call: the error is toasted, the session stays, and the next try waits for the 1 s backoff.
    await act(async () => {
      await vi.advanceTimersByTimeAsync(999);
    });
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(toasts).toContainEqual(expect.objectContaining({ icon: "fail" }));
    expect(localStorage.getItem("token")).not.toBeNull();
    expect(screen.queryByText("page")).toBeNull();
    // Back online: asked again at once (no time passes), without waiting for the backoff.
    await act(async () => {
      window.dispatchEvent(new Event("online"));
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(fetch).toHaveBeenCalledTimes(2);
    await act(async () => {
      window.dispatchEvent(new Event("online"));
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(screen.getByText("page")).toBeTruthy();
    expect(localStorage.getItem("token")).not.toBeNull();
    expect(reload).not.toHaveBeenCalled();
  });
});
