import { HUB_METHODS, type TDeviceChangeMessage, type TFault } from "@aquapilot/contract";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, renderHook, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { DeviceChangeChannel } from "../../shared/realtime/device-channel.ts";
import { FakeConnection } from "../../shared/realtime/fake-connection.ts";
import { loadHubModule } from "../../shared/realtime/lazy-hub.ts";
import { setItem } from "../../shared/storage/index.ts";
import { deviceChange } from "../../shared/testing/fixtures.ts";
import { LIVE_REFRESH_DEBOUNCE_MS, useLiveFaults } from "./hooks.ts";
import { faultFixture } from "./logic/fault-fixture.ts";

// The hubs' message schemas load with the SignalR client, which stays off the first screen; the fake connections here
// skip that load.
beforeAll(() => loadHubModule());

const leak = faultFixture();

const hubMessage = (over: Partial<TDeviceChangeMessage>) =>
  JSON.stringify(
    deviceChange({ mac: "0AA5A1E0F001", remainingWaterL: 800, lastReportTime: "2026-06-15T10:00:00.000Z", ...over }),
  );

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe("useLiveFaults (the list updates live from hub 1)", () => {
  it("fetches again once after a burst of close events, not for ordinary reports", async () => {
    setItem("token", { accessToken: "tok", refreshToken: "ref", expiresAt: Date.now() + 3_600_000 });
    const answers: TFault[][] = [[], [leak]];
    const fetchFaults = vi.fn(async (_url: string) =>
      Response.json({ success: true, result: answers.shift() ?? [leak], error: null, __abp: true }),
    );
    vi.stubGlobal("fetch", fetchFaults);
    const fake = new FakeConnection();
    const channel = new DeviceChangeChannel(() => fake);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(() => useLiveFaults(undefined, channel), { wrapper });
    await waitFor(() => expect(result.current.data).toEqual([]));
    expect(fetchFaults).toHaveBeenCalledTimes(1);
    expect(String(fetchFaults.mock.calls[0][0])).toContain("/api/run-lucky/device/app/fault/get-fault-list");

    // From here the clock moves only when the test says: the debounce window is measured, not waited for.
    vi.useFakeTimers();
    act(() => fake.send(HUB_METHODS.deviceChange, hubMessage({ station: 0 })));
    await vi.advanceTimersByTimeAsync(LIVE_REFRESH_DEBOUNCE_MS * 2);
    expect(fetchFaults).toHaveBeenCalledTimes(1);
    expect(String(fetchFaults.mock.calls[0][0])).toContain("/api/run-lucky/device/app/fault/get-fault-list");

    act(() => {
      fake.send(HUB_METHODS.deviceChange, hubMessage({ kind: "event", event: { type: "close", closeReason: 513 } }));
      fake.send(HUB_METHODS.deviceChange, hubMessage({ station: 5 }));
    });
    // Not before the debounce window has passed, then once.
    await vi.advanceTimersByTimeAsync(LIVE_REFRESH_DEBOUNCE_MS - 1);
    expect(fetchFaults).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(2);
    expect(fetchFaults).toHaveBeenCalledTimes(2);
    vi.useRealTimers();
    await waitFor(() => expect(result.current.data).toEqual([leak]));
    expect(fetchFaults).toHaveBeenCalledTimes(2);
    await channel.stop();
  });
});
