import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderHook, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { useFamilies } from "../../shared/api/families.ts";
import { useFamilyDevices } from "../../shared/api/family-devices.ts";
import { createAppQueryClient, JUST_FETCHED_MS } from "../../shared/api/query-client.ts";
import { queryKeys } from "../../shared/api/query-keys.ts";
import { setItem, setUserFamily } from "../../shared/storage/index.ts";
import { unitPreferencesKey } from "../../shared/units/api/keys.ts";
import { dashboardKey } from "./api/get-dashboard.ts";
import { prefetchHome } from "./prefetch.ts";

const family = (id: string) => ({ id, name: `Home ${id}` });

/** A server: families f1 and f2; the devices and dashboard of f1 and f2; 404 for any other household (absent to them). */
function server(gate: Promise<void> = Promise.resolve()) {
  const calls: string[] = [];
  const fetch = vi.fn(async (input: string) => {
    const url = new URL(String(input), "http://app.test");
    const familyId = url.searchParams.get("familyId");
    const name = url.pathname.split("/").pop();
    calls.push(url.pathname.endsWith("/family/") ? "families" : name === "units" ? "units" : `${name}:${familyId}`);
    await gate;
    if (familyId && !["f1", "f2"].includes(familyId)) {
      return Response.json(
        { success: false, result: null, error: { code: "NotFound", message: "Household not found." }, __abp: true },
        { status: 404 },
      );
    }
    const result = url.pathname.endsWith("/family/")
      ? { totalCount: 2, items: [family("f1"), family("f2")] }
      : name === "units"
        ? { volumeUnit: "gal", hardnessUnit: "gpg" }
        : url.pathname.endsWith("dashboard")
          ? { familyId, waterUsedTodayL: 10, devices: [] }
          : { totalCount: 0, items: [] };
    return Response.json({ success: true, result, error: null, __abp: true });
  });
  vi.stubGlobal("fetch", fetch);
  return calls;
}

function signIn(kept: string | null) {
  localStorage.clear();
  setItem("token", { accessToken: "tok", refreshToken: "ref", expiresAt: Date.now() + 3_600_000 });
  setItem("loginInfo", { userName: "ann", grantedPolicies: [], token: "tok" });
  if (kept) setUserFamily("ann", kept);
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  localStorage.clear();
});

describe("Home's start-up prefetch (no request waterfall)", () => {
  it("asks for the families, the owner's units and, at once, the kept household's devices and dashboard", async () => {
    signIn("f2");
    let answer = () => {};
    const calls = server(new Promise((r) => (answer = r)));
    const client = new QueryClient();
    const done = prefetchHome(client);
    // All three calls leave before any answer: the kept household does not wait for the families.
    await waitFor(() =>
      expect([...calls].sort()).toEqual(["dashboard:f2", "families", "get-list-by-family-id:f2", "units"]),
    );
    answer();
    await done;
    // Home's figures show in the owner's unit from its first paint (no switch from litres).
    expect(client.getQueryData(unitPreferencesKey)).toEqual({ volumeUnit: "gal", hardnessUnit: "gpg" });
    expect(client.getQueryData(queryKeys.families)).toEqual([family("f1"), family("f2")]);
    expect(client.getQueryData(queryKeys.familyDevices("f2"))).toEqual([]);
    expect(client.getQueryData(dashboardKey("f2"))).toMatchObject({ familyId: "f2" });
    expect(calls).toHaveLength(4);
  });

  it("without a kept household, or with one the user has left, loads the household Home will show, silently", async () => {
    const errors: string[] = [];
    for (const kept of [null, "gone"]) {
      signIn(kept);
      const calls = server();
      const client = createAppQueryClient((text) => errors.push(text));
      await prefetchHome(client);
      expect(client.getQueryData(queryKeys.familyDevices("f1"))).toEqual([]);
      expect(client.getQueryData(dashboardKey("f1"))).toMatchObject({ familyId: "f1" });
      expect(calls.filter((c) => c.endsWith(":f1")).sort()).toEqual(["dashboard:f1", "get-list-by-family-id:f1"]);
      expect(calls.filter((c) => c.endsWith(":gone"))).toHaveLength(kept ? 2 : 0);
    }
    // The 404s of the household the user left are not shown: Home's own queries show their errors.
    expect(errors).toEqual([]);
  });

  it("Home's first mount takes the prefetched answer; a later visit asks again", async () => {
    signIn("f1");
    const calls = server();
    const client = new QueryClient();
    await prefetchHome(client);
    calls.length = 0;
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    // The clock stands still from here: the mount and everything it schedules run within the prefetch's moment.
    const now = Date.now();
    vi.useFakeTimers({ now });
    const first = renderHook(() => useFamilies(), { wrapper });
    expect(first.result.current.data).toHaveLength(2);
    // Whatever the mount scheduled (a refetch, a notification) has run, still inside JUST_FETCHED_MS.
    await vi.advanceTimersByTimeAsync(JUST_FETCHED_MS - 1);
    expect(calls).toEqual([]);
    first.unmount();

    // Older than JUST_FETCHED_MS: the visit asks again (spec §6: a household left elsewhere disappears at once).
    vi.useRealTimers();
    vi.spyOn(Date, "now").mockReturnValue(now + JUST_FETCHED_MS + 1);
    const later = renderHook(() => useFamilies(), { wrapper });
    await waitFor(() => expect(calls).toEqual(["families"]));
    later.unmount();
  });

  it("an answer a hub patched a moment ago, not prefetched, is asked again on the visit", async () => {
    signIn("f1");
    const calls = server();
    const client = new QueryClient();
    // What useDeviceChanges does with a hub 1 message while Home is not shown.
    client.setQueryData(queryKeys.familyDevices("f1"), []);
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const visit = renderHook(() => useFamilyDevices("f1"), { wrapper });
    await waitFor(() => expect(calls).toEqual(["get-list-by-family-id:f1"]));
    visit.unmount();
  });
});
