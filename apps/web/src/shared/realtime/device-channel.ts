import {
  HUB_METHODS,
  HUB_PATHS,
  RealtimeChannelState,
  type TDeviceChangeMessage,
  ZDeviceChangeMessage,
} from "@aquapilot/contract";
import { HubConnectionBuilder, LogLevel } from "@microsoft/signalr";

/**
 * Real-time hub 1 (spec §7): `/signalr-hubs/device-chang-content-type-message`, method `DeviceChangContentTypeMessage`
 * whose single argument is a JSON string of {@link ZDeviceChangeMessage}. Bearer token, automatic reconnect, and the
 * channel state of spec §3/§4: none 0, connecting 1, connected 2.
 */

/** The part of `@microsoft/signalr`'s HubConnection the channel uses (a fake one stands in for it in unit tests). */
export interface HubConnectionLike {
  start(): Promise<void>;
  stop(): Promise<void>;
  on(method: string, handler: (...args: unknown[]) => void): void;
  onclose(callback: (error?: Error) => void): void;
  onreconnecting(callback: (error?: Error) => void): void;
  onreconnected(callback: (connectionId?: string) => void): void;
}

/** Builds the real SignalR connection of hub 1 with `accessTokenFactory` and `withAutomaticReconnect`. */
export function createDeviceHubConnection(
  accessTokenFactory: () => string | Promise<string>,
  baseUrl = "",
): HubConnectionLike {
  return new HubConnectionBuilder()
    .withUrl(baseUrl + HUB_PATHS.deviceChange, { accessTokenFactory })
    .withAutomaticReconnect([0, 2000, 5000, 10_000, 20_000, 30_000])
    .configureLogging(LogLevel.Warning)
    .build();
}

type Listener<T> = (value: T) => void;

/**
 * One hub-1 channel. `start()` and `stop()` may be called any number of times; listeners receive parsed messages
 * (invalid ones are logged and dropped), state changes, and reconnects (to refetch what may have been missed).
 */
export class DeviceChangeChannel {
  private connection: HubConnectionLike | null = null;
  private current: RealtimeChannelState = RealtimeChannelState.None;
  private wanted = false;
  private retry: ReturnType<typeof setTimeout> | null = null;
  private readonly messages = new Set<Listener<TDeviceChangeMessage>>();
  private readonly states = new Set<Listener<RealtimeChannelState>>();
  private readonly reconnects = new Set<Listener<void>>();

  /**
   * @param factory builds a new connection per start
   * @param retryMs delay before retrying a failed first start, ms (automatic reconnect covers later drops)
   */
  constructor(
    private readonly factory: () => HubConnectionLike,
    private readonly retryMs = 5000,
  ) {}

  /** The channel state of spec §3 (none 0, connecting 1, connected 2). */
  get state(): RealtimeChannelState {
    return this.current;
  }

  private setState(next: RealtimeChannelState): void {
    if (next === this.current) return;
    this.current = next;
    for (const l of this.states) l(next);
  }

  /** Starts the channel (spec §4: start → connected; failure → none, retried after `retryMs` while wanted). */
  async start(): Promise<void> {
    this.wanted = true;
    if (this.connection) return;
    const connection = this.factory();
    this.connection = connection;
    connection.on(HUB_METHODS.deviceChange, (payload: unknown) => this.receive(payload));
    connection.onreconnecting(() => this.setState(RealtimeChannelState.Connecting));
    connection.onreconnected(() => {
      this.setState(RealtimeChannelState.Connected);
      for (const l of this.reconnects) l();
    });
    connection.onclose((error) => {
      if (this.connection !== connection) return;
      if (error) console.warn("[realtime] hub 1 closed", error);
      this.connection = null;
      this.setState(RealtimeChannelState.None);
      this.scheduleRetry();
    });
    this.setState(RealtimeChannelState.Connecting);
    try {
      await connection.start();
      if (this.connection === connection) this.setState(RealtimeChannelState.Connected);
    } catch (err) {
      console.warn("[realtime] hub 1 start failed", err);
      if (this.connection === connection) {
        this.connection = null;
        this.setState(RealtimeChannelState.None);
        this.scheduleRetry();
      }
    }
  }

  private scheduleRetry(): void {
    if (!this.wanted || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      if (this.wanted && !this.connection) {
        void this.start().then(() => {
          // a late first connect may have missed messages
          if (this.current === RealtimeChannelState.Connected) for (const l of this.reconnects) l();
        });
      }
    }, this.retryMs);
  }

  /** Stops the channel (sign-out, 401): state → none, no retry. */
  async stop(): Promise<void> {
    this.wanted = false;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    const connection = this.connection;
    this.connection = null;
    this.setState(RealtimeChannelState.None);
    if (connection) await connection.stop().catch(() => {});
  }

  private receive(payload: unknown): void {
    let data: unknown = payload;
    if (typeof payload === "string") {
      try {
        data = JSON.parse(payload);
      } catch {
        console.warn("[realtime] hub 1 message is not JSON", payload);
        return;
      }
    }
    const parsed = ZDeviceChangeMessage.safeParse(data);
    if (!parsed.success) {
      console.warn("[realtime] hub 1 message does not match the contract", parsed.error.message);
      return;
    }
    for (const l of this.messages) l(parsed.data);
  }

  /** Listens for device change messages; returns the unsubscribe function. */
  onMessage(listener: Listener<TDeviceChangeMessage>): () => void {
    this.messages.add(listener);
    return () => this.messages.delete(listener);
  }

  /** Listens for state changes; returns the unsubscribe function. */
  onState(listener: Listener<RealtimeChannelState>): () => void {
    this.states.add(listener);
    return () => this.states.delete(listener);
  }

  /** Listens for successful reconnects (refetch what may have been missed); returns the unsubscribe function. */
  onReconnected(listener: Listener<void>): () => void {
    this.reconnects.add(listener);
    return () => this.reconnects.delete(listener);
  }
}
