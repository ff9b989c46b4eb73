import { BLE_SETUP_FAILURES, type BleSetupFailure, utf8 } from "@aquapilot/provisioning";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { BLE_FLOW_LIMITS, BleSetupRun, type BleSetupSnapshot, bleProgressPercent } from "./ble-flow.ts";
import { FakeBleModule, type FakeModulePlan } from "./fake-ble-module.ts";
import type { BoundDevice } from "./flow-kit.ts";

const DEVICE: BoundDevice = { id: "dev-1", familyId: "fam-1", name: "Softener", mac: "0211AABB3372" };

let module: FakeBleModule;
let bound: string[];
let snapshots: BleSetupSnapshot[];

function setup(plan: FakeModulePlan = { outcome: "ok" }, extra: { ssid?: string; password?: string } = {}) {
  module = new FakeBleModule(plan);
  const run = new BleSetupRun({
    transport: module.transport,
    ssid: extra.ssid ?? "AquaHome",
    password: extra.password ?? "softwater24",
    bind: async (code) => {
      bound.push(code);
      return DEVICE;
    },
  });
  run.subscribe((s) => snapshots.push(s));
  return run;
}

/** Module states in the order the run saw them, without repeats. */
function statesSeen(): Array<number | null> {
  const out: Array<number | null> = [];
  for (const s of snapshots) if (out[out.length - 1] !== s.moduleState) out.push(s.moduleState);
  return out;
}

beforeEach(() => {
  vi.useFakeTimers();
  bound = [];
  snapshots = [];
  vi.spyOn(console, "warn").mockImplementation(() => {});
});

afterEach(() => {
  module?.dispose();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("Bluetooth network setup (spec §4, docs/device-protocol.md §13.2)", () => {
  it("sends the Wi-Fi, follows states 1–4, stops provisioning and binds with the pairing code", async () => {
    const run = setup();
    const done = run.start();
    expect(run.snapshot()).toMatchObject({ status: "running", step: "starting" });
    await vi.advanceTimersByTimeAsync(10_000);
    const end = await done;
    expect(end).toMatchObject({ status: "succeeded", step: "added", phase: "done", device: DEVICE, failure: null });
    expect(end.moduleVersion).toBe("v1.1.0");
    expect(module.ssid).toBe("AquaHome");
    expect(module.password).toBe("softwater24");
    const r = module.log.requests;
    expect(r.slice(0, 5)).toEqual(["GET_VERSION", "SSID", "PASSWORD", "STATUS_EXTENSION", "CONNECT_WIFI"]);
    expect(module.ticket).toBeNull(); // the product reports its outcome: no setup ticket needed
    expect(r[r.length - 1]).toBe("PROV_STOP");
    expect(r.filter((x) => x === "WIFI_STATE_GET").length).toBeGreaterThanOrEqual(3);
    expect(bound).toEqual([module.pairingCode]);
    expect(statesSeen()).toEqual([null, 1, 2, 3, 4]);
    expect(snapshots.map((s) => s.step).filter((s, i, a) => a[i - 1] !== s)).toEqual(["starting", "adding", "added"]);
    expect(module.connected).toBe(false);
    expect(module.advertising).toBe(false);
    expect(bleProgressPercent(end, Date.now())).toBe(100);
  });

  it("polls once a second", async () => {
    const run = setup({ outcome: "never" });
    void run.start();
    await vi.advanceTimersByTimeAsync(100);
    const before = module.log.requests.filter((x) => x === "WIFI_STATE_GET").length;
    await vi.advanceTimersByTimeAsync(10_000);
    const after = module.log.requests.filter((x) => x === "WIFI_STATE_GET").length;
    expect(after - before).toBeGreaterThanOrEqual(9);
    expect(after - before).toBeLessThanOrEqual(11);
    run.cancel();
    await vi.advanceTimersByTimeAsync(100);
  });

  it("sends a long UTF-8 name in fragments, reading an answer after every frame", async () => {
    const ssid = "Café Ünïcødé Wi-Fi ☕ 24"; // 30 bytes of UTF-8, three frames
    expect(utf8(ssid).length).toBeLessThanOrEqual(32);
    const run = setup({ outcome: "ok" }, { ssid, password: "pässwörd-ñ" });
    const done = run.start();
    await vi.advanceTimersByTimeAsync(10_000);
    expect((await done).status).toBe("succeeded");
    expect(module.ssid).toBe(ssid);
    expect(module.password).toBe("pässwörd-ñ");
    expect(module.log.requests.filter((x) => x === "SSID")).toHaveLength(1);
    // every write was followed by at least one read
    expect(module.log.reads).toBeGreaterThanOrEqual(module.log.writes);
  });

  const failureReasons: Record<BleSetupFailure, Array<number | null>> = {
    1: [null, 1, 2],
    2: [null, 1, 2, 3],
    3: [null, 1, 2],
    4: [null, 1, 2],
    5: [null, 1, 2, 3],
    6: [null, 1, 2, 3],
    7: [null, 1, 2, 3],
    8: [null, 1, 2, 3],
  };
  for (const code of BLE_SETUP_FAILURES) {
    it(`reports the module's failure ${code} with its state history and closes the link`, async () => {
      const run = setup({ outcome: code });
      const done = run.start();
      await vi.advanceTimersByTimeAsync(15_000);
      const end = await done;
      expect(end.status).toBe("failed");
      expect(end.failure).toEqual({ code, reason: "module", message: null });
      expect(statesSeen()).toEqual(failureReasons[code]);
      expect(bound).toEqual([]);
      expect(module.connected).toBe(false);
      expect(module.log.requests).not.toContain("PROV_STOP");
      expect(end.endedPercent).not.toBeNull();
      expect(bleProgressPercent(end, Date.now() + 60_000)).toBe(end.endedPercent);
    });
  }

  it("gives up after 120 s with 'connection timed out'", async () => {
    const run = setup({ outcome: "never" });
    const done = run.start();
    await vi.advanceTimersByTimeAsync(BLE_FLOW_LIMITS.overallMs - 1000);
    expect(run.snapshot().status).toBe("running");
    await vi.advanceTimersByTimeAsync(2000);
    const end = await done;
    expect(end.failure).toEqual({ code: 2, reason: "deadline", message: null });
    expect(module.connected).toBe(false);
    const writes = module.log.writes;
    await vi.advanceTimersByTimeAsync(5000);
    expect(module.log.writes).toBe(writes);
  });

  it("cancels at any time: the link closes, nothing more is written, nothing is bound", async () => {
    const run = setup({ outcome: "ok", associateMs: 5000 });
    const done = run.start();
    await vi.advanceTimersByTimeAsync(2500);
    expect(run.snapshot().moduleState).toBe(2);
    expect(run.cancel()).toBe(true);
    const end = await done;
    expect(end.status).toBe("cancelled");
    expect(end.failure).toBeNull();
    expect(module.connected).toBe(false);
    const writes = module.log.writes;
    await vi.advanceTimersByTimeAsync(20_000);
    expect(module.log.writes).toBe(writes);
    expect(bound).toEqual([]);
    expect(run.cancel()).toBe(false);
  });

  it("reconnects to the same module after a drop while polling and goes on polling", async () => {
    const run = setup({ outcome: "ok", associateMs: 3000 });
    module.dropOn = ["WIFI_STATE_GET"];
    const done = run.start();
    await vi.advanceTimersByTimeAsync(15_000);
    const end = await done;
    expect(end.status).toBe("succeeded");
    expect(end.reconnects).toBe(1);
    expect(module.log.connects).toBe(2);
    expect(snapshots.some((s) => s.link === "reconnecting")).toBe(true);
    // the Wi-Fi was sent once: polling continued after the reconnect
    expect(module.log.requests.filter((x) => x === "CONNECT_WIFI")).toHaveLength(1);
    expect(bound).toEqual([module.pairingCode]);
  });

  it("sends the Wi-Fi again when the link dropped before the module had it all", async () => {
    const run = setup();
    module.dropOn = ["PASSWORD"];
    const done = run.start();
    await vi.advanceTimersByTimeAsync(15_000);
    const end = await done;
    expect(end.status).toBe("succeeded");
    expect(module.log.requests.filter((x) => x === "SSID")).toHaveLength(2);
    expect(module.log.requests.filter((x) => x === "CONNECT_WIFI")).toHaveLength(1);
  });

  it("fails with 'connection timed out' when the link cannot be reopened", async () => {
    const run = setup({ outcome: "never" });
    const done = run.start();
    await vi.advanceTimersByTimeAsync(3000);
    module.failConnects = 100;
    module.drop();
    await vi.advanceTimersByTimeAsync(30_000);
    const end = await done;
    expect(end.failure).toEqual({ code: 2, reason: "link-lost", message: null });
    expect(end.reconnects).toBe(BLE_FLOW_LIMITS.reconnectAttempts);
    expect(module.log.connects).toBe(1 + BLE_FLOW_LIMITS.reconnectAttempts);
  });

  it("never sends a frame twice: a lost answer mid-message sends the discard frame, then the message anew", async () => {
    const run = setup();
    let armed = false;
    const written: Uint8Array[] = [];
    const write = module.transport.write;
    module.transport.write = async (frame) => {
      written.push(frame);
      await write(frame);
      // fragment 0 of the SSID (data, id 2 after the 9-byte encryption header): both reads of its answer fail
      if (!armed && (frame[0] & 0x10) !== 0 && frame[2] === 0 && frame[3] === 0 && frame[17] === 2) {
        armed = true;
        module.failReads = BLE_FLOW_LIMITS.readAttempts;
      }
    };
    const done = run.start();
    await vi.advanceTimersByTimeAsync(15_000);
    expect((await done).status).toBe("succeeded");
    expect(module.log.crashes).toBe(0);
    expect(module.log.refused).toBe(1); // the discard frame
    expect(module.log.requests.filter((x) => x === "SSID")).toHaveLength(1);
    expect(module.log.connects).toBe(1);
    expect(written.some((f) => (f[0] & 0x01) !== 0)).toBe(false); // no retry bit, ever
    const seqs = written.map((f) => f[1]);
    expect(new Set(seqs).size).toBe(seqs.length); // every frame its own seq
  });

  it("writes frames of the negotiated MTU less 3 where the transport tells it, else 20 bytes", async () => {
    const password = "p".repeat(64);
    const run = async (link: {
      mtu: number;
      known: boolean;
      maxFrame?: number;
      told?: () => Promise<number | null>;
    }) => {
      module?.dispose();
      module = new FakeBleModule({ outcome: "ok" });
      module.mtu = link.mtu;
      module.mtuKnown = link.known;
      if (link.told) module.transport.negotiatedMtu = link.told;
      const lengths: number[] = [];
      const write = module.transport.write;
      module.transport.write = async (frame) => {
        lengths.push(frame.length);
        await write(frame);
      };
      const setup = new BleSetupRun({
        transport: module.transport,
        ssid: "AquaHome",
        password,
        bind: async () => DEVICE,
        maxFrame: link.maxFrame,
      });
      const done = setup.start();
      await vi.advanceTimersByTimeAsync(10_000);
      expect((await done).status).toBe("succeeded");
      expect(module.password).toBe(password);
      expect(module.log.crashes + module.log.refused).toBe(0);
      return { lengths, messages: module.log.requests.length };
    };
    // Web Bluetooth cannot tell the MTU: 20-byte frames, which every link carries (the 64-byte password in six).
    const unknown = await run({ mtu: 247, known: false });
    expect(Math.max(...unknown.lengths)).toBe(20);
    expect(unknown.lengths.length).toBeGreaterThan(unknown.messages);
    // A native shell's link of MTU 247: every message in one frame, some longer than 20 bytes.
    const native = await run({ mtu: 247, known: true });
    expect(native.lengths.length).toBe(native.messages);
    expect(Math.max(...native.lengths)).toBeGreaterThan(64);
    expect(Math.max(...native.lengths)).toBeLessThanOrEqual(244);
    // A native link of the smallest MTU: 20 bytes.
    expect(Math.max(...(await run({ mtu: 23, known: true })).lengths)).toBe(20);
    // An MTU told below the smallest, or not told at all (the read failed): 20 bytes.
    expect(Math.max(...(await run({ mtu: 247, known: true, told: async () => 10 })).lengths)).toBe(20);
    const refused = async () => Promise.reject(new Error("getMtu is not available on web."));
    expect(Math.max(...(await run({ mtu: 247, known: true, told: refused })).lengths)).toBe(20);
    // An explicit frame size wins over what the link tells.
    expect(Math.max(...(await run({ mtu: 247, known: true, maxFrame: 21 })).lengths)).toBe(21);
  });

  it("stock firmware: hands over the setup ticket, follows the SDK's state, then binds with the cloud's code", async () => {
    module = new FakeBleModule({ outcome: "ok" });
    module.firmware = "stock";
    const waited: string[] = [];
    const run = new BleSetupRun({
      transport: module.transport,
      ssid: "AquaHome",
      password: "softwater24",
      bind: async (code) => {
        bound.push(code);
        return DEVICE;
      },
      setupTicket: {
        create: async () => ({ ticket: "AbCdEfGhIjKlMnOpQrSt-_" }),
        wait: async (ticket, { signal }) => {
          waited.push(ticket);
          while (module.state.state !== 4) {
            signal.throwIfAborted();
            await new Promise((r) => setTimeout(r, 200));
          }
          return { mac: module.mac, pairingCode: "0211AABB3372:from-the-cloud" };
        },
      },
    });
    run.subscribe((s) => snapshots.push(s));
    const done = run.start();
    await vi.advanceTimersByTimeAsync(15_000);
    const end = await done;
    expect(end.status).toBe("succeeded");
    expect(module.ticket).toBe("AbCdEfGhIjKlMnOpQrSt-_");
    expect(waited).toEqual(["AbCdEfGhIjKlMnOpQrSt-_"]);
    expect(bound).toEqual(["0211AABB3372:from-the-cloud"]);
    const r = module.log.requests;
    expect(r.slice(0, 6)).toEqual([
      "GET_VERSION",
      "SSID",
      "PASSWORD",
      "STATUS_EXTENSION",
      "SETUP_TICKET",
      "CONNECT_WIFI",
    ]);
    expect(r.filter((x) => x === "STATUS_EXTENSION")).toHaveLength(1); // refused once, never asked again
    expect(r.at(-1)).toBe("PROV_STOP");
    expect(statesSeen()).toEqual([null, 1, 2, 3, 4]);
  });

  it("stock firmware without setup tickets: no outcome can be learnt, 'connection timed out'", async () => {
    const run = setup();
    module.firmware = "stock";
    const done = run.start();
    await vi.advanceTimersByTimeAsync(15_000);
    const end = await done;
    expect(end.failure).toMatchObject({ code: 2, reason: "protocol" });
    expect(bound).toEqual([]);
  });

  it("reopens the link when the module stops answering altogether", async () => {
    const run = setup({ outcome: "ok", associateMs: 4000 });
    module.silentOn = ["WIFI_STATE_GET"];
    const done = run.start();
    await vi.advanceTimersByTimeAsync(2000);
    module.silentOn = [];
    await vi.advanceTimersByTimeAsync(20_000);
    const end = await done;
    expect(end.status).toBe("succeeded");
    expect(end.reconnects).toBeGreaterThanOrEqual(1);
  });

  it("fails with 'initialization failed' when the module cannot be connected", async () => {
    const run = setup();
    module.failConnects = BLE_FLOW_LIMITS.connectAttempts;
    const done = run.start();
    await vi.advanceTimersByTimeAsync(10_000);
    const end = await done;
    expect(end.failure?.code).toBe(1);
    expect(end.failure?.reason).toBe("connect");
    expect(module.log.writes).toBe(0);
  });

  it("fails with 'initialization failed' when the module refuses to connect", async () => {
    const run = setup();
    module.refuseConnect = true;
    const done = run.start();
    await vi.advanceTimersByTimeAsync(10_000);
    const end = await done;
    expect(end.failure).toMatchObject({ code: 1, reason: "protocol" });
  });

  it("retries only the binding when binding failed, with the same pairing code", async () => {
    module = new FakeBleModule({ outcome: "ok" });
    let calls = 0;
    const run = new BleSetupRun({
      transport: module.transport,
      ssid: "AquaHome",
      password: "softwater24",
      bind: async (code) => {
        calls += 1;
        bound.push(code);
        if (calls === 1) throw new Error("Only the household administrator can add devices");
        return DEVICE;
      },
    });
    const done = run.start();
    await vi.advanceTimersByTimeAsync(10_000);
    const failed = await done;
    expect(failed.status).toBe("failed");
    expect(failed.step).toBe("adding");
    expect(failed.failure).toEqual({
      code: null,
      reason: "bind",
      message: "Only the household administrator can add devices",
    });
    const connects = module.log.connects;
    const again = run.retry();
    await vi.advanceTimersByTimeAsync(100);
    expect((await again).status).toBe("succeeded");
    expect(module.log.connects).toBe(connects);
    expect(bound).toEqual([module.pairingCode, module.pairingCode]);
  });

  it("retries the whole exchange on the same module after a module failure", async () => {
    const run = setup({ outcome: 4 });
    const done = run.start();
    await vi.advanceTimersByTimeAsync(10_000);
    expect((await done).failure?.code).toBe(4);
    module.plan = { outcome: "ok" };
    const again = run.retry();
    expect(run.snapshot()).toMatchObject({ status: "running", failure: null, moduleState: null });
    await vi.advanceTimersByTimeAsync(10_000);
    expect((await again).status).toBe("succeeded");
    expect(module.log.requests.filter((x) => x === "SSID")).toHaveLength(2);
    expect(bound).toHaveLength(1);
  });

  it("starts one setup for a double tap", async () => {
    const run = setup();
    const a = run.start();
    const b = run.start();
    expect(a).toBe(b);
    await vi.advanceTimersByTimeAsync(10_000);
    await a;
    expect(module.log.connects).toBe(1);
    expect(bound).toHaveLength(1);
  });

  it("shows a percent with one decimal that never goes back while the setup runs", async () => {
    const run = setup();
    const seen: number[] = [];
    const done = run.start();
    for (let i = 0; i < 40; i++) {
      seen.push(bleProgressPercent(run.snapshot(), Date.now()));
      await vi.advanceTimersByTimeAsync(250);
    }
    await done;
    seen.push(bleProgressPercent(run.snapshot(), Date.now()));
    for (const p of seen) expect(Math.round(p * 10) / 10).toBe(p);
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThanOrEqual(seen[i - 1]);
    expect(seen[0]).toBeLessThan(10);
    expect(seen[seen.length - 1]).toBe(100);
  });
});
