import { afterEach, describe, expect, it } from "vitest";
import { type BusEvent, InProcessBus } from "../bus.ts";
import { DeviceAssignment, type DeviceAssignmentOptions, type DeviceSubscriptions, ownerOf } from "./assignment.ts";
import { silentLogger } from "./logger.ts";

const macs = (n: number, prefix = "02A0") =>
  Array.from({ length: n }, (_, i) => `${prefix}${i.toString(16).toUpperCase().padStart(8, "0")}`);

/**
 * How long a test waits for what must happen: long enough for a loaded 2-core machine. No outcome here depends on it
 * — a timeout under test runs on a clock the test moves, and the gateways' own timings are tens of milliseconds.
 */
const SETTLE_MS = 10_000;

async function waitFor(probe: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > until) throw new Error(`not met within ${timeoutMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** What a gateway's transport would hold in its session: the subscribed MACs, and every call made. */
class FakeSubscriptions implements DeviceSubscriptions {
  readonly session = new Set<string>();
  readonly calls: Array<["sub" | "unsub", string[]]> = [];
  failNext = false;
  async subscribeDevices(list: readonly string[]): Promise<void> {
    if (this.failNext) {
      this.failNext = false;
      throw new Error("broker refused");
    }
    this.calls.push(["sub", [...list]]);
    for (const m of list) this.session.add(m);
  }
  async unsubscribeDevices(list: readonly string[]): Promise<void> {
    this.calls.push(["unsub", [...list]]);
    for (const m of list) this.session.delete(m);
  }
}

describe("ownerOf (rendezvous hashing)", () => {
  const gateways = ["aquapilot-gw-a", "aquapilot-gw-b"];
  const fleet = macs(10_000);

  it("gives every device one owner, the same whatever the order of the gateways, about half each", () => {
    const owners = fleet.map((m) => ownerOf(m, gateways));
    expect(fleet.map((m) => ownerOf(m, [...gateways].reverse()))).toEqual(owners);
    const share = owners.filter((o) => o === gateways[0]).length / fleet.length;
    expect(share).toBeGreaterThan(0.45);
    expect(share).toBeLessThan(0.55);
  });

  it("moves only the devices the new gateway wins when a third joins, and only those back when it leaves", () => {
    const three = [...gateways, "aquapilot-gw-c"];
    let moved = 0;
    for (const m of fleet) {
      const before = ownerOf(m, gateways);
      const after = ownerOf(m, three);
      if (after !== before) {
        moved += 1;
        expect(after).toBe("aquapilot-gw-c");
      }
    }
    expect(moved / fleet.length).toBeGreaterThan(0.28);
    expect(moved / fleet.length).toBeLessThan(0.39);
  });

  it("refuses an empty set of gateways", () => {
    expect(() => ownerOf(fleet[0], [])).toThrow(/no gateway/);
  });
});

describe("DeviceAssignment: gateways sharing a bus", () => {
  const timings = { listenMs: 60, heartbeatMs: 20, peerTimeoutMs: 90, graceMs: 50, resyncMs: 60_000 };
  const open: DeviceAssignment[] = [];
  let bus: InProcessBus;
  let devices: string[];

  const start = async (selfId: string, target: FakeSubscriptions, extra: Partial<DeviceAssignmentOptions> = {}) => {
    const assignment = await DeviceAssignment.start({
      bus,
      selfId,
      listDevices: async () => devices,
      target,
      logger: silentLogger,
      ...timings,
      ...extra,
    });
    open.push(assignment);
    return assignment;
  };

  /** Every device held by exactly its owner among `pairs`, and by no other. */
  const partitioned = (pairs: Array<[string, FakeSubscriptions]>) => {
    const ids = pairs.map(([id]) => id);
    return devices.every((m) => pairs.every(([id, t]) => t.session.has(m) === (ownerOf(m, ids) === id)));
  };

  /** gw-a alone first, then gw-b; resolves once each device is held by its owner alone. */
  const twoGateways = async () => {
    const ta = new FakeSubscriptions();
    const a = await start("gw-a", ta, { listenMs: 0 });
    const tb = new FakeSubscriptions();
    await start("gw-b", tb);
    await waitFor(
      () =>
        partitioned([
          ["gw-a", ta],
          ["gw-b", tb],
        ]),
      SETTLE_MS,
      "split",
    );
    return { a, ta, tb };
  };

  afterEach(async () => {
    for (const a of open.splice(0)) await a.close();
  });

  it("a second gateway takes its share; the first releases it after the grace; each device has one holder", async () => {
    bus = new InProcessBus();
    devices = macs(200);
    const first = new FakeSubscriptions();
    const a = await start("gw-a", first, { listenMs: 0 });
    expect(first.session.size).toBe(200); // alone, it holds every device
    expect(a.gateways).toEqual(["gw-a"]);

    const second = new FakeSubscriptions();
    const b = await start("gw-b", second);
    // It heard the first while listening, so it subscribed to its own share only, before saying it is alive.
    expect(b.gateways).toEqual(["gw-a", "gw-b"]);
    expect([...second.session].every((m) => ownerOf(m, ["gw-a", "gw-b"]) === "gw-b")).toBe(true);
    expect(second.session.size).toBeGreaterThan(60);
    // The first keeps them for the grace (both handle them meanwhile), then releases them.
    expect(first.session.size).toBe(200);
    await waitFor(
      () =>
        partitioned([
          ["gw-a", first],
          ["gw-b", second],
        ]),
      SETTLE_MS,
      "partitioned",
    );
    expect(a.heldDevices).toEqual([...first.session].sort());
  });

  it("a gateway that says it is leaving has its devices taken at once; one that goes silent, after the timeout", async () => {
    bus = new InProcessBus();
    devices = macs(100, "02B0");
    const [ta, tb, tc] = [new FakeSubscriptions(), new FakeSubscriptions(), new FakeSubscriptions()];
    // A minute's timeout on a clock the test moves on: what happens before the test moves it is not the timeout's doing.
    let skew = 0;
    const slow = { peerTimeoutMs: 60_000, now: () => Date.now() + skew };
    await start("gw-a", ta, { ...slow, listenMs: 0 });
    const b = await start("gw-b", tb, slow);
    const c = await start("gw-c", tc, slow);
    await waitFor(
      () =>
        partitioned([
          ["gw-a", ta],
          ["gw-b", tb],
          ["gw-c", tc],
        ]),
      SETTLE_MS,
      "three-way split",
    );

    // Leaving: its session keeps its subscriptions (queued for its return); the others subscribe to its share.
    const heldByB = [...tb.session];
    await b.close();
    open.splice(open.indexOf(b), 1);
    await waitFor(() => heldByB.every((m) => ta.session.has(m) || tc.session.has(m)), SETTLE_MS, "taken at once");
    expect(tb.session.size).toBe(heldByB.length);

    // Silent (a crash): no more heartbeats. Simulated by stopping its timer without the leaving event.
    const heldByC = [...tc.session];
    (c as unknown as { timer: NodeJS.Timeout }).timer.close();
    (c as unknown as { unsubscribeBus: () => void }).unsubscribeBus();
    await new Promise((r) => setTimeout(r, 10 * timings.heartbeatMs));
    expect(heldByC.some((m) => ta.session.has(m) && ownerOf(m, ["gw-a", "gw-c"]) === "gw-c")).toBe(false);
    skew += 61_000;
    await waitFor(() => heldByC.every((m) => ta.session.has(m)), SETTLE_MS, "taken after the timeout");
    expect(ta.session.size).toBe(devices.length);
  });

  it("a restarted gateway releases the devices its old session may hold but another owns now", async () => {
    bus = new InProcessBus();
    devices = macs(50, "02C0");
    const { tb } = await twoGateways();
    const released = () => tb.calls.filter(([kind]) => kind === "unsub").flatMap(([, list]) => list);
    // gw-b never subscribed to gw-a's devices in this life, yet releases them: its session may hold them from before.
    // The release comes after the grace, which may end after the split is already seen: wait for it.
    const expected = devices.filter((m) => ownerOf(m, ["gw-a", "gw-b"]) === "gw-a").sort();
    await waitFor(() => released().length >= expected.length, SETTLE_MS, "gw-b released gw-a's devices");
    expect(released().sort()).toEqual(expected);
  });

  it("adopt subscribes a new device in this gateway at once and tells its owner, which subscribes too", async () => {
    bus = new InProcessBus();
    devices = macs(20, "02D0");
    const { a, ta, tb } = await twoGateways();
    const announced: BusEvent[] = [];
    bus.subscribe((e) => {
      if (e.type === "device.provisioned") announced.push(e);
    });
    let mac = "";
    for (let i = 0; !mac; i++) {
      const m = `02D1${i.toString(16).toUpperCase().padStart(8, "0")}`;
      if (ownerOf(m, ["gw-a", "gw-b"]) === "gw-b") mac = m;
    }
    await a.adopt(mac.toLowerCase().replace(/(..)(?!$)/g, "$1:"));
    expect(ta.session.has(mac)).toBe(true); // held here the moment the account is created
    expect(announced).toEqual([{ type: "device.provisioned", mac }]);
    await waitFor(() => tb.session.has(mac), SETTLE_MS, "the owner subscribed");
    await waitFor(() => !ta.session.has(mac), SETTLE_MS, "released by the adopter after the grace");
    devices.push(mac);
    expect(
      partitioned([
        ["gw-a", ta],
        ["gw-b", tb],
      ]),
    ).toBe(true);
  });

  it("a refused subscription is tried again at the next heartbeat", async () => {
    bus = new InProcessBus();
    devices = macs(10, "02E0");
    const ta = new FakeSubscriptions();
    ta.failNext = true;
    const alive: string[] = [];
    bus.subscribe((e) => {
      if (e.type === "gateway.alive") alive.push(e.gatewayId);
    });
    const errors: string[] = [];
    await start("gw-a", ta, {
      listenMs: 0,
      logger: { ...silentLogger, error: (obj) => errors.push((obj as { err: string }).err) },
    });
    expect(ta.session.size).toBe(0);
    expect(errors).toEqual(["broker refused"]);
    // It says it is alive only once it holds its share: the others would otherwise release devices nobody holds.
    expect(alive).toEqual([]);
    await waitFor(() => ta.session.size === 10, SETTLE_MS, "subscribed at a later heartbeat");
    await waitFor(() => alive.length > 0, SETTLE_MS, "alive once subscribed");
  });
});
