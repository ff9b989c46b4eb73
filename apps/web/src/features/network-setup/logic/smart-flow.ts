import type {
  TDiscoverResult,
  TJoinAccessPointResult,
  TPhoneWifi,
  TSendJoinPacketResult,
} from "@aquapilot/contract/wire";
import {
  CloudState,
  decodeHelloAnswer,
  encodeHelloPacket,
  encodeJoinPacket,
  fromBase64,
  type HelloAnswer,
  SETUP_AP_SSID,
  type SmartSetupFailure,
  type SmartSetupStep,
  toBase64,
  WifiSecurity,
} from "@aquapilot/provisioning";
import {
  type BindDevice,
  type BoundDevice,
  creep,
  type FlowClock,
  type FlowStatus,
  FlowStopped,
  realClock,
  roundPercent,
  SetupRun,
  sleep,
  withTimeout,
} from "./flow-kit.ts";

/**
 * The old version's network setup (spec §2 "Old version", §4 smart flow; docs/device-protocol.md §13.3) as a pure
 * state machine over the phone's Wi-Fi bridge (native shell or the development bridge; shapes of
 * packages/contract/src/dev-bridge.ts), the cloud's setup ticket and an injected clock. It works with a stock module,
 * which behaves as python-broadlink (mjg59/python-broadlink at 730853e5faf2cf979596662faf9def2b1f8fee6d) expects:
 *
 * starting network setup: a one-time setup ticket from the cloud (while the phone is still online), join the module's
 * access point "WiFi-BL3372" (not found → initialization failed), broadcast the join packet once with the ticket in it
 * and count it as sent when the bridge has it out (broadlink/__init__.py `setup()` lines 329–333: one sendto to
 * 255.255.255.255:80, nothing read back; the bridge failing → connection timed out), leave the access point →
 * searching for device: hello every second (broadlink/device.py `scan()`), and at the same time wait for the cloud to
 * report the module's activation with the ticket (its MAC and pairing code). Nothing of either within 60 s → failed
 * to find device. The product's firmware adds to its hello answer the cloud state (1 → device is connecting to the
 * server; 3 → device failed to connect to the server; still 1 after 60 s → the same) and, at state 2, the pairing code;
 * a stock module's 0x80-byte answer says nothing of the cloud, so only the activation tells its outcome →
 * device connected to Wi-Fi successfully → adding device (bind with the hello answer's pairing code when it has one,
 * else with the one the cloud returned for the ticket) → Device added successfully.
 */

/** What the flow needs from the phone (a WifiBridge); every operation answers null when it failed. */
export interface SmartBridge {
  getCurrentWifi(): Promise<TPhoneWifi | null>;
  joinAccessPoint(ssid: string): Promise<TJoinAccessPointResult | null>;
  leaveAccessPoint(): Promise<TPhoneWifi | null>;
  sendJoinPacket(packet: string): Promise<TSendJoinPacketResult | null>;
  discoverDevices(packet: string, timeoutMs: number): Promise<TDiscoverResult | null>;
}

/**
 * The cloud's one-time setup ticket as the flow uses it (apps/web/src/features/network-setup/api/setup-ticket.ts):
 * the ticket goes into the join packet, and the module's activation with it tells the flow which module it set up.
 */
export interface SmartSetupTicket {
  /** A fresh ticket (22 characters of base64url). @throws on any failure (no network, refused). */
  create(): Promise<{ ticket: string }>;
  /**
   * Settles once a module activated with `ticket`: its MAC (12 hex digits) and the pairing code "MAC:TOKEN".
   * @throws when the ticket expired, the wait timed out or `signal` aborted.
   */
  wait(
    ticket: string,
    options: { signal: AbortSignal; timeoutMs: number },
  ): Promise<{ mac: string; pairingCode: string }>;
}

/** Limits of the smart flow, ms unless named otherwise (docs §13.3). */
export const SMART_FLOW_LIMITS = {
  /** Searching for the device on the home network. */
  searchMs: 60_000,
  /** From the first answer to cloud state 2 ("device failed to connect to the server" after it). */
  serverMs: 60_000,
  /** Between two hello broadcasts. */
  helloIntervalMs: 1000,
  /** How long each discovery listens for answers (≤ the interval). */
  discoverWindowMs: 1000,
  /** Any one bridge call (the bridge waits at most 5 s itself). */
  bridgeCallMs: 15_000,
};
export type SmartFlowLimits = typeof SMART_FLOW_LIMITS;

/**
 * Why a run failed: "no-access-point" (the module's access point is not in range: not in setup mode), "bridge" (the
 * phone could not join it or the bridge failed), "ticket" (the cloud gave no setup ticket), "not-sent" (the bridge
 * could not send the join packet), "not-found" (neither an answer on the home network nor the module's activation in
 * 60 s), "server" (the module reported cloud state 3, `moduleFailure` 5–8), "server-timeout" (still connecting after
 * 60 s), "bind" (binding failed, `message` from the server).
 */
export type SmartFailureReason =
  | "no-access-point"
  | "bridge"
  | "ticket"
  | "not-sent"
  | "not-found"
  | "server"
  | "server-timeout"
  | "bind";

/** A failed run: the spec §4 smart failure shown (null for "bind"), why, and the module's own failure code. */
export interface SmartFailure {
  code: SmartSetupFailure | null;
  reason: SmartFailureReason;
  /** The module's cloud failure (BleSetupFailure 5–8) with cloud state 3, else 0. */
  moduleFailure: number;
  message: string | null;
}

/** One immutable picture of a smart run (times from the injected clock, ms). */
export interface SmartSetupSnapshot {
  status: FlowStatus;
  /** The spec §4 progress step. */
  step: SmartSetupStep;
  /** Whether the phone is on the module's access point right now. */
  onAccessPoint: boolean;
  /**
   * The module once known: its MAC (from its hello answer or its activation) and its address on the home network
   * (null while the phone has not seen its hello answer).
   */
  module: { mac: string; ip: string | null } | null;
  failure: SmartFailure | null;
  device: BoundDevice | null;
  startedAt: number;
  /** When the step last changed. */
  since: number;
  endedPercent: number | null;
}

/** What a smart run needs. */
export interface SmartSetupOptions {
  bridge: SmartBridge;
  /** Wi-Fi name and password for the join packet (UTF-8, 1–32 and 0–32 bytes; validated by the Wi-Fi page). */
  ssid: string;
  password: string;
  bind: BindDevice;
  clock?: FlowClock;
  limits?: Partial<SmartFlowLimits>;
  /** The phone's offset from UTC in minutes for the hello packet (default: this browser's). */
  utcOffsetMinutes?: number;
  /**
   * The cloud's setup ticket. Without it the join packet carries none and only a module with the product's firmware
   * (pairing code in its hello answer) can complete.
   */
  setupTicket?: SmartSetupTicket;
}

class Fail extends Error {
  readonly failure: SmartFailure;
  constructor(failure: SmartFailure) {
    super(`setup failed: ${failure.reason}`);
    this.failure = failure;
    this.name = "Fail";
  }
}

const INITIALIZATION_FAILED = 1 as SmartSetupFailure;
const CONNECTION_TIMED_OUT = 2 as SmartSetupFailure;
const DEVICE_NOT_FOUND = 3 as SmartSetupFailure;
const SERVER_CONNECTION_FAILED = 4 as SmartSetupFailure;

const fail = (code: SmartSetupFailure | null, reason: SmartFailureReason, moduleFailure = 0, message = null) =>
  new Fail({ code, reason, moduleFailure, message });

/**
 * The hello answers of a discovery that decode (python-broadlink `scan()` reads any answer of at least 0x80 bytes,
 * broadlink/device.py lines 59–73), stock or with the product's extension; anything else is left out.
 */
export function readHelloAnswers(result: TDiscoverResult | null): HelloAnswer[] {
  const out: HelloAnswer[] = [];
  for (const a of result?.answers ?? []) {
    try {
      out.push(decodeHelloAnswer(fromBase64(a.packet)));
    } catch {
      // not a hello answer: some other device on the network
    }
  }
  return out;
}

/**
 * Whether a product module's answer can be the module being set up: cloud state 1 (connecting), 3 (failed) or 2 with
 * a pairing code. Modules still on their access point (state 0) and devices set up long ago (state 2 without a code)
 * are not.
 */
function settingUp(answer: HelloAnswer): boolean {
  const e = answer.extension;
  return (
    e !== null &&
    (e.cloudState === CloudState.Connecting ||
      e.cloudState === CloudState.Failed ||
      (e.cloudState === CloudState.Connected && e.pairingCode !== null))
  );
}

/**
 * One smart (access point) network setup. `start()` runs it once (double taps start one setup), `cancel()` stops
 * it before binding (the phone leaves the access point if it is on it), `retry()` runs again after a failure or a
 * cancel (binding only when just binding failed). `subscribe()` delivers every new {@link SmartSetupSnapshot}.
 */
export class SmartSetupRun extends SetupRun<SmartSetupSnapshot> {
  private readonly limits: SmartFlowLimits;

  private readonly options: SmartSetupOptions;
  constructor(options: SmartSetupOptions) {
    super(options.clock ?? realClock);
    this.options = options;
    this.limits = { ...SMART_FLOW_LIMITS, ...options.limits };
  }

  protected initial(): SmartSetupSnapshot {
    const now = this.clock.now();
    return {
      status: "running",
      step: "starting",
      onAccessPoint: false,
      module: null,
      failure: null,
      device: null,
      startedAt: now,
      since: now,
      endedPercent: null,
    };
  }

  protected isNewPhase(patch: Partial<SmartSetupSnapshot>): boolean {
    return patch.step !== undefined && patch.step !== this.state.step;
  }

  protected cancellable(): boolean {
    return this.state.step !== "adding";
  }

  protected percent(): number {
    return smartProgressPercent(this.state, this.clock.now());
  }

  protected bind(pairingCode: string): Promise<BoundDevice> {
    return this.options.bind(pairingCode);
  }

  protected bindingPatch(): Partial<SmartSetupSnapshot> {
    return { step: "adding" };
  }

  protected boundPatch(device: BoundDevice): Partial<SmartSetupSnapshot> {
    return { step: "added", device };
  }

  protected bindFailure(message: string | null): SmartFailure {
    return { code: null, reason: "bind", moduleFailure: 0, message };
  }

  /** Runs one bridge call within its limit; null when it failed or took too long; cancel rejects FlowStopped. */
  private async call<T>(work: () => Promise<T | null>, what: string, waitMs = 0): Promise<T | null> {
    try {
      return await withTimeout(this.clock, work(), this.limits.bridgeCallMs + waitMs, what, this.stop.signal);
    } catch (err) {
      if (err instanceof FlowStopped) throw err;
      console.warn(`[network-setup] ${what} failed`, err);
      return null;
    }
  }

  /** Back on the home network first, then the failure or the cancel. */
  protected async end(err: unknown): Promise<SmartSetupSnapshot> {
    await this.leaveIfOnAccessPoint();
    const endedPercent = this.percent();
    if (err instanceof FlowStopped) {
      this.update({ status: "cancelled", endedPercent });
    } else if (err instanceof Fail) {
      this.update({ status: "failed", failure: err.failure, endedPercent });
    } else {
      console.error("[network-setup] smart flow broke", err);
      this.update({
        status: "failed",
        failure: { code: INITIALIZATION_FAILED, reason: "bridge", moduleFailure: 0, message: null },
        endedPercent,
      });
    }
    return this.state;
  }

  /** Back to the home network after a failure or a cancel (best effort, not cancellable). */
  private async leaveIfOnAccessPoint(): Promise<void> {
    if (!this.state.onAccessPoint) return;
    try {
      await withTimeout(this.clock, this.options.bridge.leaveAccessPoint(), this.limits.bridgeCallMs, "leave");
    } catch (err) {
      console.warn("[network-setup] leaving the access point failed", err);
    }
    this.update({ onAccessPoint: false });
  }

  /** Setup ticket, access point, join packet, discovery: answers the pairing code. */
  protected async exchange(): Promise<string> {
    const { bridge, setupTicket } = this.options;
    let ticket: string | null = null;
    if (setupTicket) {
      const created = await this.call(() => setupTicket.create(), "setup ticket");
      if (!created) throw fail(INITIALIZATION_FAILED, "ticket");
      ticket = created.ticket;
    }
    const joined = await this.call(() => bridge.joinAccessPoint(SETUP_AP_SSID), "join access point", 10_000);
    if (!joined?.ok) {
      throw fail(INITIALIZATION_FAILED, joined?.error === "not-found" ? "no-access-point" : "bridge");
    }
    this.update({ onAccessPoint: true });
    const packet = toBase64(
      encodeJoinPacket({
        ssid: this.options.ssid,
        password: this.options.password,
        // python-broadlink's modes (broadlink/__init__.py line 305): none for an open network, else WPA2 (its README's
        // example, README.md line 48), which WPA2 and mixed WPA1/2 routers accept.
        security: this.options.password === "" ? WifiSecurity.None : WifiSecurity.Wpa2,
        setupTicket: ticket,
      }),
    );
    // Sent once, as setup() does; the bridge answers when the datagram is out (a stock module never answers it).
    const sent = await this.call(() => bridge.sendJoinPacket(packet), "send join packet");
    const home = await this.call(() => bridge.leaveAccessPoint(), "leave access point", 10_000);
    this.update({ onAccessPoint: false });
    if (!sent) throw fail(CONNECTION_TIMED_OUT, "not-sent");
    this.update({ step: "searching" });
    return this.search(home, ticket);
  }

  /**
   * Hello every second, and the cloud's word on the ticket, until the module's pairing code is known (from its hello
   * answer, or from its activation), its failure is, or a limit passes.
   */
  private async search(home: TPhoneWifi | null, ticket: string | null): Promise<string> {
    const { bridge, setupTicket } = this.options;
    const wifi = home?.ip ? home : await this.call(() => bridge.getCurrentWifi(), "current Wi-Fi");
    const localIp = wifi?.ip ?? "0.0.0.0";
    const searchStart = this.clock.now();
    let answeredAt: number | null = null;
    let mac: string | null = null;
    let activated: { mac: string; pairingCode: string } | null = null;
    const waiting = new AbortController();
    const stopWaiting = () => waiting.abort(this.stop.signal.reason);
    this.stop.signal.addEventListener("abort", stopWaiting, { once: true });
    if (setupTicket && ticket !== null) {
      setupTicket
        .wait(ticket, { signal: waiting.signal, timeoutMs: this.limits.searchMs + this.limits.serverMs })
        .then((result) => {
          activated = { mac: result.mac.toUpperCase(), pairingCode: result.pairingCode };
        })
        .catch((err) => {
          if (!waiting.signal.aborted) console.warn("[network-setup] waiting for the setup ticket failed", err);
        });
    }
    try {
      for (;;) {
        const began = this.clock.now();
        const hello = toBase64(
          encodeHelloPacket({
            time: new Date(),
            utcOffsetMinutes: this.options.utcOffsetMinutes ?? -new Date().getTimezoneOffset(),
            localIp,
            localPort: 0,
          }),
        );
        const result = await this.call(
          () => bridge.discoverDevices(hello, this.limits.discoverWindowMs),
          "discover",
          this.limits.discoverWindowMs,
        );
        const answers = readHelloAnswers(result);
        const cloud = activated as { mac: string; pairingCode: string } | null;
        if (cloud !== null && mac === null) mac = cloud.mac;
        const answer =
          answers.find((a) => (mac === null ? settingUp(a) : a.mac === mac && a.extension !== null)) ?? null;
        const seen = mac === null ? null : (answers.find((a) => a.mac === mac) ?? null);
        if (answer && mac === null) mac = answer.mac;
        if (mac !== null && this.state.module === null) {
          if (answeredAt === null) answeredAt = this.clock.now();
          this.update({ step: "wifiConnected", module: { mac, ip: seen?.ip ?? answer?.ip ?? null } });
        }
        const ext = answer?.extension ?? null;
        if (ext?.cloudState === CloudState.Failed) throw fail(SERVER_CONNECTION_FAILED, "server", ext.failure);
        if (ext?.cloudState === CloudState.Connected && ext.pairingCode) return ext.pairingCode;
        if (cloud !== null) return cloud.pairingCode;
        if (ext?.cloudState === CloudState.Connecting && this.state.step !== "connectingServer") {
          this.update({ step: "connectingServer" });
        }
        const now = this.clock.now();
        if (answeredAt === null && now - searchStart >= this.limits.searchMs) {
          throw fail(DEVICE_NOT_FOUND, "not-found");
        }
        if (answeredAt !== null && now - answeredAt >= this.limits.serverMs) {
          throw fail(SERVER_CONNECTION_FAILED, "server-timeout");
        }
        await sleep(this.clock, this.limits.helloIntervalMs - (now - began), this.stop.signal);
      }
    } finally {
      this.stop.signal.removeEventListener("abort", stopWaiting);
      waiting.abort();
    }
  }
}

/**
 * The progress percent of a smart run at `now` (spec §9: one decimal): starting 0–15, searching 15–40, device
 * connected to Wi-Fi 45–55, connecting to the server 55–85, adding 85–98, added 100; each part creeps with time.
 * An ended run keeps its last percent.
 */
export function smartProgressPercent(s: SmartSetupSnapshot, now: number): number {
  if (s.status === "succeeded") return 100;
  if (s.status !== "running" && s.endedPercent !== null) return s.endedPercent;
  const t = now - s.since;
  const ranges: Record<SmartSetupStep, [number, number, number]> = {
    starting: [0, 15, 4000],
    searching: [15, 40, 15_000],
    wifiConnected: [45, 55, 4000],
    connectingServer: [55, 85, 10_000],
    adding: [85, 98, 2000],
    added: [100, 100, 1],
  };
  const [from, to, tau] = ranges[s.step];
  return roundPercent(creep(from, to, t, tau));
}
