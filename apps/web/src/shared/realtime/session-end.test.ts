import { HUB_CLOSE_ERRORS, RealtimeChannelState } from "@aquapilot/contract";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { DeviceChangeChannel } from "./device-channel.ts";
import { FakeConnection } from "./fake-connection.ts";
import { loadHubModule } from "./lazy-hub.ts";
import { MessageChannel } from "./message-channel.ts";
import { ForeverRetryPolicy } from "./retry-policy.ts";
import { isSessionEndError, type SessionCheck } from "./session-end.ts";

beforeAll(() => loadHubModule());
afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

/** The errors the SignalR client raises when the server closes a connection or refuses its negotiation. */
const closedWith = (text: string) => new Error(`Server returned an error on close: ${text}`);
const negotiationRefused = (status: number) =>
  new Error(`Failed to complete negotiation with the server: Error: Unauthorized: Status code '${status}'`);

describe("the end of a sign-in as the hubs tell it", () => {
  it("the server's final closes and a refused negotiation are endings; drops and other failures are not", () => {
    expect(isSessionEndError(closedWith(HUB_CLOSE_ERRORS.accessEnded))).toBe(true);
    expect(isSessionEndError(closedWith(HUB_CLOSE_ERRORS.sessionEnded))).toBe(true);
    expect(isSessionEndError(negotiationRefused(401))).toBe(true);
    expect(isSessionEndError(negotiationRefused(404))).toBe(true);
    expect(isSessionEndError(closedWith(HUB_CLOSE_ERRORS.familyAccessEnded))).toBe(false);
    expect(isSessionEndError(negotiationRefused(503))).toBe(false);
    expect(isSessionEndError(new Error("WebSocket closed with status code: 1006 ()."))).toBe(false);
  });

  it("the reconnect policy stops retrying on a 401 (a new token is needed), never on a drop", () => {
    const policy = new ForeverRetryPolicy(() => 1000);
    const ctx = (retryReason: Error) => ({ previousRetryCount: 3, elapsedMilliseconds: 60_000, retryReason });
    expect(policy.nextRetryDelayInMilliseconds(ctx(negotiationRefused(401)))).toBeNull();
    expect(policy.nextRetryDelayInMilliseconds(ctx(new Error("connection lost")))).toBe(1000);
  });
});

describe.each([
  ["hub 1", (f: () => FakeConnection, check: SessionCheck) => new DeviceChangeChannel(f, 1000, check)],
  ["hub 2", (f: () => FakeConnection, check: SessionCheck) => new MessageChannel(f, 1000, check)],
])("%s: an ending is final, never a retry loop", (_name, make) => {
  it("an 'access ended' close asks the session check once; an ended session stops the channel for good", async () => {
    vi.useFakeTimers();
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const made: FakeConnection[] = [];
    const check = vi.fn(async () => false);
    const channel = make(() => {
      const c = new FakeConnection();
      made.push(c);
      return c;
    }, check);
    await channel.start();
    made[0].close?.(closedWith(HUB_CLOSE_ERRORS.accessEnded));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(check).toHaveBeenCalledTimes(1);
    expect(made).toHaveLength(1); // no new connection: no retry
    expect(channel.started).toBe(false);
    expect(channel.state).toBe(RealtimeChannelState.None);
  });

  it("a refused start with a renewed token starts again at once, with no backoff", async () => {
    vi.useFakeTimers();
    vi.spyOn(console, "warn").mockImplementation(() => {});
    let starts = 0;
    const check = vi.fn(async () => true);
    const channel = make(
      () => new FakeConnection(() => (++starts === 1 ? Promise.reject(negotiationRefused(401)) : Promise.resolve())),
      check,
    );
    await channel.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(check).toHaveBeenCalledTimes(1);
    expect(starts).toBe(2);
    expect(channel.state).toBe(RealtimeChannelState.Connected);
  });

  it("a session check that fails on the network counts as 'goes on'; a plain drop is retried without asking", async () => {
    vi.useFakeTimers();
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const made: FakeConnection[] = [];
    const check = vi.fn(async () => {
      throw new Error("network");
    });
    const channel = make(() => {
      const c = new FakeConnection();
      made.push(c);
      return c;
    }, check);
    await channel.start();
    made[0].close?.(closedWith(HUB_CLOSE_ERRORS.sessionEnded));
    await vi.advanceTimersByTimeAsync(0);
    expect(made).toHaveLength(2);
    made[1].close?.(new Error("WebSocket closed with status code: 1006 ()."));
    await vi.advanceTimersByTimeAsync(999);
    expect(made).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(made).toHaveLength(3);
    expect(check).toHaveBeenCalledTimes(1);
    await channel.stop();
  });
});
