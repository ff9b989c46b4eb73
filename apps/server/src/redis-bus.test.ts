import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  redisServerBinary,
  redisServerRequirement,
  startThrowawayRedis,
  type ThrowawayRedis,
} from "../test/redis-server.ts";
import { skipUnlessInstalled } from "../test/required-programs.ts";
import type { BusEvent } from "./bus.ts";
import { RedisBus, type RedisBusLogger, redactRedisUrl } from "./redis-bus.ts";

const binary = redisServerBinary();
const skip = skipUnlessInstalled("RedisBus", [redisServerRequirement(binary)]);

const PASSWORD = "bus-test-Pa55word-x7";

/** A logger that keeps every line (level, object, message) so the test can read what was logged. */
function recordingLogger(): RedisBusLogger & { lines: Array<{ level: string; text: string }> } {
  const lines: Array<{ level: string; text: string }> = [];
  const at = (level: string) => (obj: object, msg: string) => {
    lines.push({ level, text: `${msg} ${JSON.stringify(obj, (_k, v) => (v instanceof Error ? v.message : v))}` });
  };
  return { lines, info: at("info"), warn: at("warn"), error: at("error") };
}

async function waitFor(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A `user.revoked` event whose userId names the publisher and a sequence number (`a:7`). */
const event = (publisher: string, n: number): BusEvent => ({ type: "user.revoked", userId: `${publisher}:${n}` });
const ids = (events: BusEvent[], publisher: string) =>
  events.flatMap((e) => (e.type === "user.revoked" && e.userId.startsWith(`${publisher}:`) ? [e.userId] : []));
const range = (publisher: string, from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => `${publisher}:${from + i}`);

/**
 * RedisBus, the backplane of N server processes: two buses on one throwaway redis-server (with a password) stand for
 * two server processes. Each subscriber of each bus gets every event of both publishers exactly once and in each
 * publisher's order; after a Redis restart the buses reconnect and events published then are delivered; the password
 * never reaches the log; close() ends both connections.
 */
describe.skipIf(skip)("RedisBus", () => {
  let redis: ThrowawayRedis;
  let a: RedisBus;
  let b: RedisBus;
  const logA = recordingLogger();
  const logB = recordingLogger();
  /** What each subscriber received: two on bus a, one on bus b. */
  const got: Record<"a1" | "a2" | "b1", BusEvent[]> = { a1: [], a2: [], b1: [] };

  beforeAll(async () => {
    redis = await startThrowawayRedis(binary!, { password: PASSWORD });
    a = new RedisBus({ url: redis.url, logger: logA });
    b = new RedisBus({ url: redis.url, logger: logB });
    expect(await a.ready()).toBe(true);
    expect(await b.ready()).toBe(true);
    a.subscribe((e) => got.a1.push(e));
    a.subscribe((e) => got.a2.push(e));
    b.subscribe((e) => got.b1.push(e));
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await redis?.stop();
  });

  it("delivers each event of either process exactly once to every subscriber, in each publisher's order", async () => {
    for (let i = 0; i < 200; i++) {
      a.publish(event("a", i));
      b.publish(event("b", i));
    }
    // The publisher's own subscribers have it at once (synchronously), the other process's through Redis.
    expect(ids(got.a1, "a")).toEqual(range("a", 0, 200));
    await waitFor(() => Object.values(got).every((list) => list.length >= 400));
    await new Promise((resolve) => setTimeout(resolve, 200)); // room for a duplicate to show up
    for (const list of Object.values(got)) {
      expect(list).toHaveLength(400);
      expect(ids(list, "a")).toEqual(range("a", 0, 200));
      expect(ids(list, "b")).toEqual(range("b", 0, 200));
    }
    // A whole event crosses intact (JSON): a device acknowledgement with its nested message.
    const change = {
      type: "device.changed",
      familyId: "F-1",
      deviceId: "D-1",
      message: {
        kind: "ack",
        deviceId: "D-1",
        familyId: "F-1",
        online: true,
        ack: { commandId: "c", ok: false, error: "é" },
      },
    } as unknown as BusEvent;
    a.publish(change);
    await waitFor(() => got.b1.length === 401);
    expect(got.b1[400]).toEqual(change);
  });

  it("subscribeLocal hears only its own process's events (work done once across processes)", async () => {
    const localA: BusEvent[] = [];
    const localB: BusEvent[] = [];
    const offA = a.subscribeLocal((e) => localA.push(e));
    const offB = b.subscribeLocal((e) => localB.push(e));
    const before = got.b1.length;
    try {
      a.publish(event("a", 500));
      b.publish(event("b", 500));
      await waitFor(() => got.b1.length === before + 2);
      await new Promise((resolve) => setTimeout(resolve, 100)); // room for the other's event to show up
      expect(ids(localA, "a")).toEqual(["a:500"]);
      expect(ids(localA, "b")).toEqual([]);
      expect(ids(localB, "b")).toEqual(["b:500"]);
      expect(ids(localB, "a")).toEqual([]);
    } finally {
      offA();
      offB();
    }
  });

  it("carries the events the per-process caches drop entries on, user.changed included", async () => {
    const before = got.b1.length;
    const sent: BusEvent[] = [
      { type: "user.changed", userId: "cache:1" },
      { type: "user.revoked", userId: "cache:2" },
      { type: "session.ended", userId: "cache:3", sessionId: "s-3" },
      { type: "family.members-changed", familyId: "f-4" },
    ];
    for (const e of sent) a.publish(e);
    await waitFor(() => got.b1.length === before + sent.length);
    expect(got.b1.slice(before)).toEqual(sent);
    expect(logB.lines.filter((l) => l.text.includes("unknown shape"))).toEqual([]);
  });

  it("a throwing subscriber is logged and neither the publisher nor the other subscribers notice", async () => {
    const before = got.b1.length;
    const off = b.subscribe(() => {
      throw new Error("subscriber bug");
    });
    try {
      expect(() => b.publish(event("b", 1000))).not.toThrow();
      a.publish(event("a", 1000));
      await waitFor(() => got.b1.length === before + 2);
      expect(logB.lines.filter((l) => l.level === "error" && l.text.includes("subscriber bug"))).toHaveLength(2);
    } finally {
      off();
    }
  });

  it("survives a Redis restart: both reconnect (logged at warn, without the password) and later events arrive", async () => {
    for (const list of Object.values(got)) list.length = 0;
    const resumed: Record<"a" | "b", number[]> = { a: [], b: [] };
    a.onResume(({ downMs }) => resumed.a.push(downMs));
    b.onResume(({ downMs }) => resumed.b.push(downMs));
    await redis.stop();
    await waitFor(() => logA.lines.some((l) => l.level === "warn" && l.text.includes("connection lost")));
    // Published while Redis is down: delivered here at once, queued for the other process.
    a.publish(event("a", 0));
    expect(ids(got.a1, "a")).toEqual(["a:0"]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await redis.start();
    // Each subscriber says once that it listens again after a gap (events may have been missed meanwhile).
    await waitFor(() => resumed.a.length === 1 && resumed.b.length === 1);
    expect(resumed.a[0]).toBeGreaterThanOrEqual(300);
    // Probes until each side hears the other again (its subscriber has subscribed anew).
    let probe = 1;
    await waitFor(() => {
      a.publish(event("pa", probe));
      b.publish(event("pb", probe++));
      return ids(got.b1, "pa").length > 0 && ids(got.a1, "pb").length > 0;
    }, 15_000);
    for (const list of Object.values(got)) list.length = 0;
    for (let i = 1; i <= 50; i++) {
      a.publish(event("a", i));
      b.publish(event("b", i));
    }
    await waitFor(() => ids(got.b1, "a").length >= 50 && ids(got.a1, "b").length >= 50);
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const list of Object.values(got)) {
      expect(ids(list, "a")).toEqual(range("a", 1, 51));
      expect(ids(list, "b")).toEqual(range("b", 1, 51));
    }
    await waitFor(() => logA.lines.some((l) => l.level === "info" && l.text.includes("connection back")));
    const all = [...logA.lines, ...logB.lines].map((l) => l.text).join("\n");
    expect(all).toContain(`127.0.0.1:${redis.port}`);
    expect(all).not.toContain(PASSWORD);
    expect(all).not.toContain(encodeURIComponent(PASSWORD));
  });

  it("close() ends both connections: Redis no longer lists the bus's clients", async () => {
    const c = new RedisBus({ url: redis.url, logger: recordingLogger() });
    expect(await c.ready()).toBe(true);
    const names = async () => {
      const list = (await a.commands.client("LIST")) as string;
      return [...list.matchAll(/name=(\S+)/g)].map((m) => m[1]).filter((n) => n.startsWith("aquapilot-bus"));
    };
    // a, b and c: a publisher and a subscriber each.
    expect((await names()).length).toBe(6);
    await c.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await names()).length).toBe(4);
    // A closed bus delivers and sends nothing.
    const after: BusEvent[] = [];
    c.subscribe((e) => after.push(e));
    c.publish(event("c", 1));
    expect(after).toEqual([]);
  });

  it("redactRedisUrl keeps the host and hides user and password", () => {
    expect(redactRedisUrl("redis://user:pw@host:6380/2")).toBe("redis://***:***@host:6380/2");
    expect(redactRedisUrl("redis://:pw@host:6379")).toBe("redis://:***@host:6379");
    expect(redactRedisUrl("not a url")).not.toContain("not a url");
  });
});
