import {
  HUB_CLOSE_ERRORS,
  HUB_METHODS,
  RealtimeChannelState,
  type TDeviceChangeMessage,
  type TFamilyDevice,
} from "@aquapilot/contract";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, renderHook } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { queryKeys } from "../api/query-keys.ts";
import { deviceChange } from "../testing/fixtures.ts";
import { DeviceChangeChannel } from "./device-channel.ts";
import { FakeConnection } from "./fake-connection.ts";
import { applyDeviceChange, useDeviceChanges } from "./index.ts";
import { loadHubModule } from "./lazy-hub.ts";

// The hubs' message schemas load with the SignalR client, after the first screen; the fake connections here skip
// that load.
beforeAll(() => loadHubModule());

const device = (id: string, over: Partial<TFamilyDevice> = {}): TFamilyDevice => ({
  id,
  familyId: "f1",
  name: `Softener ${id}`,
  image: null,
  online: true,
  station: 0,
  sort: 0,
  mac: "A1B2C3D4E5F6",
  deviceModel: null,
  lastReportTime: null,
  ...over,
});

const message = (over: Partial<TDeviceChangeMessage> = {}) =>
  JSON.stringify(
    deviceChange({
      mac: "A1B2C3D4E5F6",
      station: 1,
      stationRemainingSeconds: 300,
      remainingWaterL: 800,
      lastReportTime: "2025-05-01T10:00:00.000Z",
      ...over,
    }),
  );

afterEach(() => vi.restoreAllMocks());

describe("hub 1 messages", () => {
  it("parses the JSON string argument and drops what does not match the contract", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const fake = new FakeConnection();
    const channel = new DeviceChangeChannel(() => fake);
    const got = vi.fn();
    channel.onMessage(got);
    await channel.start();
    fake.send(HUB_METHODS.deviceChange, message());
    fake.send(HUB_METHODS.deviceChange, "{broken");
    fake.send(HUB_METHODS.deviceChange, JSON.stringify({ kind: "nope" }));
    expect(got).toHaveBeenCalledTimes(1);
    expect(got.mock.calls[0][0]).toMatchObject({ deviceId: "d1", station: 1 });
    await channel.stop();
  });
});

describe("applyDeviceChange", () => {
  it("patches station, online and report time of the matching device only", () => {
    const list = [device("d1"), device("d2")];
    const msg = JSON.parse(message({ online: false, station: null }));
    const next = applyDeviceChange(list, msg);
    expect(next[0]).toMatchObject({ online: false, station: 0, lastReportTime: "2025-05-01T10:00:00.000Z" });
    expect(next[1]).toBe(list[1]);
    expect(applyDeviceChange(list, { ...msg, deviceId: "zz" })).toBe(list);
  });
});

describe("useDeviceChanges", () => {
  it("patches the family device list in the query cache; each connection re-reads the device data read before it", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(1_000_000);
    const fake = new FakeConnection();
    const channel = new DeviceChangeChannel(() => fake);
    const client = new QueryClient();
    const list = queryKeys.familyDevices("f1");
    const info = [...queryKeys.deviceAll, "info", "d1"];
    const otherFamily = queryKeys.familyDevices("f2");
    // Home's first calls answered before the hub connects; another household's list answered after it.
    client.setQueryData(list, [device("d1"), device("d2", { station: 5 })]);
    client.setQueryData(info, { id: "d1" });
    client.setQueryData(otherFamily, [], { updatedAt: 1_000_900 });
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    vi.setSystemTime(1_000_500);
    const { result, unmount } = renderHook(() => useDeviceChanges("f1", channel), { wrapper });
    await act(async () => {});
    expect(result.current).toBe(RealtimeChannelState.Connected);
    const invalidated = (key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated;
    expect(invalidated(list)).toBe(true);
    expect(invalidated(info)).toBe(true);
    expect(invalidated(otherFamily)).toBe(false);

    vi.setSystemTime(1_001_000);
    act(() => fake.send(HUB_METHODS.deviceChange, message({ station: 3 })));
    act(() => fake.send(HUB_METHODS.deviceChange, message({ deviceId: "d2", familyId: "other", station: 4 })));
    expect(client.getQueryData<TFamilyDevice[]>(list)?.map((d) => d.station)).toEqual([3, 5]);
    client.setQueryData(otherFamily, [], { updatedAt: 1_001_000 });
    vi.setSystemTime(1_002_000);
    act(() => fake.reconnected?.("again"));
    expect(invalidated(otherFamily)).toBe(true);
    unmount();
    await channel.stop();
    vi.useRealTimers();
  });

  it("when the server ends the user's access to a household, forgets the one no longer listed; not on other closes", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    // The household list read again answers f2 only: f1 is gone.
    const calls: string[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) => {
        calls.push(String(url));
        return Response.json({
          success: true,
          result: { items: [{ id: "f2", name: "Flat" }], totalCount: 1 },
          __abp: true,
        });
      }),
    );
    const fake = new FakeConnection();
    const channel = new DeviceChangeChannel(() => fake, 60_000);
    const client = new QueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const { unmount } = renderHook(() => useDeviceChanges("f1", channel), { wrapper });
    await act(async () => {});
    const members = (familyId: string) => [...queryKeys.familyUserAll, "get-list-by-family-id", familyId];
    client.setQueryData(queryKeys.families, [{ id: "f1" }, { id: "f2" }]);
    client.setQueryData(queryKeys.familyDevices("f1"), [{ id: "d1" }]);
    client.setQueryData(members("f1"), []);
    client.setQueryData(members("f2"), []);
    client.setQueryData([...queryKeys.deviceAll, "info", "d1"], { name: "Softener" });

    act(() => fake.reconnecting?.(new Error("Server returned an error on close: Server is shutting down.")));
    await act(async () => {});
    expect(calls).toEqual([]);
    // The official client's error for the Close the server sends (allowReconnect: true → onreconnecting).
    act(() =>
      fake.reconnecting?.(new Error(`Server returned an error on close: ${HUB_CLOSE_ERRORS.familyAccessEnded}`)),
    );
    await vi.waitFor(() => expect(client.getQueryData(queryKeys.familyDevices("f1"))).toBeUndefined());
    expect(calls.some((url) => url.includes("/family"))).toBe(true);
    expect(client.getQueryData(members("f1"))).toBeUndefined();
    expect(client.getQueryData([...queryKeys.deviceAll, "info", "d1"])).toBeUndefined();
    expect(client.getQueryData(members("f2"))).toEqual([]);
    expect(client.getQueryData(queryKeys.families)).toEqual([{ id: "f2", name: "Flat" }]);
    unmount();
    await channel.stop();
    vi.unstubAllGlobals();
  });
});
