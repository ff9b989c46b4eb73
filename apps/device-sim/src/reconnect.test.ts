import net from "node:net";
import { DEVICE_RECONNECT_BACKOFF, reconnectDelayMs } from "@aquapilot/contract";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SimulatedDevice } from "./device.ts";
import { createFleet } from "./fleet.ts";

/**
 * A broker stand-in that answers every CONNECT with CONNACK `returnCode` (MQTT 3.1.1: 5 = not authorized, then the
 * connection is closed; 0 = accepted, kept open) and counts the connections.
 */
async function fakeBroker(): Promise<{
  url: string;
  connections: () => number;
  accept: (yes: boolean) => void;
  close: () => Promise<void>;
}> {
  let connections = 0;
  let accepting = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
    socket.once("data", () => {
      socket.write(Buffer.from([0x20, 0x02, 0x00, accepting ? 0 : 5]));
      if (!accepting) socket.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `mqtt://127.0.0.1:${port}`,
    connections: () => connections,
    accept: (yes) => {
      accepting = yes;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Lets real I/O run (fake timers stand still) until `probe` holds; fails after 2 s of real time. */
async function until(probe: () => boolean, what: string): Promise<void> {
  const start = performance.now();
  while (!probe()) {
    if (performance.now() - start > 2000) throw new Error(`${what}: not reached`);
    await new Promise((r) => setImmediate(r));
  }
}

/** Lets real I/O run for a moment (to see that nothing happens). */
async function settle(): Promise<void> {
  const start = performance.now();
  while (performance.now() - start < 100) await new Promise((r) => setImmediate(r));
}

describe("reconnection backoff (contract reconnectDelayMs)", () => {
  it("doubles from 1 s to the 30 s cap, each delay jittered between its half and its whole", () => {
    const p = DEVICE_RECONNECT_BACKOFF;
    expect([0, 1, 2, 3, 4, 5, 6, 40].map((n) => reconnectDelayMs(n, p, () => 0))).toEqual([
      500, 1000, 2000, 4000, 8000, 15_000, 15_000, 15_000,
    ]);
    expect([0, 1, 5, 1000].map((n) => reconnectDelayMs(n, p, () => 0.999_999))).toEqual([1000, 2000, 30_000, 30_000]);
    const spread = new Set(Array.from({ length: 50 }, () => reconnectDelayMs(3, p)));
    expect(spread.size).toBeGreaterThan(10); // Math.random spreads a fleet
    for (const d of spread) expect(d >= 4000 && d <= 8000).toBe(true);
  });

  it("refuses a negative or fractional attempt and a policy that cannot grow", () => {
    expect(() => reconnectDelayMs(-1, DEVICE_RECONNECT_BACKOFF)).toThrow(RangeError);
    expect(() => reconnectDelayMs(1.5, DEVICE_RECONNECT_BACKOFF)).toThrow(RangeError);
    expect(() => reconnectDelayMs(0, { initialMs: 0, maxMs: 10 })).toThrow(RangeError);
    expect(() => reconnectDelayMs(0, { initialMs: 10, maxMs: 5 })).toThrow(RangeError);
  });
});

describe("a simulated device the broker refuses (fake timers)", () => {
  let broker: Awaited<ReturnType<typeof fakeBroker>>;
  const devices: SimulatedDevice[] = [];

  beforeEach(async () => {
    broker = await fakeBroker();
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"] });
  });

  afterEach(async () => {
    vi.useRealTimers();
    for (const d of devices) d.goOffline(); // the stand-in never acknowledges the clean shutdown's status
    await Promise.all(devices.map((d) => d.stop()));
    devices.length = 0;
    await broker.close();
  });

  const device = (mac: string) => {
    const d = new SimulatedDevice({
      brokerUrl: broker.url,
      mac,
      secret: "secret-0123456789abcdef",
      family: { persons: 0 },
      random: () => 0.5, // every delay is 3/4 of its ceiling
    });
    devices.push(d);
    return d;
  };

  it("retries forever with growing delays capped at 30 s, then connects when the broker accepts", async () => {
    const d = device("02AB00000001");
    const started = d.start();
    let connected = false;
    void started.then(() => {
      connected = true;
    });
    await until(() => broker.connections() === 1, "first attempt");
    // Delays after each refusal: 3/4 of 1, 2, 4, 8, 16, 30 (cap), 30 s.
    const expected = [750, 1500, 3000, 6000, 12_000, 22_500, 22_500, 22_500];
    for (const [i, delay] of expected.entries()) {
      await settle(); // the refusal has closed the connection and armed the timer
      await vi.advanceTimersByTimeAsync(delay - 1);
      await settle();
      expect(broker.connections()).toBe(i + 1); // not yet
      await vi.advanceTimersByTimeAsync(1);
      await until(() => broker.connections() === i + 2, `attempt ${i + 2}`);
    }
    expect(d.failedAttempts).toBe(expected.length);
    expect(connected).toBe(false);

    broker.accept(true);
    await settle();
    await vi.advanceTimersByTimeAsync(22_500);
    await until(() => connected, "connected");
    expect(d.connected).toBe(true);
    expect(d.failedAttempts).toBe(0);
  });

  it("a fleet starts without waiting for refused devices, which keep retrying", async () => {
    const fleet = createFleet({
      brokerUrl: broker.url,
      devices: [
        { mac: "02AB00000002", secret: "secret-0123456789abcdef" },
        { mac: "02AB00000003", secret: "secret-0123456789abcdef" },
      ],
      deviceOptions: { random: () => 0.5 },
    });
    devices.push(...fleet.devices);
    expect(await fleet.start()).toBe(0);
    expect(fleet.connectedCount).toBe(0);
    await settle();
    const before = broker.connections();
    expect(before).toBe(2);
    await vi.advanceTimersByTimeAsync(750);
    await until(() => broker.connections() === 4, "both retried");
    broker.accept(true);
    await settle();
    await vi.advanceTimersByTimeAsync(1500);
    await until(() => fleet.connectedCount === 2, "fleet online");
  });

  it("with reconnectPeriodMs 0 start() still rejects on the first refusal (tests that want it)", async () => {
    vi.useRealTimers();
    const d = new SimulatedDevice({
      brokerUrl: broker.url,
      mac: "02AB00000004",
      secret: "secret-0123456789abcdef",
      reconnectPeriodMs: 0,
    });
    devices.push(d);
    await expect(d.start()).rejects.toThrow(/Not authorized/);
    await settle();
    expect(broker.connections()).toBe(1);
  });
});
