import { QueryClient, QueryClientProvider, useQuery } from "@tanstack/react-query";
import { renderHook, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { JUST_FETCHED_MS } from "../../shared/api/query-client.ts";
import { queryKeys } from "../../shared/api/query-keys.ts";
import { getDeviceInfoQueryOptions } from "../../shared/device/api/get-device-info.ts";
import { getSaltStatusQueryOptions } from "../../shared/device/api/get-salt-status.ts";
import { getStationDurationsQueryOptions } from "../../shared/device/api/get-station-durations.ts";
import { setItem } from "../../shared/storage/index.ts";
import { getUnitPreferencesQueryOptions } from "../../shared/units/api/get-unit-preferences.ts";
import { prefetchDevice } from "./prefetch.ts";

/** A server answering the Device screen's calls for device d1 of household f1; records each call's last path part. */
function server(gate: Promise<void> = Promise.resolve()) {
  const calls: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: string) => {
      const url = new URL(String(input), "http://app.test");
      const name = url.pathname.split("/").pop() ?? "";
      calls.push(name);
      await gate;
      const result =
        name === "query-device-info"
          ? { id: "d1", name: "Softener 1", online: true, station: null, remainingSeconds: null }
          : name === "device-station-maxworktime-cache"
            ? [{ station: 1, maxWorkTimeSeconds: 600 }]
            : name === "get-salt-status"
              ? { levelKg: 40, daysLeft: 30, clockDriftSeconds: 0 }
              : name === "units"
                ? { volumeUnit: "gal", hardnessUnit: "gpg" }
                : { totalCount: 1, items: [{ id: "d1", name: "Softener 1" }] };
      return Response.json({ success: true, result, error: null, __abp: true });
    }),
  );
  return calls;
}

const hash = (params: object) => `#/Device?params=${encodeURIComponent(JSON.stringify(params))}`;

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe("the Device screen's start-up calls (interactive within 2 s)", () => {
  it("asks for the live figures, station durations, salt, the household's devices and the units at once, not the statistics", async () => {
    setItem("token", { accessToken: "tok", refreshToken: "ref", expiresAt: Date.now() + 3_600_000 });
    let answer = () => {};
    const calls = server(new Promise((r) => (answer = r)));
    const client = new QueryClient();
    const done = prefetchDevice(client, hash({ deviceId: "d1", familyId: "f1" }));
    await waitFor(() =>
      expect([...calls].sort()).toEqual([
        "device-station-maxworktime-cache",
        "get-list-by-family-id",
        "get-salt-status",
        "query-device-info",
        "units",
      ]),
    );
    answer();
    await done;
    expect(client.getQueryData(getDeviceInfoQueryOptions("d1").queryKey)).toMatchObject({
      id: "d1",
      name: "Softener 1",
    });
    expect(client.getQueryData(getStationDurationsQueryOptions("d1").queryKey)).toEqual({ 1: 600 });
    expect(client.getQueryData(getSaltStatusQueryOptions("d1").queryKey)).toMatchObject({ levelKg: 40 });
    expect(client.getQueryData(queryKeys.familyDevices("f1"))).toHaveLength(1);
    expect(client.getQueryData(getUnitPreferencesQueryOptions().queryKey)).toEqual({
      volumeUnit: "gal",
      hardnessUnit: "gpg",
    });
    expect(calls).toHaveLength(5);
  });

  it("where the browser has a scheduler, starts each query in a task of its own", async () => {
    setItem("token", { accessToken: "tok", refreshToken: "ref", expiresAt: Date.now() + 3_600_000 });
    server();
    // scheduler.yield(): each continuation in a later task (a zero-delay timer here).
    vi.stubGlobal("scheduler", { yield: () => new Promise<void>((r) => setTimeout(r, 0)) });
    const client = new QueryClient();
    const done = prefetchDevice(client, hash({ deviceId: "d1", familyId: "f1" }));
    const started = () => client.getQueryCache().getAll().length;
    const seen = [started()];
    for (let turn = 0; turn < 4; turn++) {
      await new Promise((r) => setTimeout(r, 0));
      seen.push(started());
    }
    expect(seen).toEqual([1, 2, 3, 4, 5]);
    await done;
  });

  it("asks nothing without a device id, and the screen's first mount takes the answers", async () => {
    const calls = server();
    const client = new QueryClient();
    await prefetchDevice(client, "#/Device");
    await prefetchDevice(client, hash({ familyId: "f1" }));
    expect(calls).toEqual([]);

    await prefetchDevice(client, hash({ deviceId: "d1" }));
    expect(calls.sort()).toEqual(["device-station-maxworktime-cache", "get-salt-status", "query-device-info", "units"]);
    calls.length = 0;
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    // The clock stands still from here: the mount runs within the prefetch's moment, whatever the machine's load.
    vi.useFakeTimers({ now: Date.now() });
    const mounted = renderHook(
      () => [
        useQuery(getDeviceInfoQueryOptions("d1")),
        useQuery(getSaltStatusQueryOptions("d1")),
        useQuery(getStationDurationsQueryOptions("d1")),
      ],
      { wrapper },
    );
    expect(mounted.result.current.map((q) => q.data !== undefined)).toEqual([true, true, true]);
    // Whatever the mount scheduled has run, still inside JUST_FETCHED_MS of the prefetch.
    await vi.advanceTimersByTimeAsync(JUST_FETCHED_MS - 1);
    // The live figures and the salt are asked on every visit, but not twice in the first screen's first second.
    expect(calls).toEqual([]);
    mounted.unmount();
    vi.useRealTimers();
  });
});
