import type { TDiscoverResult, TPhoneWifi } from "@aquapilot/contract";
import {
  BL3372_DEVICE_TYPE,
  type CloudState,
  decodeHelloPacket,
  decodeJoinPacket,
  encodeHelloAnswer,
  fromBase64,
  SETUP_AP_SSID,
  SMART_SETUP_FAILURES,
  toBase64,
  WifiSecurity,
} from "@aquapilot/provisioning";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { BoundDevice } from "./flow-kit.ts";
import {
  SMART_FLOW_LIMITS,
  type SmartBridge,
  SmartSetupRun,
  type SmartSetupSnapshot,
  type SmartSetupTicket,
  smartProgressPercent,
} from "./smart-flow.ts";

const DEVICE: BoundDevice = { id: "dev-9", familyId: "fam-1", name: "Softener", mac: "0211AABB0001" };
const HOME: TPhoneWifi = { connected: true, ssid: "AquaHome", band: "2.4GHz", ip: "192.168.1.23" };
/** The pairing code in a product module's hello answer. */
const CODE = "0211AABB0001:t0ken_-x";
/** The pairing code the cloud returns for the setup ticket (the same module; distinct here to tell which was used). */
const CLOUD_CODE = "0211AABB0001:cl0ud-tok";
const TICKET = "AbCdEfGhIjKlMnOpQrSt_-";

/**
 * The cloud's setup ticket in fake time: a module activating with the ticket settles the phone's wait with its MAC
 * and pairing code (as `waitForSetupTicket` of api/setup-ticket.ts settles it for the flow).
 */
class FakeCloud implements SmartSetupTicket {
  broken = false;
  created = 0;
  waits: { ticket: string; signal: AbortSignal }[] = [];
  private readonly waiters = new Map<string, (r: { mac: string; pairingCode: string }) => void>();

  async create() {
    this.created += 1;
    if (this.broken) throw new Error("offline");
    return { ticket: TICKET };
  }

  wait(ticket: string, options: { signal: AbortSignal; timeoutMs: number }) {
    this.waits.push({ ticket, signal: options.signal });
    return new Promise<{ mac: string; pairingCode: string }>((resolve, reject) => {
      options.signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true });
      this.waiters.set(ticket, resolve);
    });
  }

  /** A module activated with `ticket`. */
  activate(ticket: string | null | undefined, mac: string) {
    if (ticket) this.waiters.get(ticket)?.({ mac: mac.toLowerCase(), pairingCode: CLOUD_CODE });
  }
}

/**
 * A phone with an old module nearby, in fake time: the module's access point while in setup mode, the join packet
 * broadcast (never answered by a stock module), then the module on the home network answering hello — stock: the
 * 0x80-byte answer only; product: with cloud states 1 → 2 (or 3) — and activating with the cloud, the simulator's
 * behaviour of docs/device-protocol.md §13.3, with the real codecs.
 */
class FakePhone implements SmartBridge {
  firmware: "stock" | "product" = "product";
  apInRange = true;
  joinError: "not-found" | "failed" = "not-found";
  /** The bridge cannot send the join packet (answers null). */
  sendBroken = false;
  /** Whether the module reaches the home network after the join packet (right name and password). */
  moduleJoins = true;
  /** Whether the phone sees the module's hello answers on the home network (no client isolation, same subnet). */
  seesModule = true;
  /** Time the module needs on the home network before it answers (cloud state 1), ms. */
  joinMs = 2000;
  /** From the first answer to cloud state 2 (or 3) and the activation, ms; null = stays connecting. */
  cloudMs: number | null = 3000;
  cloudFailure = 0;
  /** Another, long set-up device answering hello (cloud state 2 without a code, or stock). */
  neighbour = false;
  /** The bridge gives up (answers null) on every discovery. */
  discoveryBroken = false;
  onAp = false;
  received: ReturnType<typeof decodeJoinPacket> | null = null;
  joinPackets = 0;
  hellos: string[] = [];
  leaves = 0;
  private onlineAt: number | null = null;
  readonly cloud: FakeCloud;

  constructor(cloud: FakeCloud) {
    this.cloud = cloud;
  }

  async getCurrentWifi() {
    return this.onAp ? { connected: true, ssid: SETUP_AP_SSID, band: "2.4GHz" as const, ip: "192.168.10.2" } : HOME;
  }

  async joinAccessPoint(ssid: string) {
    if (ssid !== SETUP_AP_SSID || !this.apInRange) return { ok: false, error: this.joinError };
    this.onAp = true;
    return { ok: true, error: null };
  }

  async leaveAccessPoint() {
    this.onAp = false;
    this.leaves += 1;
    return HOME;
  }

  async sendJoinPacket(packet: string) {
    if (this.sendBroken) return null;
    if (!this.onAp) return { acknowledged: false };
    this.joinPackets += 1;
    const join = decodeJoinPacket(fromBase64(packet));
    this.received = join;
    if (this.moduleJoins) {
      this.onlineAt = Date.now() + this.joinMs;
      if (this.cloudMs !== null && !this.cloudFailure) {
        const cloudMs = this.cloudMs;
        setTimeout(() => this.cloud.activate(join.setupTicket, "0211AABB0001"), this.joinMs + cloudMs);
      }
    }
    return { acknowledged: this.firmware === "product" };
  }

  async discoverDevices(packet: string, timeoutMs: number): Promise<TDiscoverResult | null> {
    const hello = decodeHelloPacket(fromBase64(packet));
    this.hellos.push(hello.localIp);
    await new Promise((r) => setTimeout(r, timeoutMs));
    if (this.discoveryBroken) return null;
    const answers: TDiscoverResult["answers"] = [{ address: "192.168.1.99", packet: toBase64(new Uint8Array(40)) }];
    if (this.neighbour) {
      answers.push({ address: "192.168.1.60", packet: this.answer("0211AABB0999", 2, 0, null, "product") });
      answers.push({ address: "192.168.1.61", packet: this.answer("0211AABB0998", 0, 0, null, "stock") });
    }
    const now = Date.now();
    if (this.seesModule && this.onlineAt !== null && now >= this.onlineAt && hello.localIp.startsWith("192.168.1.")) {
      const connected = this.cloudMs !== null && now >= this.onlineAt + this.cloudMs;
      const state = !connected ? 1 : this.cloudFailure ? 3 : 2;
      answers.push({
        address: "192.168.1.57",
        packet: this.answer(
          "0211AABB0001",
          state,
          state === 3 ? this.cloudFailure : 0,
          state === 2 ? CODE : null,
          this.firmware,
        ),
      });
    }
    return { answers };
  }

  private answer(
    mac: string,
    cloudState: number,
    failure: number,
    pairingCode: string | null,
    firmware: "stock" | "product",
  ): string {
    return toBase64(
      encodeHelloAnswer({
        mac,
        deviceType: BL3372_DEVICE_TYPE,
        ip: "192.168.1.57",
        name: "WiFi-BL3372",
        locked: false,
        extension: firmware === "product" ? { cloudState: cloudState as CloudState, failure, pairingCode } : null,
      }),
    );
  }
}

let cloud: FakeCloud;
let phone: FakePhone;
let bound: string[];
let snapshots: SmartSetupSnapshot[];

function setup(
  extra: { password?: string; bind?: (code: string) => Promise<BoundDevice>; withoutTicket?: boolean } = {},
) {
  const run = new SmartSetupRun({
    bridge: phone,
    ssid: "AquaHome",
    password: extra.password ?? "softwater24",
    bind:
      extra.bind ??
      (async (code) => {
        bound.push(code);
        return DEVICE;
      }),
    setupTicket: extra.withoutTicket ? undefined : cloud,
  });
  run.subscribe((s) => snapshots.push(s));
  return run;
}

function stepsSeen(): string[] {
  return snapshots.map((s) => s.step).filter((s, i, a) => a[i - 1] !== s);
}

beforeEach(() => {
  vi.useFakeTimers();
  cloud = new FakeCloud();
  phone = new FakePhone(cloud);
  bound = [];
  snapshots = [];
  vi.spyOn(console, "warn").mockImplementation(() => {});
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("smart (access point) network setup (spec §4, docs/device-protocol.md §13.3)", () => {
  it("product firmware: walks every progress step and binds with the hello answer's pairing code", async () => {
    const run = setup();
    const done = run.start();
    await vi.advanceTimersByTimeAsync(15_000);
    const end = await done;
    expect(end).toMatchObject({ status: "succeeded", step: "added", device: DEVICE, failure: null });
    expect(stepsSeen()).toEqual(["starting", "searching", "wifiConnected", "connectingServer", "adding", "added"]);
    expect(phone.received).toEqual({
      ssid: "AquaHome",
      password: "softwater24",
      security: WifiSecurity.Wpa2,
      setupTicket: TICKET,
    });
    expect(phone.onAp).toBe(false);
    expect(phone.hellos.every((ip) => ip === HOME.ip)).toBe(true);
    expect(end.module).toEqual({ mac: "0211AABB0001", ip: "192.168.1.57" });
    expect(bound).toEqual([CODE]);
    expect(smartProgressPercent(end, Date.now())).toBe(100);
    expect(cloud.waits).toHaveLength(1);
    expect(cloud.waits[0].signal.aborted).toBe(true); // the wait ends with the search
  });

  it("stock firmware: no acknowledgement, a 0x80-byte hello answer; the activation completes it", async () => {
    phone.firmware = "stock";
    const run = setup();
    const done = run.start();
    await vi.advanceTimersByTimeAsync(15_000);
    const end = await done;
    expect(end).toMatchObject({ status: "succeeded", step: "added", device: DEVICE, failure: null });
    expect(stepsSeen()).toEqual(["starting", "searching", "wifiConnected", "adding", "added"]);
    expect(phone.received?.setupTicket).toBe(TICKET);
    expect(phone.joinPackets).toBe(1);
    expect(end.module).toEqual({ mac: "0211AABB0001", ip: "192.168.1.57" });
    expect(bound).toEqual([CLOUD_CODE]);
  });

  it("stock firmware: completes by the activation alone when the phone cannot see the module's hello", async () => {
    phone.firmware = "stock";
    phone.seesModule = false;
    phone.neighbour = true;
    const run = setup();
    const done = run.start();
    await vi.advanceTimersByTimeAsync(15_000);
    const end = await done;
    expect(end.status).toBe("succeeded");
    expect(end.module).toEqual({ mac: "0211AABB0001", ip: null });
    expect(bound).toEqual([CLOUD_CODE]);
  });

  it("stock firmware: a module that never activates is not found after 60 s, whatever answers hello", async () => {
    phone.firmware = "stock";
    phone.cloudFailure = 6;
    const run = setup();
    const done = run.start();
    await vi.advanceTimersByTimeAsync(SMART_FLOW_LIMITS.searchMs - 2000);
    expect(run.snapshot()).toMatchObject({ status: "running", step: "searching", module: null });
    await vi.advanceTimersByTimeAsync(4000);
    expect((await done).failure).toEqual({ code: 3, reason: "not-found", moduleFailure: 0, message: null });
    expect(bound).toEqual([]);
  });

  it("without a setup ticket the join packet carries none, and a product module still completes", async () => {
    const run = setup({ withoutTicket: true });
    const done = run.start();
    await vi.advanceTimersByTimeAsync(15_000);
    expect((await done).status).toBe("succeeded");
    expect(phone.received?.setupTicket).toBeNull();
    expect(bound).toEqual([CODE]);
  });

  it("fails with 'initialization failed' when the cloud gives no setup ticket, before joining the access point", async () => {
    cloud.broken = true;
    const end = await setup().start();
    expect(end.failure).toEqual({ code: 1, reason: "ticket", moduleFailure: 0, message: null });
    expect(phone.onAp).toBe(false);
    expect(phone.joinPackets).toBe(0);
  });

  it("sends an open network's join packet with security mode none", async () => {
    const run = setup({ password: "" });
    void run.start();
    await vi.advanceTimersByTimeAsync(100);
    expect(phone.received).toMatchObject({ ssid: "AquaHome", password: "", security: WifiSecurity.None });
    run.cancel();
    await vi.advanceTimersByTimeAsync(2000);
  });

  it("says hello once a second while searching", async () => {
    phone.moduleJoins = false;
    const run = setup();
    void run.start();
    await vi.advanceTimersByTimeAsync(10_500);
    expect(phone.hellos.length).toBeGreaterThanOrEqual(9);
    expect(phone.hellos.length).toBeLessThanOrEqual(11);
    run.cancel();
    await vi.advanceTimersByTimeAsync(2000);
  });

  it("fails with 'initialization failed' when the module's access point is not there", async () => {
    phone.apInRange = false;
    const run = setup();
    const end = await run.start();
    expect(end.failure).toEqual({ code: 1, reason: "no-access-point", moduleFailure: 0, message: null });
    expect(phone.joinPackets).toBe(0);
  });

  it("fails with 'initialization failed' when the phone cannot join the access point", async () => {
    phone.apInRange = false;
    phone.joinError = "failed";
    const end = await setup().start();
    expect(end.failure).toMatchObject({ code: 1, reason: "bridge" });
  });

  it("sends the join packet once and goes on without an answer to it", async () => {
    phone.firmware = "stock";
    const run = setup();
    const done = run.start();
    await vi.advanceTimersByTimeAsync(15_000);
    expect((await done).status).toBe("succeeded");
    expect(phone.joinPackets).toBe(1);
  });

  it("fails with 'connection timed out' when the bridge cannot send the join packet, back on the home network", async () => {
    phone.sendBroken = true;
    const run = setup();
    const done = run.start();
    await vi.advanceTimersByTimeAsync(1000);
    const end = await done;
    expect(end.failure).toEqual({ code: 2, reason: "not-sent", moduleFailure: 0, message: null });
    expect(phone.onAp).toBe(false);
    expect(phone.hellos).toEqual([]);
  });

  it("fails with 'failed to find device' after 60 s without an answer", async () => {
    phone.moduleJoins = false; // e.g. a wrong password: the module never arrives
    const run = setup({ password: "wrong-password" });
    const done = run.start();
    await vi.advanceTimersByTimeAsync(SMART_FLOW_LIMITS.searchMs - 2000);
    expect(run.snapshot()).toMatchObject({ status: "running", step: "searching" });
    await vi.advanceTimersByTimeAsync(4000);
    const end = await done;
    expect(end.failure).toEqual({ code: 3, reason: "not-found", moduleFailure: 0, message: null });
  });

  it("keeps searching when the bridge's discovery fails, then finds the device", async () => {
    phone.discoveryBroken = true;
    const run = setup();
    const done = run.start();
    await vi.advanceTimersByTimeAsync(5000);
    expect(run.snapshot().step).toBe("searching");
    phone.discoveryBroken = false;
    await vi.advanceTimersByTimeAsync(10_000);
    expect((await done).status).toBe("succeeded");
  });

  it("ignores devices set up long ago that answer hello without a pairing code, and stock neighbours", async () => {
    phone.neighbour = true;
    const run = setup();
    const done = run.start();
    await vi.advanceTimersByTimeAsync(15_000);
    const end = await done;
    expect(end.status).toBe("succeeded");
    expect(end.module?.mac).toBe("0211AABB0001");
  });

  for (const moduleFailure of [5, 6, 7, 8]) {
    it(`fails with 'device failed to connect to the server' on cloud state 3 (module failure ${moduleFailure})`, async () => {
      phone.cloudFailure = moduleFailure;
      const run = setup();
      const done = run.start();
      await vi.advanceTimersByTimeAsync(15_000);
      const end = await done;
      expect(end.failure).toEqual({ code: 4, reason: "server", moduleFailure, message: null });
      expect(stepsSeen()).toEqual(["starting", "searching", "wifiConnected", "connectingServer"]);
      expect(bound).toEqual([]);
    });
  }

  it("fails with 'device failed to connect to the server' when still connecting after 60 s", async () => {
    phone.cloudMs = null;
    const run = setup();
    const done = run.start();
    await vi.advanceTimersByTimeAsync(3000 + SMART_FLOW_LIMITS.serverMs - 2000);
    expect(run.snapshot()).toMatchObject({ status: "running", step: "connectingServer" });
    await vi.advanceTimersByTimeAsync(5000);
    expect((await done).failure).toMatchObject({ code: 4, reason: "server-timeout" });
  });

  it("covers all four smart failures of spec §4", () => {
    expect(SMART_SETUP_FAILURES).toEqual([1, 2, 3, 4]);
  });

  it("cancels on the access point and returns the phone to the home network", async () => {
    let release: (v: { acknowledged: boolean } | null) => void = () => {};
    phone.sendJoinPacket = () => new Promise((r) => (release = r));
    const run = setup();
    const done = run.start();
    await vi.advanceTimersByTimeAsync(10);
    expect(run.snapshot().onAccessPoint).toBe(true);
    expect(run.cancel()).toBe(true);
    const end = await done;
    expect(end.status).toBe("cancelled");
    expect(phone.onAp).toBe(false);
    expect(end.onAccessPoint).toBe(false);
    release({ acknowledged: true });
    await vi.advanceTimersByTimeAsync(20_000);
    expect(phone.hellos).toEqual([]);
    expect(bound).toEqual([]);
  });

  it("cancels while searching: no more hellos, nothing bound", async () => {
    phone.moduleJoins = false;
    const run = setup();
    const done = run.start();
    await vi.advanceTimersByTimeAsync(3000);
    run.cancel();
    expect((await done).status).toBe("cancelled");
    const hellos = phone.hellos.length;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(phone.hellos.length).toBe(hellos);
  });

  it("retries only the binding when binding failed", async () => {
    let calls = 0;
    const run = setup({
      bind: async (code) => {
        calls += 1;
        bound.push(code);
        if (calls === 1) throw new Error("The pairing code is not valid for any device.");
        return DEVICE;
      },
    });
    const done = run.start();
    await vi.advanceTimersByTimeAsync(15_000);
    const failed = await done;
    expect(failed.failure).toEqual({
      code: null,
      reason: "bind",
      moduleFailure: 0,
      message: "The pairing code is not valid for any device.",
    });
    const joins = phone.joinPackets;
    const end = await run.retry();
    expect(end.status).toBe("succeeded");
    expect(phone.joinPackets).toBe(joins);
    expect(bound).toEqual([CODE, CODE]);
  });

  it("retries the whole setup after a failure", async () => {
    phone.apInRange = false;
    const run = setup();
    expect((await run.start()).status).toBe("failed");
    phone.apInRange = true;
    const again = run.retry();
    await vi.advanceTimersByTimeAsync(15_000);
    expect((await again).status).toBe("succeeded");
  });

  it("starts one setup for a double tap and shows a one-decimal percent that never goes back", async () => {
    const run = setup();
    const a = run.start();
    expect(run.start()).toBe(a);
    const seen: number[] = [];
    for (let i = 0; i < 60; i++) {
      seen.push(smartProgressPercent(run.snapshot(), Date.now()));
      await vi.advanceTimersByTimeAsync(250);
    }
    await a;
    seen.push(smartProgressPercent(run.snapshot(), Date.now()));
    expect(phone.joinPackets).toBe(1);
    for (const p of seen) expect(Math.round(p * 10) / 10).toBe(p);
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThanOrEqual(seen[i - 1]);
    expect(seen[seen.length - 1]).toBe(100);
  });
});
