import { BluetoothSetupState } from "@aquapilot/contract/wire";
import {
  BLSYNC_MAX_FRAME,
  type BleSetupFailure,
  type BleSetupStep,
  BlsyncAssembler,
  BlsyncCommand,
  BlsyncData,
  BlsyncFrameType,
  type BlsyncMessage,
  BlsyncResult,
  commandFrames,
  dataFrames,
  decodeSdkWifiState,
  decodeStatusExtension,
  discardFrame,
  fromUtf8,
  setupStateOfSdk,
  setupTicketData,
  statusExtensionRequest,
  utf8,
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
import type { SmartSetupTicket } from "./smart-flow.ts";

/**
 * The new version's network setup over Bluetooth (spec §2 "New version", §3 states 0–4, §4 progress and the eight
 * failures; exchange of docs/device-protocol.md §13.2) as a pure state machine over an injected transport and clock:
 *
 * connect → [GET_VERSION] → SSID → PASSWORD (one answer read after every frame) → the product's status extension
 * (custom data) → CONNECT_WIFI → every second WIFI_STATE_GET and the status extension → state 4 with a pairing code
 * or a failure → PROV_STOP → bind → added. A module that refuses the status extension (stock firmware) is handed a
 * one-time setup ticket (custom data) before CONNECT_WIFI and followed through the SDK's Wi-Fi state until it has an
 * address; then the app stops provisioning and learns the outcome from the cloud: the module's activation with the
 * ticket gives the pairing code.
 *
 * Frames are never sent again: the SDK's transfer layer writes through NULL when a fragment arrives twice or a new
 * message starts over one it holds half-received (docs §13.2). A message whose answer could not be read is sent
 * again whole, with new seqs, after the discard frame that makes the module drop what it may hold. A link that
 * drops half-way is reopened to the same device (no chooser) up to {@link BLE_FLOW_LIMITS.reconnectAttempts} times
 * and the flow goes on where it was. The Bluetooth part must end within 120 s ("connection timed out"); the owner
 * may cancel at any time before binding.
 */

/** The GATT link to one chosen module (the write and read characteristics of the provisioning service). */
export interface BleTransport {
  /** Opens (or reopens) the link to the chosen module. */
  connect(): Promise<void>;
  /**
   * Writes one frame (at most the negotiated ATT MTU less 3 bytes, 20 when the platform cannot tell) to the write
   * characteristic.
   */
  write(frame: Uint8Array): Promise<void>;
  /** Reads the read characteristic: the next frame of the prepared answer. Rejects when nothing is prepared. */
  read(): Promise<Uint8Array>;
  /** Closes the link. */
  disconnect(): Promise<void>;
  /** Calls `listener` whenever the link drops; answers the function that stops listening. */
  onDisconnect(listener: () => void): () => void;
  /**
   * The ATT MTU negotiated on the open link, bytes, or null when the platform cannot tell (Web Bluetooth never can;
   * the native shells' Bluetooth can). Absent: as null.
   */
  negotiatedMtu?(): Promise<number | null>;
}

/** The smallest ATT MTU (Bluetooth Core Vol 3 Part F §3.2.8): every link carries 23-byte packets. */
const ATT_MIN_MTU = 23;
/** The ATT header of a write request (opcode and handle), bytes: a write carries the MTU less this. */
const ATT_WRITE_HEADER = 3;

/** Limits of the Bluetooth flow, ms unless named otherwise. */
export const BLE_FLOW_LIMITS = {
  /** The whole Bluetooth part, from the first connect to the pairing code ("connection timed out"). */
  overallMs: 120_000,
  /** Between two WIFI_STATE_GET requests. */
  pollIntervalMs: 1000,
  /** One GATT write or read. */
  operationMs: 5000,
  /** Opening the link. */
  connectMs: 15_000,
  /** Tries per message (the first send and the sends anew), each with its own seqs. */
  messageAttempts: 3,
  /** Reads of one answer frame before the message is sent anew. */
  readAttempts: 2,
  /** Tries to open the link at the start before "initialization failed". */
  connectAttempts: 2,
  /** Tries to reopen a dropped link before "connection timed out". */
  reconnectAttempts: 3,
  /** Pause before each reopening. */
  reconnectDelayMs: 1000,
  /** Frames of one answer at most (a Wi-Fi state answer takes about a dozen). */
  maxAnswerFrames: 64,
};
export type BleFlowLimits = typeof BLE_FLOW_LIMITS;

/**
 * Why a run failed: "module" — the module reported `code` in its Wi-Fi state; "deadline" — 120 s passed;
 * "connect" — the link could not be opened; "link-lost" — it dropped and could not be reopened; "protocol" — the
 * module refused a request; "bind" — binding with the pairing code failed (`message` from the server).
 */
export type BleFailureReason = "module" | "deadline" | "connect" | "link-lost" | "protocol" | "bind";

/** A failed run: the spec §4 failure shown to the owner (null for "bind") and why. */
export interface BleFailure {
  code: BleSetupFailure | null;
  reason: BleFailureReason;
  message: string | null;
}

/** The Bluetooth link as the owner may see it. */
export type BleLinkState = "idle" | "connecting" | "connected" | "reconnecting" | "closed";

/** What the flow is doing: opening the link, sending the Wi-Fi, polling the module, binding, done. */
export type BlePhase = "connect" | "configure" | "poll" | "bind" | "done";

/** One immutable picture of a run (times from the injected clock, ms). */
export interface BleSetupSnapshot {
  status: FlowStatus;
  /** The spec §4 progress step: starting network setup, adding device, Device added successfully. */
  step: BleSetupStep;
  phase: BlePhase;
  /** The module's last reported state 0–4 (spec §3), null before the first answer. */
  moduleState: BluetoothSetupState | null;
  link: BleLinkState;
  failure: BleFailure | null;
  /** The bound device once succeeded. */
  device: BoundDevice | null;
  /** The module's protocol version ("v1.1.0") when it answered GET_VERSION. */
  moduleVersion: string | null;
  /** How often the link was reopened in this run. */
  reconnects: number;
  startedAt: number;
  /** When the phase or the module state last changed (the progress bar creeps from there). */
  since: number;
  /** The percent shown when the run ended without success. */
  endedPercent: number | null;
}

/** What a Bluetooth run needs. */
export interface BleSetupOptions {
  transport: BleTransport;
  /** Wi-Fi name and password sent to the module (UTF-8, 1–32 and 0–64 bytes; validated by the Wi-Fi page). */
  ssid: string;
  password: string;
  bind: BindDevice;
  clock?: FlowClock;
  limits?: Partial<BleFlowLimits>;
  /** Ask the module's version first (docs §13.2 step 1; default true). */
  askVersion?: boolean;
  /**
   * The cloud's setup tickets (api/setup-ticket.ts): when the module reports no outcome of its own (stock firmware)
   * the run creates a ticket, hands it to the module and waits for the module's activation with it. Without it a
   * stock module's setup cannot end.
   */
  setupTicket?: SmartSetupTicket;
  /**
   * Largest frame written, bytes; when absent, the negotiated ATT MTU less 3 as the transport tells it after each
   * connect ({@link BleTransport.negotiatedMtu}), else 20 (the smallest MTU's). The SDK takes frames of any length its
   * link carries and answers in frames of its own MTU less 3 (`blsync_ble.c` `bt_gatt_get_mtu() - 3`).
   */
  maxFrame?: number;
}

/** The link dropped or stopped answering; the run reopens it. */
class LinkLost extends Error {
  readonly detail?: unknown;
  constructor(detail?: unknown) {
    super("bluetooth link lost");
    this.detail = detail;
    this.name = "LinkLost";
  }
}

/** The run ends with `failure`. */
class Fail extends Error {
  readonly failure: BleFailure;
  constructor(failure: BleFailure) {
    super(`setup failed: ${failure.reason}`);
    this.failure = failure;
    this.name = "Fail";
  }
}

const fail = (code: BleSetupFailure | null, reason: BleFailureReason, message: string | null = null) =>
  new Fail({ code, reason, message });

/** Failure codes of spec §4 used by the app itself (BleSetupFailure). */
const INITIALIZATION_FAILED = 1 as BleSetupFailure;
const CONNECTION_TIMED_OUT = 2 as BleSetupFailure;

/** A signal that aborts when any of `signals` does; `dispose` removes its listeners. */
function anySignal(signals: AbortSignal[]): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const cleanups: Array<() => void> = [];
  for (const s of signals) {
    if (s.aborted) {
      controller.abort(s.reason);
      break;
    }
    const on = () => controller.abort(s.reason);
    s.addEventListener("abort", on, { once: true });
    cleanups.push(() => s.removeEventListener("abort", on));
  }
  return {
    signal: controller.signal,
    dispose: () => {
      for (const c of cleanups) c();
    },
  };
}

/**
 * One Bluetooth network setup. `start()` runs it (a second call answers the same promise: double taps start one
 * setup), `cancel()` stops it before binding, `retry()` runs again after a failure or a cancel (binding only, when
 * the pairing code is known and only binding failed). `subscribe()` delivers every new {@link BleSetupSnapshot}.
 */
export class BleSetupRun extends SetupRun<BleSetupSnapshot> {
  private readonly limits: BleFlowLimits;
  private linkAbort = new AbortController();
  /** Largest frame written on the open link, bytes (set at each connect: a reopened link may negotiate anew). */
  private frameBytes = BLSYNC_MAX_FRAME;
  private closing = false;
  private seq = 0;
  private unlisten: (() => void) | null = null;
  /** Whether the module may hold a message half-received (a fragment went out and the message did not end). */
  private held = false;
  /** The setup ticket of this run once created, and whether the module took it. */
  private ticket: string | null = null;
  private ticketTaken = false;
  /** Whether the module answers the product's status extension (null before the first ask). */
  private extension: boolean | null = null;

  private readonly options: BleSetupOptions;
  constructor(options: BleSetupOptions) {
    super(options.clock ?? realClock);
    this.options = options;
    this.limits = { ...BLE_FLOW_LIMITS, ...options.limits };
  }

  protected initial(): BleSetupSnapshot {
    const now = this.clock.now();
    return {
      status: "running",
      step: "starting",
      phase: "connect",
      moduleState: null,
      link: "idle",
      failure: null,
      device: null,
      moduleVersion: null,
      reconnects: 0,
      startedAt: now,
      since: now,
      endedPercent: null,
    };
  }

  protected isNewPhase(patch: Partial<BleSetupSnapshot>): boolean {
    return (
      (patch.phase !== undefined && patch.phase !== this.state.phase) ||
      (patch.moduleState !== undefined && patch.moduleState !== this.state.moduleState)
    );
  }

  protected cancellable(): boolean {
    return this.state.phase !== "bind";
  }

  protected percent(): number {
    return bleProgressPercent(this.state, this.clock.now());
  }

  protected bind(pairingCode: string): Promise<BoundDevice> {
    return this.options.bind(pairingCode);
  }

  protected bindingPatch(): Partial<BleSetupSnapshot> {
    return { step: "adding", phase: "bind" };
  }

  protected boundPatch(device: BoundDevice): Partial<BleSetupSnapshot> {
    return { step: "added", phase: "done", device };
  }

  protected bindFailure(message: string | null): BleFailure {
    return { code: null, reason: "bind", message };
  }

  /** The Bluetooth part within the overall limit; the link is closed afterwards, whatever happened. */
  protected async exchange(): Promise<string> {
    const deadline = this.clock.setTimeout(() => this.stop.abort("deadline"), this.limits.overallMs);
    this.listen();
    try {
      return await this.talk();
    } finally {
      this.clock.clearTimeout(deadline);
      await this.close();
    }
  }

  protected end(err: unknown): BleSetupSnapshot {
    const outcome = this.failureOf(err);
    const endedPercent = this.percent();
    if (outcome === "cancel") this.update({ status: "cancelled", endedPercent, link: "closed" });
    else this.update({ status: "failed", failure: outcome, endedPercent, link: "closed" });
    return this.state;
  }

  private failureOf(err: unknown): BleFailure | "cancel" {
    if (err instanceof Fail) return err.failure;
    if (err instanceof FlowStopped) {
      if (err.reason === "cancel") return "cancel";
      return { code: CONNECTION_TIMED_OUT, reason: "deadline", message: null };
    }
    console.error("[network-setup] bluetooth flow broke", err);
    return { code: INITIALIZATION_FAILED, reason: "protocol", message: null };
  }

  /** Closes the link on purpose (no reconnect), best effort. */
  private async close(): Promise<void> {
    this.closing = true;
    this.unlisten?.();
    this.unlisten = null;
    try {
      await withTimeout(this.clock, this.options.transport.disconnect(), this.limits.operationMs, "disconnect");
    } catch {
      // the link is gone either way
    }
    this.closing = false;
  }

  /** The Bluetooth part: answers the pairing code. */
  private async talk(): Promise<string> {
    await this.openLink();
    let configured = false;
    for (;;) {
      try {
        if (!configured) {
          await this.configure();
          configured = true;
        }
        return await this.poll();
      } catch (err) {
        if (!(err instanceof LinkLost)) throw err;
        await this.reopen();
      }
    }
  }

  /** Listens for link drops: a drop not caused by the app aborts the pending operation ({@link LinkLost}). */
  private listen(): void {
    this.unlisten?.();
    this.unlisten = this.options.transport.onDisconnect(() => {
      if (this.closing) return;
      this.linkAbort.abort("link");
      if (this.state.status === "running") this.update({ link: "closed" });
    });
  }

  /** One try to open the link within the connect limit. */
  private async connectOnce(): Promise<void> {
    this.linkAbort = new AbortController();
    await withTimeout(this.clock, this.options.transport.connect(), this.limits.connectMs, "connect", this.stop.signal);
    this.frameBytes = this.options.maxFrame ?? (await this.learnFrameBytes());
    this.update({ link: "connected" });
  }

  /** Opens the link at the start, {@link BLE_FLOW_LIMITS.connectAttempts} tries; then "initialization failed". */
  private async openLink(): Promise<void> {
    let last: unknown = null;
    for (let i = 0; i < this.limits.connectAttempts; i++) {
      if (i > 0) await sleep(this.clock, this.limits.reconnectDelayMs, this.stop.signal);
      this.update({ link: "connecting" });
      try {
        await this.connectOnce();
        return;
      } catch (err) {
        if (err instanceof FlowStopped) throw err;
        last = err;
        console.warn("[network-setup] bluetooth connect failed", err);
      }
    }
    throw fail(INITIALIZATION_FAILED, "connect", last instanceof Error ? last.message : null);
  }

  /**
   * Reopens a dropped (or silent) link to the same module, without a chooser; at most
   * {@link BLE_FLOW_LIMITS.reconnectAttempts} reopenings per run, then "connection timed out".
   */
  private async reopen(): Promise<void> {
    await this.close();
    this.listen();
    for (;;) {
      if (this.state.reconnects >= this.limits.reconnectAttempts) throw fail(CONNECTION_TIMED_OUT, "link-lost");
      this.update({ link: "reconnecting", reconnects: this.state.reconnects + 1 });
      await sleep(this.clock, this.limits.reconnectDelayMs, this.stop.signal);
      try {
        await this.connectOnce();
        return;
      } catch (err) {
        if (err instanceof FlowStopped) throw err;
        console.warn("[network-setup] bluetooth reconnect failed", err);
      }
    }
  }

  /** Runs one GATT operation within the operation limit; a dropped link rejects with {@link LinkLost}. */
  private async op<T>(work: () => Promise<T>, what: string): Promise<T> {
    if (this.stop.signal.aborted) throw new FlowStopped(this.stop.signal.reason);
    if (this.linkAbort.signal.aborted) throw new LinkLost();
    const both = anySignal([this.stop.signal, this.linkAbort.signal]);
    try {
      return await withTimeout(this.clock, work(), this.limits.operationMs, what, both.signal);
    } catch (err) {
      if (err instanceof FlowStopped && !this.stop.signal.aborted) throw new LinkLost(err);
      throw err;
    } finally {
      both.dispose();
    }
  }

  /** Reads frames until one whole answer (ack, data) is assembled. */
  private async readAnswer(what: string): Promise<BlsyncMessage> {
    const assembler = new BlsyncAssembler();
    for (let i = 0; i < this.limits.maxAnswerFrames; i++) {
      const bytes = await this.op(() => this.options.transport.read(), `read ${what}`);
      const message = assembler.push(bytes);
      if (!message) continue;
      if (!message.ack || message.type !== BlsyncFrameType.Data) throw new Error(`not an answer to ${what}`);
      return message;
    }
    throw new Error(`answer to ${what} never ended`);
  }

  /**
   * Sends one request message and answers the module's answer to its last frame. Each frame is written once and
   * its answer read (a failed read is read again, never written again); every frame but the last must be answered
   * OK. When a frame's answer cannot be had, the message is sent anew with new seqs, after {@link discard} when the
   * module may hold part of it; {@link BLE_FLOW_LIMITS.messageAttempts} sends, then the link counts as lost.
   */
  private async request(build: (seq: number) => Uint8Array[], what: string): Promise<BlsyncMessage> {
    let last: unknown = null;
    for (let attempt = 0; attempt < this.limits.messageAttempts; attempt++) {
      try {
        if (this.held) await this.discard(what);
        const frames = build(this.seq);
        const first = this.seq;
        this.seq = (this.seq + frames.length) & 0xff;
        let answer: BlsyncMessage | null = null;
        for (let i = 0; i < frames.length; i++) {
          if (frames.length > 1) this.held = true;
          answer = await this.exchangeFrame(frames[i], (first + i) & 0xff, what);
          if (i < frames.length - 1 && answer.id !== BlsyncResult.Ok) {
            throw new Error(`${what}: fragment ${i} answered ${answer.id}`);
          }
        }
        this.held = false;
        return answer as BlsyncMessage;
      } catch (err) {
        if (err instanceof LinkLost || err instanceof FlowStopped || err instanceof Fail) throw err;
        last = err;
      }
    }
    // The module stopped answering: treat it as a lost link (reopen, then go on).
    console.warn(`[network-setup] ${what} not answered`, last);
    throw new LinkLost(last);
  }

  /** Makes the module drop a half-received message (the discard frame; it answers 0xfe). */
  private async discard(what: string): Promise<void> {
    const seq = this.seq;
    this.seq = (this.seq + 1) & 0xff;
    await this.exchangeFrame(discardFrame(seq), seq, `discard before ${what}`);
    this.held = false;
  }

  /** Writes one frame once and reads the module's answer to it (a failed read is read again). */
  private async exchangeFrame(frame: Uint8Array, frameSeq: number, what: string): Promise<BlsyncMessage> {
    await this.op(() => this.options.transport.write(frame), `write ${what}`);
    let last: unknown = null;
    for (let attempt = 0; attempt < this.limits.readAttempts; attempt++) {
      try {
        const answer = await this.readAnswer(what);
        if (answer.seq === frameSeq) return answer;
        last = new Error(`answer to seq ${answer.seq}, expected ${frameSeq}`);
      } catch (err) {
        if (err instanceof LinkLost || err instanceof FlowStopped) throw err;
        last = err;
      }
    }
    throw last;
  }

  /**
   * The largest frame the link just opened carries: the negotiated ATT MTU less 3 when the transport can tell one of
   * at least 23 bytes, else {@link BLSYNC_MAX_FRAME}. An MTU that cannot be read within the operation limit counts as
   * unknown (logged): the smallest frames always work.
   */
  private async learnFrameBytes(): Promise<number> {
    const { transport } = this.options;
    if (!transport.negotiatedMtu) return BLSYNC_MAX_FRAME;
    try {
      const mtu = await withTimeout(
        this.clock,
        transport.negotiatedMtu(),
        this.limits.operationMs,
        "mtu",
        this.stop.signal,
      );
      return mtu !== null && Number.isInteger(mtu) && mtu >= ATT_MIN_MTU ? mtu - ATT_WRITE_HEADER : BLSYNC_MAX_FRAME;
    } catch (err) {
      if (err instanceof FlowStopped) throw err;
      console.warn("[network-setup] bluetooth MTU unknown, writing 20-byte frames", err);
      return BLSYNC_MAX_FRAME;
    }
  }

  private command(id: BlsyncCommand, what: string): Promise<BlsyncMessage> {
    return this.request((seq) => commandFrames(id, seq, this.frameBytes), what);
  }

  private data(id: BlsyncData, bytes: Uint8Array, what: string): Promise<BlsyncMessage> {
    return this.request((seq) => dataFrames(id, bytes, seq, this.frameBytes), what);
  }

  /**
   * Sends the Wi-Fi name and password, hands over the setup ticket and asks the module to connect (docs §13.2
   * steps 1–5).
   */
  private async configure(): Promise<void> {
    this.update({ phase: "configure" });
    if (this.options.askVersion !== false) {
      const version = await this.command(BlsyncCommand.GetVersion, "GET_VERSION");
      if (version.id === BlsyncResult.Ok) {
        try {
          this.update({ moduleVersion: fromUtf8(version.data).replace(/\0+$/, "") || null });
        } catch {
          // not text: the version is only informative
        }
      }
    }
    const ssid = await this.data(BlsyncData.StaWifiSsid, utf8(this.options.ssid), "SSID");
    if (ssid.id !== BlsyncResult.Ok) throw fail(INITIALIZATION_FAILED, "protocol", `SSID refused (${ssid.id})`);
    const password = await this.data(BlsyncData.StaWifiPassword, utf8(this.options.password), "PASSWORD");
    if (password.id !== BlsyncResult.Ok) {
      throw fail(INITIALIZATION_FAILED, "protocol", `PASSWORD refused (${password.id})`);
    }
    // A module with the product's status extension reports its outcome itself; one without it (stock firmware)
    // gets the setup ticket, so the cloud can tell the outcome.
    const extension = await this.data(BlsyncData.CustomData, statusExtensionRequest(), "STATUS_EXTENSION");
    this.extension = extension.id === BlsyncResult.Ok;
    if (!this.extension) await this.handTicket();
    this.update({ moduleState: BluetoothSetupState.ConfigReceived });
    const connect = await this.command(BlsyncCommand.ConnectWifi, "CONNECT_WIFI");
    if (connect.id !== BlsyncResult.Ok) {
      throw fail(INITIALIZATION_FAILED, "protocol", `CONNECT_WIFI refused (${connect.id})`);
    }
  }

  /**
   * Creates the run's setup ticket (once) and hands it to the module (custom data); a module without the product's
   * handler refuses it.
   */
  private async handTicket(): Promise<void> {
    const tickets = this.options.setupTicket;
    if (!tickets) return;
    if (!this.ticket) {
      try {
        this.ticket = (await tickets.create()).ticket;
      } catch (err) {
        console.warn("[network-setup] no setup ticket", err);
        return;
      }
    }
    const answer = await this.data(BlsyncData.CustomData, setupTicketData(this.ticket), "SETUP_TICKET");
    this.ticketTaken = answer.id === BlsyncResult.Ok;
  }

  /**
   * Asks the module's Wi-Fi state and status extension every second until state 4 with a pairing code (answered)
   * or a failure; without the extension, until the module has an address, then from the cloud.
   */
  private async poll(): Promise<string> {
    if (this.state.phase !== "poll") this.update({ phase: "poll" });
    for (;;) {
      const began = this.clock.now();
      const answer = await this.command(BlsyncCommand.WifiStateGet, "WIFI_STATE_GET");
      if (answer.id === BlsyncResult.Ok) {
        try {
          const sdk = decodeSdkWifiState(answer.data);
          const state = setupStateOfSdk(sdk, true);
          if (this.extension === false || state > (this.state.moduleState ?? 0)) this.update({ moduleState: state });
        } catch (err) {
          console.warn("[network-setup] unreadable Wi-Fi state", err);
        }
      }
      if (this.extension !== false) {
        const code = await this.askExtension();
        if (code) return code;
      }
      if (this.extension === false && this.state.moduleState === BluetoothSetupState.WifiConnected) {
        return await this.fromCloud();
      }
      await sleep(this.clock, this.limits.pollIntervalMs - (this.clock.now() - began), this.stop.signal);
    }
  }

  /** The product's status extension: the spec state, a failure, the pairing code at state 4 (then PROV_STOP). */
  private async askExtension(): Promise<string | null> {
    const answer = await this.data(BlsyncData.CustomData, statusExtensionRequest(), "STATUS_EXTENSION");
    if (answer.id !== BlsyncResult.Ok) {
      this.extension = false;
      return null;
    }
    this.extension = true;
    let reported: ReturnType<typeof decodeStatusExtension>;
    try {
      reported = decodeStatusExtension(answer.data);
    } catch (err) {
      console.warn("[network-setup] unreadable status extension", err);
      return null;
    }
    this.update({ moduleState: reported.state as BluetoothSetupState });
    if (reported.failure !== 0) throw fail(reported.failure as BleSetupFailure, "module");
    if (reported.state === BluetoothSetupState.ServerConnected && reported.pairingCode) {
      await this.provStop();
      return reported.pairingCode;
    }
    return null;
  }

  /**
   * A module without the status extension is on the network: provisioning stops and the cloud says when it
   * activated with the run's setup ticket (its pairing code). Without a ticket the module took, no outcome can be
   * learnt: "connection timed out".
   */
  private async fromCloud(): Promise<string> {
    const tickets = this.options.setupTicket;
    if (!tickets || !this.ticket || !this.ticketTaken) {
      throw fail(CONNECTION_TIMED_OUT, "protocol", "the module reports no outcome and took no setup ticket");
    }
    await this.provStop();
    try {
      const { pairingCode } = await tickets.wait(this.ticket, {
        signal: this.stop.signal,
        timeoutMs: Math.max(0, this.state.startedAt + this.limits.overallMs - this.clock.now()),
      });
      this.update({ moduleState: BluetoothSetupState.ServerConnected });
      return pairingCode;
    } catch (err) {
      if (this.stop.signal.aborted) throw new FlowStopped(this.stop.signal.reason);
      throw fail(CONNECTION_TIMED_OUT, "deadline", err instanceof Error ? err.message : null);
    }
  }

  /** Tells the module to stop provisioning (it drops the link); best effort, the pairing code is already known. */
  private async provStop(): Promise<void> {
    try {
      await this.command(BlsyncCommand.ProvStop, "PROV_STOP");
    } catch (err) {
      if (err instanceof FlowStopped) throw err;
    }
  }
}

/**
 * The progress percent of a Bluetooth run at `now` (spec §9: one decimal): opening the link 0–10, sending the Wi-Fi
 * 10–20, then by module state (0/1 → 20–30, 2 connecting to Wi-Fi → 30–55, 3 Wi-Fi connected → 55–80, 4 server
 * connected → 85), binding 85–98, added 100; each part creeps with time. An ended run keeps its last percent.
 */
export function bleProgressPercent(s: BleSetupSnapshot, now: number): number {
  if (s.status === "succeeded") return 100;
  if (s.status !== "running" && s.endedPercent !== null) return s.endedPercent;
  const t = now - s.since;
  let value: number;
  switch (s.phase) {
    case "connect":
      value = creep(0, 10, t, 3000);
      break;
    case "configure":
      value = creep(10, 20, t, 2000);
      break;
    case "poll":
      if (s.moduleState === BluetoothSetupState.ServerConnected) value = 85;
      else if (s.moduleState === BluetoothSetupState.WifiConnected) value = creep(55, 80, t, 6000);
      else if (s.moduleState === BluetoothSetupState.ConnectingToWifi) value = creep(30, 55, t, 8000);
      else value = creep(20, 30, t, 3000);
      break;
    case "bind":
      value = creep(85, 98, t, 2000);
      break;
    default:
      value = 100;
  }
  return roundPercent(value);
}
