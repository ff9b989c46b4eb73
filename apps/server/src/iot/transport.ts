import { randomUUID } from "node:crypto";
import type { ConnectionOptions } from "node:tls";
import {
  allDevicesTopic,
  deviceChannelsTopic,
  deviceTopic,
  type MqttChannel,
  parseDeviceTopic,
  type ReconnectBackoff,
  type TMqttCommand,
  type TMqttReceipt,
} from "@aquapilot/contract";
import mqtt, { type IClientOptions, type IPublishPacket, type MqttClient } from "mqtt";
import { followBackoff } from "./backoff.ts";
import type { IotLogger } from "./logger.ts";

/** Channels the gateway subscribes to for every device. */
const INBOUND: MqttChannel[] = ["status", "state", "telemetry", "event", "ack"];

/**
 * How the gateway subscribes on an external broker (MQTT_SUBSCRIPTIONS):
 * - `assigned` (default): plain persistent subscriptions to the devices this gateway owns among the live gateways
 *   (assignment.ts), so N processes split the devices and a broker that keeps plain subscriptions across its restart
 *   (Mosquitto 2.0) drops no report;
 * - `shared`: the shared group `$share/gateways/…`, for a broker that keeps shared subscriptions in its sessions (EMQX);
 * - `plain`: plain wildcard subscriptions to every device (one server process only).
 */
export type GatewaySubscriptions = "assigned" | "shared" | "plain";

/** Device filters per SUBSCRIBE or UNSUBSCRIBE packet: about 12 KB, under the broker's 16 KB packet limit. */
const FILTERS_PER_PACKET = 400;

/** Shared-subscription group of every server process's gateway (`$share/gateways/…`). */
export const GATEWAY_SHARE_GROUP = "gateways";

/**
 * How long an external broker keeps a gateway's session (its subscriptions and the QoS 1 messages queued for it)
 * after the gateway disconnects, s: one day, so a gateway restarted within that loses nothing.
 */
export const GATEWAY_SESSION_EXPIRY_SECONDS = 86_400;

/**
 * Reconnection of the gateway to an external broker: 200 ms doubling to 5 s, jittered — quicker than a device's
 * (1 s doubling to 30 s), so after a broker restart the gateways are usually subscribed again before devices report.
 */
const GATEWAY_BACKOFF: ReconnectBackoff = { initialMs: 200, maxMs: 5000, factor: 2 };

/**
 * Subscription identifier (MQTT 5) of the catch-up subscription: after subscribing through the shared group the
 * gateway also subscribes, for {@link CATCH_UP_MS}, to the plain `status` and `state` filters, whose retained
 * messages a shared subscription never gets (MQTT 5 §4.8.2) — so a device that came online while no gateway was
 * subscribed (a broker restart, the first start) is not left offline. Copies of live messages through it are dropped.
 */
const CATCH_UP_SUBSCRIPTION_ID = 7;
/** How long the catch-up subscription stays, ms (retained messages follow its SUBACK at once). */
const CATCH_UP_MS = 2000;

/**
 * Receive Maximum (MQTT 5) the gateway asks an external broker for: how many QoS 1 messages may wait for its PUBACK
 * at once, i.e. how many can share one telemetry batch (Mosquitto also caps it by its `max_inflight_messages`).
 */
export const GATEWAY_RECEIVE_MAXIMUM = 1000;

/** How long start-up waits for a first connection to an external broker before going on without it, ms. */
const EXTERNAL_FIRST_CONNECT_WAIT_MS = 5000;

/** Where and as whom the gateway connects to the broker. */
export interface TransportOptions {
  /** Broker URL, e.g. mqtt://127.0.0.1:1883 (credentials in the URL are used when username is not given). */
  url: string;
  username?: string;
  password?: string;
  logger: IotLogger;
  /**
   * MQTT client id. With an external broker it names the gateway's persistent session, so it must be stable across
   * restarts of one process and differ between processes (GATEWAY_CLIENT_ID; system.ts derives one from host and
   * port); default `gateway-<random>`.
   */
  clientId?: string;
  /**
   * An external broker (MQTT_URL): MQTT 5 with a persistent session (clean start off, session expiry
   * {@link GATEWAY_SESSION_EXPIRY_SECONDS}), subscriptions as {@link subscriptions} says (N processes split the
   * devices), and reconnection with jittered backoff; start-up does not wait for the broker. Otherwise (the embedded
   * Aedes broker, which hands device messages over in-process) MQTT 3.1.1 and a clean session.
   */
  external?: boolean;
  /** How the gateway subscribes on an external broker ({@link GatewaySubscriptions}; default `assigned`). */
  subscriptions?: GatewaySubscriptions;
  /**
   * TLS options of an `mqtts://` `url` (Node `tls.connect`): the CA to trust (`ca`), or an identity check
   * (`checkServerIdentity`). Absent: the system's CAs and the URL's host name.
   */
  tls?: { ca?: string; checkServerIdentity?: ConnectionOptions["checkServerIdentity"] };
}

/** A QoS 1 message of an external broker waiting for its PUBACK. */
interface PendingAck {
  messageId: number;
  outcome: "pending" | "stored" | "failed";
}

/** What mqtt.js's packet pump is given instead of sending a PUBACK itself (see the transport's `handleMessage`). */
const DEFERRED_ACK = new Error("PUBACK deferred until stored");

/** The one internal of mqtt.js the transport uses: sending a packet (a PUBACK) on the current connection. */
interface MqttClientInternals {
  _sendPacket(packet: { cmd: "puback"; messageId: number; reasonCode: number }): void;
}

/** One message a device published on an inbound channel (its topic already parsed). */
export interface InboundMessage {
  topic: string;
  mac: string;
  channel: MqttChannel;
  payload: Buffer;
  /** True for a retained message the broker replays on subscribe. */
  retained: boolean;
  /**
   * The MQTT DUP flag: the sender delivers it again because a delivery before was never acknowledged (MQTT 3.1.1
   * §3.3.1.1, MQTT 5 §3.3.1.1) — the broker after the gateway's reconnection, or the device after its own.
   */
  redelivered: boolean;
}

/**
 * The gateway's MQTT side (docs/device-protocol.md §2, §3): one client of the broker that subscribes (QoS 1) to the
 * inbound channels of every device and publishes commands to a device's `cmd` topic and receipts to its `receipt`
 * topic. It parses topics and passes
 * device messages on; what they mean is the records' job (records.ts).
 *
 * On an external broker a device message is acknowledged after handling: its PUBACK is sent once the
 * handler's promise has resolved — the message recorded (telemetry: its batch committed) or refused by the checks —
 * and in arrival order, so a message the broker counts as delivered is durable, and a gateway that dies first gets it
 * again from its session; the records are idempotent, so nothing is written twice. Messages are not handled one at a
 * time: the next is read while earlier ones wait for their batch (the broker's in-flight window, at most
 * {@link GATEWAY_RECEIVE_MAXIMUM}, bounds them). A message whose handling failed is not acknowledged: the connection is
 * dropped and the session redelivers it. On the embedded broker this client receives no device messages: the broker
 * hands them over in-process and sends the device's PUBACK once they are recorded (broker.ts `ingest`).
 */
export class MqttTransport {
  private readonly client: MqttClient;
  private readonly logger: IotLogger;
  private readonly url: string;
  private readonly external: boolean;
  private readonly mode: GatewaySubscriptions;
  /** The id the broker knows this gateway's session by. */
  readonly clientId: string;
  /** `assigned`: devices whose subscriptions this gateway wants (assignment.ts). */
  private readonly assignedMacs = new Set<string>();
  /** `assigned`: devices released while disconnected, whose subscriptions the session may still hold. */
  private readonly releasedMacs = new Set<string>();
  private readonly handled = new WeakMap<IPublishPacket, Promise<unknown>>();
  /** QoS 1 messages of the current connection not yet acknowledged, in arrival order (external broker). */
  private readonly acks: PendingAck[] = [];
  private handler: ((message: InboundMessage) => Promise<unknown> | undefined) | null = null;
  private readonly early: Array<{ message: InboundMessage; settle: () => void }> = [];
  private subscribing: Promise<void> | null = null;
  private wantSubscriptions = false;

  private constructor(
    client: MqttClient,
    logger: IotLogger,
    url: string,
    external: boolean,
    mode: GatewaySubscriptions,
    clientId: string,
  ) {
    this.client = client;
    this.logger = logger;
    this.url = url;
    this.external = external;
    this.mode = mode;
    this.clientId = clientId;
    client.on("message", (topic, payload, packet) => this.receive(topic, payload, packet));
    // Only an external broker outlives this process and sends its messages over MQTT: the embedded one hands device
    // messages over in-process before it acknowledges them (broker.ts `ingest`), so this client gets none there.
    if (!external) return;
    client.on("close", () => {
      // PUBACKs belong to the connection: whatever was not acknowledged comes again from the session.
      this.acks.splice(0);
    });
    client.handleMessage = (packet, callback) => {
      const done = this.handled.get(packet);
      this.handled.delete(packet);
      if (!done) return callback();
      if (packet.qos !== 1 || packet.messageId === undefined) {
        done.then(
          () => callback(),
          () => callback(),
        );
        return;
      }
      const ack: PendingAck = { messageId: packet.messageId, outcome: "pending" };
      this.acks.push(ack);
      done.then(
        () => this.settleAck(ack, "stored"),
        () => this.settleAck(ack, "failed"),
      );
      // mqtt.js would send the PUBACK from this callback and read no further packet until then; an error skips its
      // PUBACK (the callback passes it to the packet pump, which ignores it) and lets the next message in at once, so
      // messages are recorded side by side (in batches) and acknowledged by settleAck once stored.
      callback(DEFERRED_ACK);
    };
  }

  /**
   * Records a message's outcome and sends the PUBACKs that may leave now: in the order the messages arrived (MQTT 5
   * §4.6), each only once its message is stored. A failed message is never acknowledged: the connection is dropped,
   * so the broker delivers it, and every later unacknowledged one, again from the persistent session (the records
   * are idempotent).
   */
  private settleAck(ack: PendingAck, outcome: "stored" | "failed"): void {
    ack.outcome = outcome;
    while (this.acks.length > 0 && this.acks[0].outcome !== "pending") {
      const head = this.acks[0];
      if (head.outcome === "failed") {
        this.acks.splice(0);
        this.logger.warn(
          { messageId: head.messageId },
          "gateway: a message was not stored; reconnecting for a redelivery",
        );
        this.client.stream?.destroy();
        return;
      }
      this.acks.shift();
      (this.client as unknown as MqttClientInternals)._sendPacket({
        cmd: "puback",
        messageId: head.messageId,
        reasonCode: 0,
      });
    }
  }

  /**
   * Connects to the broker (keep-alive 30 s). Embedded broker: clean session, reconnecting every second; resolves on
   * CONNACK. External broker ({@link TransportOptions.external}): persistent MQTT 5 session and jittered backoff;
   * resolves on CONNACK or after 5 s without one (the client keeps trying; errors are logged, never the password).
   * Subscribes to nothing yet: set {@link onMessage} first, then {@link subscribe}.
   * @throws (embedded broker only) when the broker cannot be reached or refuses the credentials.
   */
  static async connect(options: TransportOptions): Promise<MqttTransport> {
    const url = new URL(options.url);
    const username = options.username ?? (url.username ? decodeURIComponent(url.username) : undefined);
    const password = options.password ?? (url.password ? decodeURIComponent(url.password) : undefined);
    url.username = "";
    url.password = "";
    const external = options.external === true;
    const clientId = options.clientId ?? `gateway-${randomUUID().slice(0, 12)}`;
    const common: IClientOptions = {
      clientId,
      username,
      password,
      keepalive: 30,
      connectTimeout: 10_000,
      resubscribe: false,
      ...options.tls,
    };
    if (!external) {
      const client = await mqtt.connectAsync(url.toString(), { ...common, clean: true, reconnectPeriod: 1000 });
      const transport = new MqttTransport(client, options.logger, url.toString(), false, "plain", clientId);
      transport.watch(options.logger);
      return transport;
    }
    const client = mqtt.connect(url.toString(), {
      ...common,
      protocolVersion: 5,
      clean: false,
      // Refused (the broker's auth plugin not ready, an account being changed): retried like a lost connection.
      reconnectOnConnackError: true,
      properties: { sessionExpiryInterval: GATEWAY_SESSION_EXPIRY_SECONDS, receiveMaximum: GATEWAY_RECEIVE_MAXIMUM },
    });
    followBackoff(client, GATEWAY_BACKOFF);
    const transport = new MqttTransport(
      client,
      options.logger,
      url.toString(),
      true,
      options.subscriptions ?? "assigned",
      clientId,
    );
    transport.watch(options.logger);
    const first = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), EXTERNAL_FIRST_CONNECT_WAIT_MS);
      client.once("connect", () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    if (!first) {
      options.logger.warn(
        { url: url.toString() },
        "gateway: the broker is not reachable yet; starting without it and retrying with backoff",
      );
    }
    return transport;
  }

  /**
   * Logs errors and reconnects; after each CONNACK subscribes again — also when the broker says it kept the session:
   * Mosquitto 2.0 restores a persistent session after its restart without its shared subscriptions, and a broker that
   * crashed may have lost the newest plain ones.
   */
  private watch(logger: IotLogger): void {
    this.client.on("error", (err) => logger.warn({ err: err.message }, "gateway mqtt error"));
    this.client.on("reconnect", () => logger.info({}, "gateway reconnecting to the broker"));
    this.client.on("connect", () => {
      if (!this.wantSubscriptions) return;
      this.subscribing = this.subscribeNow().catch((err: Error) => {
        logger.error({ err: err.message }, "gateway subscription refused");
      });
    });
  }

  /**
   * Passes every device message on an inbound channel to `handler` (other topics, `cmd` and `receipt` are ignored). The
   * message is acknowledged to the broker once the promise `handler` returns has settled.
   */
  onMessage(handler: (message: InboundMessage) => Promise<unknown> | undefined): void {
    this.handler = handler;
    const early = this.early.splice(0);
    for (const { message, settle } of early) {
      const done = handler(message);
      if (done) done.then(settle, settle);
      else settle();
    }
  }

  /**
   * The client's message listener, attached before the first CONNACK: a persistent session's queued messages arrive
   * right after it, before {@link onMessage} can be called, so they wait (unacknowledged) for the handler.
   */
  private receive(topic: string, payload: Buffer, packet: IPublishPacket): void {
    const parsed = parseDeviceTopic(topic);
    // cmd and receipt are the cloud's own messages to devices.
    if (!parsed || parsed.channel === "cmd" || parsed.channel === "receipt") return;
    const ids = packet.properties?.subscriptionIdentifier;
    const viaCatchUp = Array.isArray(ids) ? ids.includes(CATCH_UP_SUBSCRIPTION_ID) : ids === CATCH_UP_SUBSCRIPTION_ID;
    if (viaCatchUp && !packet.retain) return; // the shared subscription brings the live copy
    const message = {
      topic,
      mac: parsed.mac,
      channel: parsed.channel,
      payload,
      retained: packet.retain,
      redelivered: packet.dup,
    };
    if (!this.handler) {
      const waited = new Promise<void>((settle) => this.early.push({ message, settle }));
      if (this.external) this.handled.set(packet, waited);
      return;
    }
    const done = this.handler(message);
    if (done && this.external) this.handled.set(packet, done);
  }

  /**
   * Subscribes (QoS 1) to status, state, telemetry, event and ack of every device — through the shared group
   * `$share/gateways/…` (`shared`), or with plain wildcards (`plain`) — now if connected, and again after every
   * CONNACK. `assigned`: no wildcard; the devices come through {@link subscribeDevices}, and every CONNACK subscribes
   * them again.
   * @throws when the broker refuses the subscription (embedded broker; an external one is only logged).
   */
  async subscribe(): Promise<void> {
    this.wantSubscriptions = true;
    if (!this.client.connected) return;
    if (this.external) {
      this.subscribing ??= this.subscribeNow().catch((err: Error) => {
        this.logger.error({ err: err.message }, "gateway subscription refused");
      });
      await this.subscribing;
      return;
    }
    await this.subscribeNow();
  }

  /**
   * `assigned` mode (assignment.ts): subscribes (QoS 1, no local, retained messages only for a new subscription) to
   * every channel of each MAC (`aq/v1/devices/{mac}/+`) in packets of {@link FILTERS_PER_PACKET}. Kept across
   * reconnections: every CONNACK subscribes them again (a broker that crashed may have lost them). Resolves once
   * granted, or at once when disconnected.
   * @throws when the broker refuses a filter or the connection is lost meanwhile (the next CONNACK subscribes again).
   */
  async subscribeDevices(macs: readonly string[]): Promise<void> {
    for (const mac of macs) {
      this.assignedMacs.add(mac);
      this.releasedMacs.delete(mac);
    }
    if (!this.client.connected) return;
    await this.subscribeFilters(macs);
  }

  /**
   * `assigned` mode: removes the subscriptions of each MAC. Resolves once the broker confirmed, or at once when
   * disconnected (the next CONNACK removes them from the session).
   * @throws when the connection is lost meanwhile (the next CONNACK removes them).
   */
  async unsubscribeDevices(macs: readonly string[]): Promise<void> {
    for (const mac of macs) {
      this.assignedMacs.delete(mac);
      this.releasedMacs.add(mac);
    }
    if (!this.client.connected) return;
    await this.unsubscribeFilters(macs);
  }

  private async subscribeFilters(macs: readonly string[]): Promise<void> {
    for (let i = 0; i < macs.length; i += FILTERS_PER_PACKET) {
      const topics = macs.slice(i, i + FILTERS_PER_PACKET).map(deviceChannelsTopic);
      const grants = await this.client.subscribeAsync(topics, { qos: 1, nl: true, rh: 1 });
      const refused = grants.filter((g) => g.qos >= 128);
      if (refused.length > 0) throw new Error(`broker refused ${refused.map((g) => g.topic).join(", ")}`);
    }
  }

  private async unsubscribeFilters(macs: readonly string[]): Promise<void> {
    for (let i = 0; i < macs.length; i += FILTERS_PER_PACKET) {
      const batch = macs.slice(i, i + FILTERS_PER_PACKET);
      await this.client.unsubscribeAsync(batch.map(deviceChannelsTopic));
      for (const mac of batch) if (!this.assignedMacs.has(mac)) this.releasedMacs.delete(mac);
    }
  }

  private async subscribeNow(): Promise<void> {
    if (this.mode === "assigned") {
      await this.unsubscribeFilters([...this.releasedMacs]);
      await this.subscribeFilters([...this.assignedMacs]);
      this.logger.info({ url: this.url, devices: this.assignedMacs.size }, "device gateway subscribed");
      return;
    }
    const shared = this.mode === "shared" && this.external;
    const topics = INBOUND.map((c) =>
      shared ? `$share/${GATEWAY_SHARE_GROUP}/${allDevicesTopic(c)}` : allDevicesTopic(c),
    );
    const grants = await this.client.subscribeAsync(topics, { qos: 1 });
    const refused = grants.filter((g) => g.qos >= 128);
    if (refused.length > 0) throw new Error(`broker refused ${refused.map((g) => g.topic).join(", ")}`);
    this.logger.info({ url: this.url, subscriptions: this.mode }, "device gateway subscribed");
    if (shared) await this.catchUpRetained();
  }

  /** The catch-up of {@link CATCH_UP_SUBSCRIPTION_ID}: plain status and state for a moment, for their retained messages. */
  private async catchUpRetained(): Promise<void> {
    const filters = [allDevicesTopic("status"), allDevicesTopic("state")];
    try {
      await this.client.subscribeAsync(filters, {
        qos: 1,
        properties: { subscriptionIdentifier: CATCH_UP_SUBSCRIPTION_ID },
      });
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, "gateway: retained status and state not read");
      return;
    }
    const timer = setTimeout(() => {
      if (this.client.connected) this.client.unsubscribeAsync(filters).catch(() => undefined);
    }, CATCH_UP_MS);
    timer.unref();
  }

  /** True while connected to the broker. */
  get connected(): boolean {
    return this.client.connected;
  }

  /**
   * Publishes a command to the device's `cmd` topic (QoS 1).
   * @throws when the client cannot publish (disconnected, or the broker refuses).
   */
  async publishCommand(mac: string, command: TMqttCommand): Promise<void> {
    await this.client.publishAsync(deviceTopic(mac, "cmd"), JSON.stringify(command), { qos: 1 });
  }

  /**
   * Publishes a receipt to the device's `receipt` topic (QoS 1, not retained; docs/device-protocol.md §3.6).
   * @throws when the client cannot publish (disconnected, or the broker refuses).
   */
  async publishReceipt(mac: string, receipt: TMqttReceipt): Promise<void> {
    await this.client.publishAsync(deviceTopic(mac, "receipt"), JSON.stringify(receipt), { qos: 1 });
  }

  /**
   * Disconnects from the broker; never throws. `force` drops the connection at once, without waiting for messages in
   * flight (what a crash looks like to the broker; tests).
   */
  async end(force = false): Promise<void> {
    await this.client.endAsync(force).catch(() => undefined);
  }
}
