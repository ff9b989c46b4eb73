import { RealtimeChannelState } from "@aquapilot/contract/wire";
import { backoffDelay } from "./retry-policy.ts";
import { isSessionEndError, type SessionCheck } from "./session-end.ts";

/** The part of `@microsoft/signalr`'s HubConnection a channel uses (a fake one stands in for it in unit tests). */
export interface HubConnectionLike {
  start(): Promise<void>;
  /**
   * When the real connection's start began, ms since the epoch (set by a connection that first loads the client,
   * `lazyHubConnection`): what was read after it counts as read while connected. Absent: the call of `start()`.
   */
  readonly startedAt?: number;
  stop(): Promise<void>;
  on(method: string, handler: (...args: unknown[]) => void): void;
  onclose(callback: (error?: Error) => void): void;
  onreconnecting(callback: (error?: Error) => void): void;
  onreconnected(callback: (connectionId?: string) => void): void;
}

type Listener<T> = (value: T) => void;

/** What a channel listens for: the hub's name in logs, its client method, and the contract schema of its argument. */
export interface HubChannelSpec<T> {
  label: string;
  method: string;
  schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: { message: string } } };
}

/**
 * One real-time channel over a SignalR hub with the channel state of spec §3/§4 (start → connected; drop or reconnect
 * attempt → connecting; reconnected → connected; close or failure → none). `start()` and `stop()` may be called any
 * number of times. Listeners receive the method's argument parsed with the contract schema (an object or its JSON
 * text; invalid ones are logged and dropped), state changes, and every connection made (the first too) — after which
 * callers refetch what was read before it and may have changed meanwhile. A failed start or a closed connection
 * (automatic reconnect was stopped, the server went away) is retried while the channel is wanted, with jittered
 * exponential backoff that never gives up (spec §8: connection failures are only logged) — except when
 * the hub says the sign-in is over ({@link isSessionEndError}): then the channel's session check decides, once,
 * whether it starts again with a renewed token or stops for good.
 */
export class HubChannel<T> {
  private connection: HubConnectionLike | null = null;
  private current: RealtimeChannelState = RealtimeChannelState.None;
  private wanted = false;
  private retry: ReturnType<typeof setTimeout> | null = null;
  /** Failed starts and closes since the last successful start: the backoff's retry number. */
  private failures = 0;
  private readonly messages = new Set<Listener<T>>();
  private readonly states = new Set<Listener<RealtimeChannelState>>();
  private readonly connections = new Set<Listener<number>>();
  private readonly closeErrors = new Set<Listener<Error>>();

  private readonly retryDelay: (attempt: number) => number;

  private readonly spec: HubChannelSpec<T>;
  private readonly factory: () => HubConnectionLike;
  private readonly sessionCheck: SessionCheck | null;
  /**
   * @param spec the hub's method and the schema of its argument
   * @param factory builds a new connection per start
   * @param retry the wait before restarting after a failed start or a close, ms: a function of the retry number
   *   (0 for the first retry since the last successful start; default {@link backoffDelay}), or a fixed number
   * @param sessionCheck asked when the hub says the sign-in is over; without it such errors are retried like any other
   */
  constructor(
    spec: HubChannelSpec<T>,
    factory: () => HubConnectionLike,
    retry: number | ((attempt: number) => number) = (attempt) => backoffDelay(attempt),
    sessionCheck: SessionCheck | null = null,
  ) {
    this.spec = spec;
    this.factory = factory;
    this.sessionCheck = sessionCheck;
    this.retryDelay = typeof retry === "number" ? () => retry : retry;
  }

  /** The channel state of spec §3 (none 0, connecting 1, connected 2). */
  get state(): RealtimeChannelState {
    return this.current;
  }

  /** Whether the channel should be running (between `start()` and `stop()`). */
  get started(): boolean {
    return this.wanted;
  }

  private setState(next: RealtimeChannelState): void {
    if (next === this.current) return;
    this.current = next;
    for (const l of this.states) l(next);
  }

  /** Tells the listeners that messages flow from `since` (ms since the epoch) on: what was read before may be stale. */
  private announceConnected(since: number): void {
    for (const l of this.connections) l(since);
  }

  private announceCloseError(error: Error): void {
    for (const l of this.closeErrors) l(error);
  }

  /** Starts the channel (spec §4: start → connected; failure → none, retried with backoff while wanted). */
  async start(): Promise<void> {
    this.wanted = true;
    if (this.connection) return;
    const connection = this.factory();
    this.connection = connection;
    connection.on(this.spec.method, (payload: unknown) => this.receive(payload));
    connection.onreconnecting((error) => {
      if (this.connection !== connection) return;
      this.setState(RealtimeChannelState.Connecting);
      if (error) this.announceCloseError(error);
    });
    connection.onreconnected(() => {
      if (this.connection !== connection) return;
      this.setState(RealtimeChannelState.Connected);
      this.announceConnected(Date.now());
    });
    connection.onclose((error) => {
      if (this.connection !== connection) return;
      if (error) console.warn(`[realtime] ${this.spec.label} closed`, error);
      this.connection = null;
      this.setState(RealtimeChannelState.None);
      if (error) this.announceCloseError(error);
      this.retryOrEnd(error);
    });
    this.setState(RealtimeChannelState.Connecting);
    const called = Date.now();
    try {
      await connection.start();
      if (this.connection === connection) {
        this.failures = 0;
        this.setState(RealtimeChannelState.Connected);
        // Messages flow once the hub has the connection: a change between a screen's first calls and the start of the
        // real connection (the lazily loaded client starts it after the first screen: on a phone seconds after those
        // calls) reached nobody, on the first start as after a drop, so the listeners re-read what was read before.
        this.announceConnected(connection.startedAt ?? called);
      }
    } catch (err) {
      console.warn(`[realtime] ${this.spec.label} start failed`, err);
      if (this.connection === connection) {
        this.connection = null;
        this.setState(RealtimeChannelState.None);
        this.retryOrEnd(err instanceof Error ? err : undefined);
      }
    }
  }

  /**
   * After a close or a failed start: an error that says the sign-in is over goes to the session check (no retry loop
   * on 401 or on an "access ended" close), which restarts the channel at once or stops it for good; anything else is
   * retried with backoff.
   */
  private retryOrEnd(error: Error | undefined): void {
    const check = this.sessionCheck;
    if (!error || !check || !isSessionEndError(error)) {
      this.scheduleRetry();
      return;
    }
    void check(error)
      .catch(() => true)
      .then((goesOn) => {
        if (!this.wanted || this.connection) return;
        if (goesOn) void this.start();
        else void this.stop();
      });
  }

  private scheduleRetry(): void {
    if (!this.wanted || this.retry) return;
    const delay = this.retryDelay(this.failures);
    this.failures++;
    this.retry = setTimeout(() => {
      this.retry = null;
      if (!this.wanted || this.connection) return;
      void this.start(); // announces its connection: what was sent meanwhile is fetched
    }, delay);
  }

  /** Stops the channel (sign-out, 401): state → none, no retry. */
  async stop(): Promise<void> {
    this.wanted = false;
    this.failures = 0;
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
        console.warn(`[realtime] ${this.spec.label} message is not JSON`, payload);
        return;
      }
    }
    const parsed = this.spec.schema.safeParse(data);
    if (!parsed.success) {
      console.warn(`[realtime] ${this.spec.label} message does not match the contract`, parsed.error.message);
      return;
    }
    for (const l of this.messages) l(parsed.data);
  }

  /** Listens for the hub's messages; returns the unsubscribe function. */
  onMessage(listener: Listener<T>): () => void {
    this.messages.add(listener);
    return () => this.messages.delete(listener);
  }

  /** Listens for state changes; returns the unsubscribe function. */
  onState(listener: Listener<RealtimeChannelState>): () => void {
    this.states.add(listener);
    return () => this.states.delete(listener);
  }

  /**
   * Listens for every connection made — the first start, a restart, an automatic reconnect — with the time (ms since
   * the epoch) from which the hub's messages reach this channel: data read before it may have missed a change and is
   * read again by the listener (see {@link readBefore}). Returns the unsubscribe function.
   */
  onConnected(listener: Listener<number>): () => void {
    this.connections.add(listener);
    return () => this.connections.delete(listener);
  }

  /**
   * Listens for the connection ending with an error — whether the client reconnects (`onreconnecting`) or not
   * (`onclose`): a server's Close message arrives as `Error("Server returned an error on close: <text>")`, so
   * listeners match the texts of `HUB_CLOSE_ERRORS` (contract) in `error.message`. Returns the unsubscribe function.
   */
  onCloseError(listener: Listener<Error>): () => void {
    this.closeErrors.add(listener);
    return () => this.closeErrors.delete(listener);
  }
}

/**
 * A TanStack Query filter predicate: the queries whose data was read before `since` (ms since the epoch) — those a
 * connection made at `since` may have left stale. Queries that never had data are left to their own fetch.
 */
export function readBefore(since: number): (query: { state: { dataUpdatedAt: number } }) => boolean {
  return (query) => query.state.dataUpdatedAt > 0 && query.state.dataUpdatedAt < since;
}
