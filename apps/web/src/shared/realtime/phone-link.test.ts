import { RealtimeChannelState } from "@aquapilot/contract/wire";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type LinkChannel, type NetworkSource, PhoneLinkWatcher } from "./phone-link.ts";

/** A hub channel whose state the test sets. */
class FakeChannel implements LinkChannel {
  state: RealtimeChannelState = RealtimeChannelState.Connected;
  started = true;
  private readonly listeners = new Set<(s: RealtimeChannelState) => void>();
  onState(listener: (s: RealtimeChannelState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  set(state: RealtimeChannelState): void {
    this.state = state;
    for (const l of this.listeners) l(state);
  }
}

/** A network flag the test flips. */
class FakeNetwork implements NetworkSource {
  up = true;
  private readonly listeners = new Set<() => void>();
  online(): boolean {
    return this.up;
  }
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  flip(up: boolean): void {
    this.up = up;
    for (const l of this.listeners) l();
  }
}

describe("PhoneLinkWatcher", () => {
  let channel: FakeChannel;
  let network: FakeNetwork;
  let watcher: PhoneLinkWatcher;
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
    channel = new FakeChannel();
    network = new FakeNetwork();
    watcher = new PhoneLinkWatcher(channel, network, () => Date.now(), 2000);
  });
  afterEach(() => {
    watcher.dispose();
    vi.useRealTimers();
  });

  it("goes offline at once when the network goes, since that moment, and back when it returns", () => {
    const heard: string[] = [];
    watcher.subscribe(() => heard.push(watcher.current.state));
    vi.advanceTimersByTime(5000);
    network.flip(false);
    expect(watcher.current).toEqual({ state: "offline", since: 1_005_000 });
    vi.advanceTimersByTime(60_000);
    expect(watcher.current.since).toBe(1_005_000);
    network.flip(true);
    expect(watcher.current).toEqual({ state: "connected", since: null });
    expect(heard).toEqual(["offline", "connected"]);
  });

  it("shows a reconnecting hub only after the grace, dated from when the hub left", () => {
    vi.advanceTimersByTime(1000);
    channel.set(RealtimeChannelState.Connecting);
    vi.advanceTimersByTime(1999);
    expect(watcher.current.state).toBe("connected");
    vi.advanceTimersByTime(1);
    expect(watcher.current).toEqual({ state: "reconnecting", since: 1_001_000 });
    channel.set(RealtimeChannelState.Connected);
    expect(watcher.current.state).toBe("connected");
  });

  it("a short hub restart within the grace is never shown", () => {
    const heard: string[] = [];
    watcher.subscribe(() => heard.push(watcher.current.state));
    channel.set(RealtimeChannelState.Connecting);
    vi.advanceTimersByTime(1500);
    channel.set(RealtimeChannelState.Connected);
    vi.advanceTimersByTime(10_000);
    expect(heard).toEqual([]);
  });

  it("after the network returns, a hub still reconnecting stays shown as reconnecting with the same age", () => {
    network.flip(false);
    channel.set(RealtimeChannelState.Connecting);
    vi.advanceTimersByTime(30_000);
    network.flip(true);
    expect(watcher.current).toEqual({ state: "reconnecting", since: 1_000_000 });
    channel.set(RealtimeChannelState.Connected);
    expect(watcher.current.state).toBe("connected");
  });

  it("a stopped hub (signed out) is not a lost link", () => {
    channel.started = false;
    channel.set(RealtimeChannelState.None);
    vi.advanceTimersByTime(10_000);
    expect(watcher.current.state).toBe("connected");
  });
});
