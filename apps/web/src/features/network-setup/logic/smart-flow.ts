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
 * packages/contract/src/dev-bridge.ts) and an injected clock:
 *
 * starting network setup: join the module's access point "WiFi-BL3372" (not found → initialization failed), send the
 * join packet (WPA2, up to 3 tries; no acknowledgement → connection timed out), leave the access point →
 * searching for device: hello every second for up to 60 s (nothing → failed to find device) →
 * device connected to Wi-Fi successfully (first answer) → device is connecting to the server (cloud state 1; 60 s or
 * cloud state 3 → device failed to connect to the server) → adding device (cloud state 2: bind with its pairing
 * code) → Device added successfully.
 */

/** What the flow needs from the phone (a WifiBridge); every operation answers null when it failed. */
export interface SmartBridge {
  getCurrentWifi(): Promise<TPhoneWifi | null>;
  joinAccessPoint(ssid: string): Promise<TJoinAccessPointResult | null>;
  leaveAccessPoint(): Promise<TPhoneWifi | null>;
  sendJoinPacket(packet: string): Promise<TSendJoinPacketResult | null>;
  discoverDevices(packet: string, timeoutMs: number): Promise<TDiscoverResult | null>;
}

/** Limits of the smart flow, ms unless named otherwise (docs §13.3). */
export const SMART_FLOW_LIMITS = {
  /** Tries to send the join packet (each waits up to 3 s for the acknowledgement on the bridge). */
  joinTries: 3,
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
 * phone could not join it or the bridge failed), "no-ack" (the join packet was never acknowledged), "not-found" (no
 * answer on the home network in 60 s), "server" (the module reported cloud state 3, `moduleFailure` 5–8),
 * "server-timeout" (still connecting after 60 s), "bind" (binding failed, `message` from the server).
 */
export type SmartFailureReason =
  | "no-access-point"
  | "bridge"
  | "no-ack"
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
  /** The module once it answered on the home network: MAC and address. */
  module: { mac: string; ip: string } | null;
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
 * Hello answers of a discovery that can be the module being set up: those that decode and report cloud state 1
 * (connecting), 3 (failed) or 2 with a pairing code. Left out: modules still on their access point (state 0),
 * devices set up long ago (state 2 without a code) and anything that is not our hello answer.
 */
export function readHelloAnswers(result: TDiscoverResult | null): HelloAnswer[] {
  const out: HelloAnswer[] = [];
  for (const a of result?.answers ?? []) {
    try {
      const answer = decodeHelloAnswer(fromBase64(a.packet));
      const candidate =
        answer.cloudState === CloudState.Connecting ||
        answer.cloudState === CloudState.Failed ||
        (answer.cloudState === CloudState.Connected && answer.pairingCode !== null);
      if (candidate) out.push(answer);
    } catch {
      // not a hello answer of ours: some other device on the network
    }
  }
  return out;
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

  /** Access point, join packet, discovery: answers the pairing code. */
  protected async exchange(): Promise<string> {
    const { bridge } = this.options;
    const joined = await this.call(() => bridge.joinAccessPoint(SETUP_AP_SSID), "join access point", 10_000);
    if (!joined?.ok) {
      throw fail(INITIALIZATION_FAILED, joined?.error === "not-found" ? "no-access-point" : "bridge");
    }
    this.update({ onAccessPoint: true });
    const packet = toBase64(
      encodeJoinPacket({ ssid: this.options.ssid, password: this.options.password, security: WifiSecurity.Wpa2 }),
    );
    let acknowledged = false;
    for (let i = 0; i < this.limits.joinTries && !acknowledged; i++) {
      const answer = await this.call(() => bridge.sendJoinPacket(packet), "send join packet", 3000);
      acknowledged = answer?.acknowledged === true;
    }
    const home = await this.call(() => bridge.leaveAccessPoint(), "leave access point", 10_000);
    this.update({ onAccessPoint: false });
    if (!acknowledged) throw fail(CONNECTION_TIMED_OUT, "no-ack");
    this.update({ step: "searching" });
    return this.search(home);
  }

  /** Hello every second until the module answers with its pairing code, a failure, or a limit passes. */
  private async search(home: TPhoneWifi | null): Promise<string> {
    const { bridge } = this.options;
    const wifi = home?.ip ? home : await this.call(() => bridge.getCurrentWifi(), "current Wi-Fi");
    const localIp = wifi?.ip ?? "0.0.0.0";
    const searchStart = this.clock.now();
    let answeredAt: number | null = null;
    let mac: string | null = null;
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
      const answer = readHelloAnswers(result).find((a) => mac === null || a.mac === mac) ?? null;
      if (answer) {
        if (mac === null) {
          mac = answer.mac;
          answeredAt = this.clock.now();
          this.update({ step: "wifiConnected", module: { mac: answer.mac, ip: answer.ip } });
        }
        if (answer.cloudState === CloudState.Failed) {
          throw fail(SERVER_CONNECTION_FAILED, "server", answer.failure);
        }
        if (answer.cloudState === CloudState.Connected && answer.pairingCode) return answer.pairingCode;
        if (answer.cloudState === CloudState.Connecting && this.state.step !== "connectingServer") {
          this.update({ step: "connectingServer" });
        }
      }
      const now = this.clock.now();
      if (answeredAt === null && now - searchStart >= this.limits.searchMs) throw fail(DEVICE_NOT_FOUND, "not-found");
      if (answeredAt !== null && now - answeredAt >= this.limits.serverMs) {
        throw fail(SERVER_CONNECTION_FAILED, "server-timeout");
      }
      await sleep(this.clock, this.limits.helloIntervalMs - (now - began), this.stop.signal);
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
