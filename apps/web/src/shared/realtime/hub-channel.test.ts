import { RealtimeChannelState } from "@aquapilot/contract";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DeviceChangeChannel } from "./device-channel.js";
import { FakeConnection } from "./fake-connection.js";
import type { HubChannel, HubConnectionLike } from "./hub-channel.js";
import { MessageChannel } from "./message-channel.js";

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

/** The part of a channel these tests drive (either hub's message type). */
type Channel = Pick<HubChannel<unknown>, "start" | "stop" | "state" | "onState" | "onReconnected">;

const CHANNELS: Array<[string, (factory: () => HubConnectionLike, retryMs: number) => Channel]> = [
  ["hub 1 (device changes)", (factory, retryMs) => new DeviceChangeChannel(factory, retryMs)],
  ["hub 2 (messages)", (factory, retryMs) => new MessageChannel(factory, retryMs)],
];

describe.each(CHANNELS)("%s channel state (spec §3/§4)", (_name, make) => {
  it("start → connected; reconnect attempt → connecting; reconnected → connected; close → none", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const fake = new FakeConnection();
    const channel = make(() => fake, 60_000);
    const seen: number[] = [];
    channel.onState((s) => seen.push(s));
    const reconnected = vi.fn();
    channel.onReconnected(reconnected);
    await channel.start();
    expect(channel.state).toBe(RealtimeChannelState.Connected);
    fake.reconnecting?.(new Error("drop"));
    expect(channel.state).toBe(RealtimeChannelState.Connecting);
    fake.reconnected?.("id");
    expect(channel.state).toBe(RealtimeChannelState.Connected);
    expect(reconnected).toHaveBeenCalledTimes(1);
    fake.close?.(new Error("gone"));
    expect(channel.state).toBe(RealtimeChannelState.None);
    expect(seen).toEqual([1, 2, 1, 2, 0]);
    await channel.stop();
  });

  it("a failed start ends in none, is retried, and the late connect counts as a reconnect (refetch)", async () => {
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
    const reconnected = vi.fn();
    channel.onReconnected(reconnected);
    await channel.start();
    expect(channel.state).toBe(RealtimeChannelState.None);
    await vi.advanceTimersByTimeAsync(1000);
    expect(attempts).toHaveLength(2);
    expect(channel.state).toBe(RealtimeChannelState.Connected);
    expect(reconnected).toHaveBeenCalledTimes(1);
    await channel.stop();
    expect(attempts[1].stopped).toBe(true);
    expect(channel.state).toBe(RealtimeChannelState.None);
    // stopped: no further retry
    await vi.advanceTimersByTimeAsync(5000);
    expect(attempts).toHaveLength(2);
  });
});
