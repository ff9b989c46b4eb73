import { RealtimeChannelState } from "@aquapilot/contract";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { DeviceChangeChannel } from "./device-channel.ts";
import { FakeConnection } from "./fake-connection.ts";
import { type HubChannel, type HubConnectionLike, readBefore } from "./hub-channel.ts";
import { loadHubModule } from "./lazy-hub.ts";
import { MessageChannel } from "./message-channel.ts";

// The hubs' message schemas load with the SignalR client, after the first screen; the fake connections here skip
// that load.
beforeAll(() => loadHubModule());

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

/** The part of a channel these tests drive (either hub's message type). */
type Channel = Pick<HubChannel<unknown>, "start" | "stop" | "state" | "onState" | "onConnected">;

type Retry = number | ((attempt: number) => number);
const CHANNELS: Array<[string, (factory: () => HubConnectionLike, retry: Retry) => Channel]> = [
  ["hub 1 (device changes)", (factory, retry) => new DeviceChangeChannel(factory, retry)],
  ["hub 2 (messages)", (factory, retry) => new MessageChannel(factory, retry)],
];

describe.each(CHANNELS)("%s channel state (spec §3/§4)", (_name, make) => {
  /** The channel with a deterministic backoff of 1000 · 2^retry ms (the app's default adds jitter and a cap). */
  const makeWithDelay = (factory: () => HubConnectionLike) => make(factory, (attempt) => 1000 * 2 ** attempt);

  it("start → connected; reconnect attempt → connecting; reconnected → connected; close → none", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const fake = new FakeConnection();
    const channel = make(() => fake, 60_000);
    const seen: number[] = [];
    channel.onState((s) => seen.push(s));
    const connected = vi.fn();
    channel.onConnected(connected);
    const beforeStart = Date.now();
    await channel.start();
    expect(channel.state).toBe(RealtimeChannelState.Connected);
    // The first connection is announced too, with the time its messages flow from (a change before it was missed).
    expect(connected).toHaveBeenCalledTimes(1);
    const firstSince = connected.mock.calls[0][0] as number;
    expect(firstSince).toBeGreaterThanOrEqual(beforeStart);
    expect(firstSince).toBeLessThanOrEqual(Date.now());
    fake.reconnecting?.(new Error("drop"));
    expect(channel.state).toBe(RealtimeChannelState.Connecting);
    fake.reconnected?.("id");
    expect(channel.state).toBe(RealtimeChannelState.Connected);
    expect(connected).toHaveBeenCalledTimes(2);
    expect(connected.mock.calls[1][0]).toBeGreaterThanOrEqual(firstSince);
    fake.close?.(new Error("gone"));
    expect(channel.state).toBe(RealtimeChannelState.None);
    expect(seen).toEqual([1, 2, 1, 2, 0]);
    await channel.stop();
  });

  it("announces the connection from when the real connection's start began (after the client loaded)", async () => {
    vi.useFakeTimers();
    // The client's load takes 1.5 s (afterFirstScreen, the chunk), then negotiation and handshake 0.5 s.
    const fake = new FakeConnection(() => new Promise<void>((resolve) => setTimeout(resolve, 500)));
    let startedAt: number | undefined;
    const lazy: HubConnectionLike = {
      start: async () => {
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        startedAt = Date.now();
        await fake.start();
      },
      get startedAt() {
        return startedAt;
      },
      stop: () => fake.stop(),
      on: (m, h) => fake.on(m, h),
      onclose: (cb) => fake.onclose(cb),
      onreconnecting: (cb) => fake.onreconnecting(cb),
      onreconnected: (cb) => fake.onreconnected(cb),
    };
    const channel = make(() => lazy, 60_000);
    const connected = vi.fn();
    channel.onConnected(connected);
    const beforeStart = Date.now();
    const started = channel.start();
    await vi.advanceTimersByTimeAsync(2_000);
    await started;
    expect(channel.state).toBe(RealtimeChannelState.Connected);
    expect(connected).toHaveBeenCalledTimes(1);
    const stale = readBefore(connected.mock.calls[0][0] as number);
    // Data answered 1 s in (while the client loaded) counts as read before the connection; 1.6 s in, as read with it.
    expect(stale({ state: { dataUpdatedAt: beforeStart + 1_000 } })).toBe(true);
    expect(stale({ state: { dataUpdatedAt: beforeStart + 1_600 } })).toBe(false);
    await channel.stop();
  });

  it("a failed start ends in none, is retried, and the late connect is announced once (refetch)", async () => {
    vi.useFakeTimers();
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const attempts: FakeConnection[] = [];
    const channel = make(() => {
      const fake = new FakeConnection(() =>
        attempts.length === 1 ? Promise.reject(new Error("refused")) : Promise.resolve(),
      );
      attempts.push(fake);
      return fake;
    }, 1000);
    const connected = vi.fn();
    channel.onConnected(connected);
    await channel.start();
    expect(channel.state).toBe(RealtimeChannelState.None);
    await vi.advanceTimersByTimeAsync(1000);
    expect(attempts).toHaveLength(2);
    expect(channel.state).toBe(RealtimeChannelState.Connected);
    expect(connected).toHaveBeenCalledTimes(1);
    await channel.stop();
    expect(attempts[1].stopped).toBe(true);
    expect(channel.state).toBe(RealtimeChannelState.None);
    // stopped: no further retry
    await vi.advanceTimersByTimeAsync(5000);
    expect(attempts).toHaveLength(2);
  });

  it("restarts forever with growing waits (by retry number), and starts counting again after a success", async () => {
    vi.useFakeTimers();
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const attempts: FakeConnection[] = [];
    // The server is away for the first 8 starts; then it is back.
    const channel = makeWithDelay(() => {
      const fake = new FakeConnection(() =>
        attempts.length <= 8 ? Promise.reject(new Error("server away")) : Promise.resolve(),
      );
      attempts.push(fake);
      return fake;
    });
    const startedAt: number[] = [];
    const t0 = Date.now();
    const record = () => startedAt.push(Date.now() - t0);
    channel.onState((s) => {
      if (s === RealtimeChannelState.Connecting) record();
    });
    await channel.start();
    await vi.advanceTimersByTimeAsync(1000 * (2 ** 9 - 1));
    expect(attempts).toHaveLength(9);
    expect(channel.state).toBe(RealtimeChannelState.Connected);
    // waits of 1, 2, 4 … 128 s between the starts: retry number n waits 1000 · 2^n ms
    const waits = startedAt.slice(1).map((t, i) => t - startedAt[i]);
    expect(waits).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000, 64_000, 128_000]);
    // The server ends the connection later: the first retry after a success waits the first step again.
    attempts[8].close?.(new Error("ended"));
    await vi.advanceTimersByTimeAsync(999);
    expect(attempts).toHaveLength(9);
    await vi.advanceTimersByTimeAsync(1);
    expect(attempts).toHaveLength(10);
    expect(channel.state).toBe(RealtimeChannelState.Connected);
    await channel.stop();
  });
});
