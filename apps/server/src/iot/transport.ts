import { randomUUID } from "node:crypto";
import {
  allDevicesTopic,
  deviceTopic,
  type MqttChannel,
  parseDeviceTopic,
  type TMqttCommand,
} from "@aquapilot/contract";
import mqtt, { type MqttClient } from "mqtt";
import type { IotLogger } from "./logger.ts";

/** Channels the gateway subscribes to for every device. */
const INBOUND: MqttChannel[] = ["status", "state", "telemetry", "event", "ack"];

/** Where and as whom the gateway connects to the broker. */
export interface TransportOptions {
  /** Broker URL, e.g. mqtt://127.0.0.1:1883 (credentials in the URL are used when username is not given). */
  url: string;
  username?: string;
  password?: string;
  logger: IotLogger;
  /** MQTT client id; default `gateway-<random>` so several server processes can each run one. */
  clientId?: string;
}

/** One message a device published on an inbound channel (its topic already parsed). */
export interface InboundMessage {
  topic: string;
  mac: string;
  channel: MqttChannel;
  payload: Buffer;
  /** True for a retained message the broker replays on subscribe. */
  retained: boolean;
}

/**
 * The gateway's MQTT side (docs/device-protocol.md §2, §3): one client of the broker that subscribes (QoS 1) to the
 * inbound channels of every device and publishes commands to a device's `cmd` topic. It parses topics and passes
 * device messages on; what they mean is the records' job (records.ts).
 */
export class MqttTransport {
  private readonly client: MqttClient;
  private readonly logger: IotLogger;
  private readonly url: string;

  private constructor(client: MqttClient, logger: IotLogger, url: string) {
    this.client = client;
    this.logger = logger;
    this.url = url;
  }

  /**
   * Connects to the broker (clean session, keep-alive 30 s, reconnecting every second); errors and reconnects are
   * logged. Subscribes to nothing yet: set {@link onMessage} first, then {@link subscribe}.
   * @throws when the broker cannot be reached or refuses the credentials.
   */
  static async connect(options: TransportOptions): Promise<MqttTransport> {
    const url = new URL(options.url);
    const username = options.username ?? (url.username ? decodeURIComponent(url.username) : undefined);
    const password = options.password ?? (url.password ? decodeURIComponent(url.password) : undefined);
    url.username = "";
    url.password = "";
    const client = await mqtt.connectAsync(url.toString(), {
      clientId: options.clientId ?? `gateway-${randomUUID().slice(0, 12)}`,
      username,
      password,
      clean: true,
      keepalive: 30,
      reconnectPeriod: 1000,
      connectTimeout: 10_000,
    });
    client.on("error", (err) => options.logger.warn({ err: err.message }, "gateway mqtt error"));
    client.on("reconnect", () => options.logger.info({}, "gateway reconnecting to the broker"));
    return new MqttTransport(client, options.logger, url.toString());
  }

  /** Passes every device message on an inbound channel to `handler` (other topics and `cmd` are ignored). */
  onMessage(handler: (message: InboundMessage) => void): void {
    this.client.on("message", (topic, payload, packet) => {
      const parsed = parseDeviceTopic(topic);
      if (!parsed || parsed.channel === "cmd") return;
      handler({ topic, mac: parsed.mac, channel: parsed.channel, payload, retained: packet.retain });
    });
  }

  /**
   * Subscribes (QoS 1) to status, state, telemetry, event and ack of every device.
   * @throws when the broker refuses the subscription.
   */
  async subscribe(): Promise<void> {
    await this.client.subscribeAsync(
      INBOUND.map((c) => allDevicesTopic(c)),
      { qos: 1 },
    );
    this.logger.info({ url: this.url }, "device gateway connected");
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

  /** Disconnects from the broker; never throws. */
  async end(): Promise<void> {
    await this.client.endAsync().catch(() => undefined);
  }
}

/**
 * Runs each device's messages one after another, in arrival order, while different devices run side by side. A
 * failed task is reported to its `onError` and does not stop the device's next one.
 */
export class PerDeviceQueue {
  private readonly chains = new Map<string, Promise<void>>();

  /** Queues `task` behind the device's earlier ones. */
  run(mac: string, task: () => Promise<void>, onError: (err: Error) => void): void {
    const previous = this.chains.get(mac) ?? Promise.resolve();
    const next = previous
      .then(task)
      .catch(onError)
      .finally(() => {
        if (this.chains.get(mac) === next) this.chains.delete(mac);
      });
    this.chains.set(mac, next);
  }

  /** Resolves when every task queued so far has finished. */
  async idle(): Promise<void> {
    while (this.chains.size > 0) await Promise.all([...this.chains.values()]);
  }
}
