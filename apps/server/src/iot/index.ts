import { loadOrCreateSecret } from "../auth/secrets.ts";
import type { Bus } from "../bus.ts";
import type { Db } from "../db/index.ts";
import type { DeviceCommandPort } from "../ports.ts";
import {
  createDeviceAuthorizer,
  type EmbeddedBroker,
  type EmbeddedBrokerOptions,
  GATEWAY_USERNAME,
  startEmbeddedBroker,
} from "./broker.ts";
import { type BrokerAccounts, DynsecAccounts, noBrokerAccounts } from "./dynsec.ts";
import { DeviceGateway, type GatewayOptions } from "./gateway.ts";
import type { IotLogger } from "./logger.ts";
import type { TelemetryHook } from "./records.ts";
import type { GatewaySubscriptions } from "./transport.ts";

export {
  createDeviceAuthorizer,
  type EmbeddedBroker,
  type EmbeddedBrokerStats,
  GATEWAY_USERNAME,
  startEmbeddedBroker,
} from "./broker.ts";
export { GATEWAY_REJECT_REASONS, type GatewayCorrections, type GatewayRejectReason } from "./checks.ts";
export {
  type BrokerAccounts,
  DYNSEC_RESPONSE_TOPIC,
  DYNSEC_TOPIC,
  DynsecAccounts,
  deviceAcls,
  deviceRoleName,
  noBrokerAccounts,
} from "./dynsec.ts";
export { DEFAULT_ACK_TIMEOUT_MS, DeviceGateway } from "./gateway.ts";
export { type IotLogger, silentLogger } from "./logger.ts";
export { DEFAULT_LOGIN_LIMITS, type LoginLimits } from "./login-limiter.ts";
export type { TelemetryHook } from "./records.ts";
export { GATEWAY_SESSION_EXPIRY_SECONDS, GATEWAY_SHARE_GROUP, type GatewaySubscriptions } from "./transport.ts";

/** File in DATA_DIR holding the embedded broker's gateway password (mode 0600, created on first start). */
export const GATEWAY_SECRET_FILE = "mqtt-gateway.secret";

/** The running device link: the command port the REST side uses, plus where devices connect. */
export interface DeviceLink extends DeviceCommandPort {
  /** What devices (and the simulator) connect to, without credentials, e.g. mqtt://127.0.0.1:1883. */
  brokerUrl: string;
  /** The gateway (for tests and diagnostics). */
  gateway: DeviceGateway;
  /** The embedded broker (its refusal counts), or null with an external broker. */
  broker: EmbeddedBroker | null;
  /**
   * Device accounts in the broker: Mosquitto's dynamic-security plugin with
   * `brokerKind: "mosquitto-dynsec"`, else nothing to do (the embedded broker reads the database). Its `provision`
   * first has the gateways subscribe to the device's topics (`assigned` subscriptions).
   */
  accounts: BrokerAccounts;
  /** The dynamic-security client itself with `brokerKind: "mosquitto-dynsec"` (reading accounts back; tests), else null. */
  dynsec: DynsecAccounts | null;
  /** Stops the account provisioning, the gateway, then the embedded broker (if any). */
  close(): Promise<void>;
}

/** What kind of external broker MQTT_URL names (MQTT_BROKER_KIND): accounts kept by hand, or by the server. */
export type BrokerKind = "plain" | "mosquitto-dynsec";

/** Options of {@link startDeviceLink}. */
export interface DeviceLinkOptions {
  db: Db;
  bus: Bus;
  /** DATA_DIR: the gateway password of the embedded broker is kept there. */
  dataDir: string;
  /** External broker (MQTT_URL, credentials in the URL); when absent the embedded broker is started. */
  mqttUrl?: string;
  /**
   * MQTT_BROKER_KIND (default "plain": the operator keeps the device accounts); "mosquitto-dynsec": the server writes
   * each device's account and ACL through Mosquitto's dynamic-security control API. Only with `mqttUrl`.
   */
  brokerKind?: BrokerKind;
  /**
   * Client id of the gateway on an external broker (GATEWAY_CLIENT_ID): names its persistent session, so stable for a
   * process across restarts and different for every process. Default `gateway-<random>`.
   */
  gatewayClientId?: string;
  /**
   * How the gateway subscribes on an external broker (MQTT_SUBSCRIPTIONS; transport.ts {@link GatewaySubscriptions}):
   * `assigned` (default) splits the devices among the live gateways with plain persistent subscriptions, which
   * Mosquitto 2.0 restores after its own restart; `shared` uses `$share/gateways/…`; `plain` takes every device (one
   * process only).
   */
  subscriptions?: GatewaySubscriptions;
  /** Timings of the `assigned` subscriptions other than assignment.ts's defaults (tests). */
  assignmentTimings?: GatewayOptions["assignmentTimings"];
  /** Interface of the embedded broker (default 127.0.0.1). */
  mqttHost?: string;
  /** Port of the embedded broker (MQTT_PORT, default 1883; 0 = a free one). */
  mqttPort?: number;
  /** Gateway password; default: generated once and kept in DATA_DIR/mqtt-gateway.secret. */
  gatewayPassword?: string;
  logger: IotLogger;
  /** What keeps telemetry's derived records up to date: the statistics rollups (records.ts {@link TelemetryHook}). */
  onTelemetry: TelemetryHook;
  /** Batch size and wait of telemetry writes (telemetry-batch.ts defaults; tests). */
  telemetryBatch?: GatewayOptions["telemetryBatch"];
  /** Limits of the embedded broker other than the defaults (tests): guessing limits, their clock, packet size. */
  brokerLimits?: Pick<EmbeddedBrokerOptions, "loginLimits" | "now" | "maxPacketBytes">;
  /** Period of the gateway's quiet-device sweep, ms (gateway.ts default; 0 turns it off: tests run it by hand). */
  quietSweepMs?: number;
}

/**
 * Starts the device link (docs/device-protocol.md): the embedded Aedes broker unless `mqttUrl` is given, then the
 * gateway that records device reports and sends commands. With an external broker the gateway uses shared
 * subscriptions and a persistent session and does not wait for the broker (it reconnects with backoff), and with
 * `brokerKind: "mosquitto-dynsec"` a second connection keeps device accounts in the broker ({@link DynsecAccounts},
 * client id `<gatewayClientId>-dynsec`; docs/deploy.md "External MQTT broker (Mosquitto)").
 * @throws when the embedded broker's port cannot be bound or the gateway cannot connect to it (nothing is left
 * running then); never for an external broker that is down.
 */
export async function startDeviceLink(options: DeviceLinkOptions): Promise<DeviceLink> {
  let broker: EmbeddedBroker | null = null;
  let gateway: DeviceGateway | null = null;
  let url: string;
  let brokerUrl: string;
  let username: string | undefined;
  let password: string | undefined;
  if (options.mqttUrl) {
    url = options.mqttUrl;
    const u = new URL(options.mqttUrl);
    u.username = "";
    u.password = "";
    brokerUrl = u.toString().replace(/\/$/, "");
  } else {
    password =
      options.gatewayPassword ??
      Buffer.from(loadOrCreateSecret(options.dataDir, GATEWAY_SECRET_FILE)).toString("base64url");
    username = GATEWAY_USERNAME;
    const host = options.mqttHost ?? "127.0.0.1";
    broker = await startEmbeddedBroker({
      host,
      // Device messages go to the gateway in-process, and the device's PUBACK waits until they are recorded.
      ingest: (message) => (gateway ? gateway.ingest(message) : Promise.reject(new Error("gateway not started"))),
      port: options.mqttPort ?? 1883,
      authorize: createDeviceAuthorizer(options.db),
      gatewayPassword: password,
      logger: options.logger,
      ...options.brokerLimits,
    });
    const reachable = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host;
    brokerUrl = `mqtt://${reachable.includes(":") ? `[${reachable}]` : reachable}:${broker.port}`;
    url = brokerUrl;
  }
  const external = Boolean(options.mqttUrl);
  const clientId = options.gatewayClientId;
  const dynsec =
    external && options.brokerKind === "mosquitto-dynsec"
      ? DynsecAccounts.start({
          url,
          clientId: `${clientId ?? "gateway"}-dynsec`,
          logger: options.logger,
        })
      : null;
  const accounts: BrokerAccounts = dynsec ?? noBrokerAccounts;
  let connected: DeviceGateway;
  try {
    connected = await DeviceGateway.connect({
      db: options.db,
      bus: options.bus,
      url,
      username,
      password,
      clientId,
      external,
      subscriptions: options.subscriptions ?? "assigned",
      assignmentTimings: options.assignmentTimings,
      logger: options.logger,
      onTelemetry: options.onTelemetry,
      telemetryBatch: options.telemetryBatch,
      quietSweepMs: options.quietSweepMs,
    });
  } catch (err) {
    await accounts.close();
    await broker?.close();
    throw err;
  }
  gateway = connected;
  // A new device's account: its owner gateway subscribes to its topics first, so its first reports find a subscriber.
  const adoptingAccounts: BrokerAccounts = {
    async provision(mac, secret) {
      await connected.adoptDevice(mac);
      return accounts.provision(mac, secret);
    },
    get pending() {
      return accounts.pending;
    },
    close: () => accounts.close(),
  };
  return {
    brokerUrl,
    gateway: connected,
    broker,
    accounts: adoptingAccounts,
    dynsec,
    sendCommand: (input) => connected.sendCommand(input),
    sendCommandAndWait: (input) => connected.sendCommandAndWait(input),
    async close() {
      await accounts.close();
      await connected.close();
      await broker?.close();
    },
  };
}
