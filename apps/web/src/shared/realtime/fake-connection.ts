import type { HubConnectionLike } from "./hub-channel.ts";

/**
 * A stand-in for the SignalR HubConnection in unit tests (the network edge): the test drives its callbacks. `send`
 * invokes the client method `method` as the server would; nothing happens when the channel did not register it.
 */
export class FakeConnection implements HubConnectionLike {
  handlers = new Map<string, (...args: unknown[]) => void>();
  close?: (error?: Error) => void;
  reconnecting?: (error?: Error) => void;
  reconnected?: (id?: string) => void;
  stopped = false;
  private readonly startResult: () => Promise<void>;
  constructor(startResult: () => Promise<void> = () => Promise.resolve()) {
    this.startResult = startResult;
  }
  start() {
    return this.startResult();
  }
  async stop() {
    this.stopped = true;
  }
  on(method: string, handler: (...args: unknown[]) => void) {
    this.handlers.set(method, handler);
  }
  onclose(cb: (error?: Error) => void) {
    this.close = cb;
  }
  onreconnecting(cb: (error?: Error) => void) {
    this.reconnecting = cb;
  }
  onreconnected(cb: (id?: string) => void) {
    this.reconnected = cb;
  }
  /** Invokes client method `method` with `payload`, as the server's hub would. */
  send(method: string, payload: unknown) {
    this.handlers.get(method)?.(payload);
  }
}
