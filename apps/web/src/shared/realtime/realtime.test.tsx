import { HUB_METHODS, RealtimeChannelState, type TDeviceChangeMessage, type TFamilyDevice } from "@aquapilot/contract";
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

// The hubs' message schemas load with the SignalR client (issue 12); the fake connections here skip that load.
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
  it("patches the family device list in the query cache and invalidates after a reconnect", async () => {
    const fake = new FakeConnection();
    const channel = new DeviceChangeChannel(() => fake);
    const client = new QueryClient();
    client.setQueryData(queryKeys.familyDevices("f1"), [device("d1"), device("d2", { station: 5 })]);
    const invalidate = vi.spyOn(client, "invalidateQueries");
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const { result, unmount } = renderHook(() => useDeviceChanges("f1", channel), { wrapper });
    await act(async () => {});
    expect(result.current).toBe(RealtimeChannelState.Connected);
    act(() => fake.send(HUB_METHODS.deviceChange, message({ station: 3 })));
    act(() => fake.send(HUB_METHODS.deviceChange, message({ deviceId: "d2", familyId: "other", station: 4 })));
    const list = client.getQueryData<TFamilyDevice[]>(queryKeys.familyDevices("f1"));
    expect(list?.map((d) => d.station)).toEqual([3, 5]);
    act(() => fake.reconnected?.("again"));
    expect(invalidate).toHaveBeenCalledWith({ queryKey: queryKeys.familyDevicesAll });
    unmount();
    await channel.stop();
  });
});
