import { RealtimeChannelState } from "@aquapilot/contract/wire";
import { useSyncExternalStore } from "react";

/**
 * The phone's link to the cloud, the first of the three facts the app shows (docs/architecture.md "What the phone
 * shows"): `connected` — the phone is online and hub 1, when running, is connected; `reconnecting` — the phone is
 * online but hub 1 has been away longer than {@link LINK_GRACE_MS} (server stopped or unreachable); `offline` — the
 * phone has no network (`navigator.onLine` false).
 */
export type PhoneLinkState = "connected" | "reconnecting" | "offline";

/** What the app shows of the link: its state and, when lost, since when the figures on screen date (ms epoch). */
export interface PhoneLinkSnapshot {
  readonly state: PhoneLinkState;
  /** When the link was last known good (the figures shown date from then); null while connected. */
  readonly since: number | null;
}

/**
 * A hub reconnecting for less than this long is not shown as a lost link (ms): a hub restarts within about a second
 * after a server restart or a token renewal, and a flash of "No connection" there would be untrue. A phone without
 * network is shown at once. Together with the hub's own detection (a closed socket is seen at once) the banner comes
 * well within 5 s of the loss.
 */
export const LINK_GRACE_MS = 2000;

/** The parts of a hub channel the link reads (a `HubChannel`). */
export interface LinkChannel {
  readonly state: RealtimeChannelState;
  /** Whether the channel is wanted (started and not stopped): a stopped channel (signed out) says nothing. */
  readonly started: boolean;
  onState(listener: (state: RealtimeChannelState) => void): () => void;
}

/** Where the link learns whether the phone has a network (the browser's `navigator.onLine` and its events). */
export interface NetworkSource {
  online(): boolean;
  /** Calls `listener` on every change; returns the function that stops it. */
  subscribe(listener: () => void): () => void;
}

/** The browser's network flag: `navigator.onLine` with its `online`/`offline` window events. */
export const browserNetwork: NetworkSource = {
  online: () => (typeof navigator === "undefined" ? true : navigator.onLine !== false),
  subscribe(listener) {
    if (typeof window === "undefined") return () => {};
    window.addEventListener("online", listener);
    window.addEventListener("offline", listener);
    return () => {
      window.removeEventListener("online", listener);
      window.removeEventListener("offline", listener);
    };
  },
};

const CONNECTED: PhoneLinkSnapshot = Object.freeze({ state: "connected", since: null });

/**
 * Watches the phone's link to the cloud from the network flag and hub 1's state and publishes a
 * {@link PhoneLinkSnapshot}: offline at once when the network goes, reconnecting once the hub has been away for
 * {@link LINK_GRACE_MS}, connected as soon as both are back. `since` is when the link was last good: the moment the
 * network went or the hub left the connected state (or the hub's start, when it never connected), so the banner can
 * say how old the figures on screen are. Snapshots are immutable; listeners hear each change once.
 */
export class PhoneLinkWatcher {
  private snapshot: PhoneLinkSnapshot = CONNECTED;
  /** When the raw link (network and hub) was last good and then lost, ms epoch; null while good. */
  private lostAt: number | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly listeners = new Set<() => void>();
  private readonly detach: Array<() => void> = [];

  private readonly channel: LinkChannel;
  private readonly network: NetworkSource;
  private readonly now: () => number;
  private readonly graceMs: number;
  /**
   * @param channel hub 1 (its state and whether it is wanted)
   * @param network the phone's network flag (default: the browser's)
   * @param now the clock, ms epoch (tests fix it)
   * @param graceMs how long a reconnecting hub is not yet shown as lost, ms
   */
  constructor(
    channel: LinkChannel,
    network: NetworkSource = browserNetwork,
    now: () => number = Date.now,
    graceMs = LINK_GRACE_MS,
  ) {
    this.channel = channel;
    this.network = network;
    this.now = now;
    this.graceMs = graceMs;
    this.detach.push(channel.onState(() => this.update()));
    this.detach.push(network.subscribe(() => this.update()));
    this.update();
  }

  /** The link as shown now. */
  get current(): PhoneLinkSnapshot {
    return this.snapshot;
  }

  /** Listens for changes of {@link current}; returns the function that stops listening. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stops watching (tests). */
  dispose(): void {
    for (const off of this.detach.splice(0)) off();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Reads the network and the hub again and publishes what changed. */
  update(): void {
    const online = this.network.online();
    const hubAway = this.channel.started && this.channel.state !== RealtimeChannelState.Connected;
    if (online && !hubAway) {
      this.lostAt = null;
      this.clearTimer();
      this.publish(CONNECTED);
      return;
    }
    this.lostAt ??= this.now();
    if (!online) {
      this.clearTimer();
      this.publish({ state: "offline", since: this.lostAt });
      return;
    }
    const waited = this.now() - this.lostAt;
    if (waited >= this.graceMs) {
      this.clearTimer();
      this.publish({ state: "reconnecting", since: this.lostAt });
      return;
    }
    // Within the grace: still shown as connected (or as it was, when it was offline a moment ago).
    if (this.snapshot.state === "offline") this.publish({ state: "reconnecting", since: this.lostAt });
    if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.update();
      }, this.graceMs - waited);
    }
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private publish(next: PhoneLinkSnapshot): void {
    if (next.state === this.snapshot.state && next.since === this.snapshot.since) return;
    this.snapshot = next;
    for (const l of this.listeners) l();
  }
}

/** The watcher's snapshot as React state; redraws the caller on each change only. */
export function usePhoneLinkOf(watcher: PhoneLinkWatcher): PhoneLinkSnapshot {
  return useSyncExternalStore(
    (cb) => watcher.subscribe(cb),
    () => watcher.current,
    () => CONNECTED,
  );
}
