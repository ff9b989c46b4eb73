import { normaliseMac } from "@aquapilot/contract";
import type { Bus, BusEvent } from "../bus.ts";
import type { IotLogger } from "./logger.ts";

/** How often a gateway says it is alive on the bus, so the others know who shares the devices, ms. */
export const GATEWAY_HEARTBEAT_MS = 1000;
/** A gateway not heard for this long is taken for gone and its devices are shared out again, ms. */
export const GATEWAY_PEER_TIMEOUT_MS = 3500;
/**
 * How long a gateway keeps the subscriptions of a device it no longer owns, ms: the new owner subscribed before it
 * announced itself, so this only covers bus delays and views of the roster that differ for a moment. Meanwhile both
 * gateways get the device's messages; the records are idempotent (records.ts), so nothing is written twice.
 */
export const HANDOVER_GRACE_MS = 2000;
/** How often the device list is read again from the database (devices added by a path that announced nothing), ms. */
export const DEVICE_RESYNC_MS = 30_000;

/**
 * Where the assignment's subscriptions go: the gateway's MQTT transport (transport.ts), which subscribes each device's
 * `aq/v1/devices/{mac}/+` in its persistent session.
 */
export interface DeviceSubscriptions {
  /** Subscribes (QoS 1) to every channel of each MAC; resolves once the broker granted them (or at once when offline). */
  subscribeDevices(macs: readonly string[]): Promise<void>;
  /** Removes those subscriptions; resolves once the broker confirmed (or at once when offline). */
  unsubscribeDevices(macs: readonly string[]): Promise<void>;
}

/** Options of {@link DeviceAssignment.start}. */
export interface DeviceAssignmentOptions {
  /** The bus the gateways of every server process share (Redis with several processes; in-process alone). */
  bus: Bus;
  /** This gateway's id: its MQTT client id, stable across restarts (GATEWAY_CLIENT_ID). */
  selfId: string;
  /** Every provisioned device's MAC (the `devices` table). */
  listDevices: () => Promise<string[]>;
  target: DeviceSubscriptions;
  logger: IotLogger;
  /**
   * How long to listen for other gateways before the first assignment, ms (default 1.5 × the heartbeat; 0 when the
   * bus is in-process, where no other gateway can be heard).
   */
  listenMs?: number;
  heartbeatMs?: number;
  peerTimeoutMs?: number;
  graceMs?: number;
  resyncMs?: number;
  /** Clock, ms (tests). */
  now?: () => number;
}

/**
 * Rendezvous (highest random weight) hashing: the gateway among `gateways` that owns the device `mac` — the one whose
 * hash of `gatewayId/mac` is highest. Every process computes the same owner from the same set of live gateways, and
 * when a gateway joins or leaves only the devices it wins or held move (about 1/N of them).
 * @param mac 12 upper-case hex digits.
 * @param gateways ids of the live gateways (any order); must not be empty.
 * @throws when `gateways` is empty.
 */
export function ownerOf(mac: string, gateways: readonly string[]): string {
  if (gateways.length === 0) throw new Error("ownerOf: no gateway");
  let best = gateways[0];
  let bestWeight = -1;
  for (const id of gateways) {
    const weight = weightOf(id, mac);
    if (weight > bestWeight || (weight === bestWeight && id < best)) {
      best = id;
      bestWeight = weight;
    }
  }
  return best;
}

/** FNV-1a (32 bits) of `id/mac`, mixed by murmur3's finaliser so close ids spread evenly; an unsigned integer. */
function weightOf(id: string, mac: string): number {
  let h = 0x811c9dc5;
  const text = `${id}/${mac}`;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * The share of the devices a gateway subscribes to when several server processes use one external broker
 * (docs/deploy.md). Each gateway holds plain persistent subscriptions to the topics of the devices it
 * owns — which Mosquitto 2.0 restores after its own restart, where it drops shared subscriptions — so a device's
 * message goes to exactly one gateway's session, and a report sent while the gateway is away (its process or the
 * broker restarting) waits in that session instead of being dropped.
 *
 * Who owns a device: {@link ownerOf} over the live gateways. Each gateway says `gateway.alive` on the bus every
 * {@link GATEWAY_HEARTBEAT_MS}, only after its first subscriptions were granted, and `gateway.leaving` when it stops;
 * one not heard for {@link GATEWAY_PEER_TIMEOUT_MS} is gone. A device that moves to another gateway is subscribed by
 * the new owner at once and released by the old one {@link HANDOVER_GRACE_MS} later (both handle its messages in
 * between; the records are idempotent). A gateway that stops keeps its subscriptions (its persistent session queues
 * its devices' messages until it comes back, while the others take them over); when it comes back it releases what
 * it no longer owns.
 *
 * New devices: {@link adopt} (the broker account being created) subscribes to the device in this gateway at once and
 * announces `device.provisioned`, so its owner subscribes too before the device can connect; the device list is also
 * read again every {@link DEVICE_RESYNC_MS}.
 */
export class DeviceAssignment {
  private readonly options: Required<Omit<DeviceAssignmentOptions, "listenMs">> & { listenMs: number };
  /** Other gateways heard, and when (ms). */
  private readonly peers = new Map<string, number>();
  private readonly devices = new Set<string>();
  /** Devices whose subscriptions this gateway holds (asked for or granted). */
  private readonly held = new Set<string>();
  /** Held devices another gateway owns, and since when (ms): released after the grace. */
  private readonly unwanted = new Map<string, number>();
  private readonly unsubscribeBus: () => void;
  private timer: NodeJS.Timeout | null = null;
  private lastResync = 0;
  /** The first device list was read and this gateway's share subscribed: only then does it say it is alive. */
  private resynced = false;
  /** Serialises rebalances, so subscriptions and releases never interleave. */
  private queue: Promise<void> = Promise.resolve();
  private announcing = false;
  /** A rebalance failed (the broker refused, the database was away): the next heartbeat runs one again. */
  private retry = false;
  private closed = false;

  private constructor(options: DeviceAssignmentOptions) {
    this.options = {
      heartbeatMs: GATEWAY_HEARTBEAT_MS,
      peerTimeoutMs: GATEWAY_PEER_TIMEOUT_MS,
      graceMs: HANDOVER_GRACE_MS,
      resyncMs: DEVICE_RESYNC_MS,
      now: Date.now,
      ...options,
      listenMs: options.listenMs ?? Math.round(1.5 * (options.heartbeatMs ?? GATEWAY_HEARTBEAT_MS)),
    };
    this.unsubscribeBus = options.bus.subscribe((event) => this.onBusEvent(event));
  }

  /**
   * Listens for the other gateways for `listenMs`, reads the device list, subscribes to the devices this gateway owns
   * and starts saying it is alive. Resolves once the first subscriptions were granted (or at once when the broker is
   * not connected: the transport subscribes after its CONNACK). Never throws: when the device list cannot be read or
   * the broker refuses, that is logged and tried again at every heartbeat, and the gateway says it is alive only once
   * that succeeded — so the others never release its share to a gateway that does not hold it.
   */
  static async start(options: DeviceAssignmentOptions): Promise<DeviceAssignment> {
    const assignment = new DeviceAssignment(options);
    if (assignment.options.listenMs > 0) await new Promise((r) => setTimeout(r, assignment.options.listenMs));
    await assignment.enqueue(() => assignment.resync());
    assignment.announcing = true;
    assignment.announce();
    assignment.timer = setInterval(() => assignment.tick(), assignment.options.heartbeatMs);
    assignment.timer.unref();
    return assignment;
  }

  /** Ids of the live gateways, this one included, sorted. */
  get gateways(): string[] {
    return [this.options.selfId, ...this.peers.keys()].sort();
  }

  /** True when this gateway owns `mac` under its current view of the live gateways. */
  owns(mac: string): boolean {
    return ownerOf(normaliseMac(mac), this.gateways) === this.options.selfId;
  }

  /** MACs whose subscriptions this gateway holds, sorted (tests, diagnostics). */
  get heldDevices(): string[] {
    return [...this.held].sort();
  }

  /**
   * A device's broker account is being created: subscribes to its topics in this gateway now (so no report it sends
   * can find no subscriber) and announces `device.provisioned`, so its owner subscribes too; this gateway releases it
   * after the grace when another one owns it. Resolves once the subscription was granted.
   */
  async adopt(mac: string): Promise<void> {
    const m = normaliseMac(mac);
    if (this.closed || m.length !== 12) return;
    this.devices.add(m);
    this.options.bus.publish({ type: "device.provisioned", mac: m });
    await this.enqueue(async () => {
      if (!this.held.has(m)) await this.hold([m]);
      if (!this.owns(m) && !this.unwanted.has(m)) this.unwanted.set(m, this.options.now());
    });
  }

  /** Says `gateway.leaving` and stops; the subscriptions stay in the persistent session (see the class). Never throws. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.unsubscribeBus();
    if (this.announcing) this.options.bus.publish({ type: "gateway.leaving", gatewayId: this.options.selfId });
    await this.queue.catch(() => undefined);
  }

  private onBusEvent(event: BusEvent): void {
    if (this.closed) return;
    switch (event.type) {
      case "gateway.alive": {
        if (event.gatewayId === this.options.selfId) return;
        const known = this.peers.has(event.gatewayId);
        this.peers.set(event.gatewayId, this.options.now());
        if (!known && this.announcing) void this.enqueue(() => this.rebalance());
        return;
      }
      case "gateway.leaving":
        if (this.peers.delete(event.gatewayId) && this.announcing) void this.enqueue(() => this.rebalance());
        return;
      case "device.provisioned":
        if (this.devices.has(event.mac) || !this.announcing) return;
        this.devices.add(event.mac);
        void this.enqueue(async () => {
          if (this.owns(event.mac) && !this.held.has(event.mac)) await this.hold([event.mac]);
        });
        return;
    }
  }

  /** Every heartbeat: say alive, forget gateways not heard for the timeout, release what the grace allows, resync. */
  private tick(): void {
    if (this.closed) return;
    this.announce();
    const now = this.options.now();
    let gone = false;
    for (const [id, heard] of this.peers) {
      if (now - heard > this.options.peerTimeoutMs) {
        this.peers.delete(id);
        gone = true;
        this.options.logger.warn({ gatewayId: id }, "gateway: another gateway went silent; taking over its devices");
      }
    }
    const resync = !this.resynced || now - this.lastResync >= this.options.resyncMs;
    if (gone || resync || this.retry || this.unwanted.size > 0) {
      void this.enqueue(() => (resync ? this.resync() : this.rebalance()));
    }
  }

  private announce(): void {
    if (!this.resynced) return;
    this.options.bus.publish({ type: "gateway.alive", gatewayId: this.options.selfId });
  }

  /** Runs `work` after every earlier rebalance; a failure is logged (the next tick tries again), never thrown. */
  private enqueue(work: () => Promise<void>): Promise<void> {
    const next = this.queue.then(work).catch((err: Error) => {
      this.retry = true;
      this.options.logger.error({ err: err.message }, "gateway: device subscriptions not updated; retrying");
    });
    this.queue = next;
    return next;
  }

  private async resync(): Promise<void> {
    const listed = await this.options.listDevices();
    this.lastResync = this.options.now();
    for (const mac of listed) this.devices.add(normaliseMac(mac));
    if (!this.resynced) {
      // A restarted gateway's persistent session may still hold devices that others own now: release them too.
      const gateways = this.gateways;
      for (const mac of this.devices) {
        if (ownerOf(mac, gateways) !== this.options.selfId) this.held.add(mac); // released by the rebalance below
      }
    }
    await this.rebalance();
    if (!this.resynced) {
      this.resynced = true;
      if (this.announcing) this.announce(); // a first read that had failed at start
    }
  }

  /**
   * Subscribes to every device this gateway owns and does not hold yet; marks held devices another gateway owns and
   * releases those marked for longer than the grace (still not owned).
   */
  private async rebalance(): Promise<void> {
    this.retry = false;
    const gateways = this.gateways;
    const self = this.options.selfId;
    const now = this.options.now();
    const gained: string[] = [];
    for (const mac of this.devices) {
      const mine = ownerOf(mac, gateways) === self;
      if (mine) {
        this.unwanted.delete(mac);
        if (!this.held.has(mac)) gained.push(mac);
      } else if (this.held.has(mac) && !this.unwanted.has(mac)) {
        this.unwanted.set(mac, now);
      }
    }
    if (gained.length > 0) await this.hold(gained);
    const released = [...this.unwanted].filter(([, since]) => now - since >= this.options.graceMs).map(([mac]) => mac);
    if (released.length > 0) {
      await this.options.target.unsubscribeDevices(released);
      for (const mac of released) {
        this.held.delete(mac);
        this.unwanted.delete(mac);
      }
    }
    if (gained.length > 0 || released.length > 0) {
      this.options.logger.info(
        { gateways: gateways.length, held: this.held.size, gained: gained.length, released: released.length },
        "gateway: device subscriptions updated",
      );
    }
  }

  private async hold(macs: string[]): Promise<void> {
    await this.options.target.subscribeDevices(macs);
    for (const mac of macs) this.held.add(mac);
  }
}
