import { X509Certificate } from "node:crypto";
import fs from "node:fs";
import { loadOrCreateSecret } from "../auth/secrets.ts";
import type { Bus } from "../bus.ts";
import { ConfigError } from "../config.ts";
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
import { type BrokerTls, ensureDevelopmentTls, loadOperatorTls } from "./tls.ts";
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
export {
  type BrokerTls,
  DEV_BROKER_CERT_FILE,
  DEV_BROKER_KEY_FILE,
  DEV_CA_CERT_FILE,
  DEV_CA_KEY_FILE,
  DEV_TLS_DIR,
  ensureDevelopmentTls,
  loadOperatorTls,
} from "./tls.ts";
export { GATEWAY_SESSION_EXPIRY_SECONDS, GATEWAY_SHARE_GROUP, type GatewaySubscriptions } from "./transport.ts";

/** File in DATA_DIR holding the embedded broker's gateway password (mode 0600, created on first start). */
export const GATEWAY_SECRET_FILE = "mqtt-gateway.secret";

/** The running device link: the command port the REST side uses, plus where devices connect. */
export interface DeviceLink extends DeviceCommandPort {
  /**
   * Where a client with its own credentials connects, without credentials: the embedded broker's plain MQTT
   * (mqtt://127.0.0.1:1883) while it serves one, else its TLS address; or MQTT_URL's broker.
   */
  brokerUrl: string;
  /**
   * What devices are told (activation step one unless MQTT_PUBLIC_URL): the embedded broker's TLS address
   * (mqtts://127.0.0.1:8883) while it serves TLS, else {@link brokerUrl}.
   */
  deviceUrl: string;
  /** The CA devices pin to verify {@link deviceUrl}'s certificate (PEM), or null (no TLS, or no CA file given). */
  deviceCa: string | null;
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
  /**
   * Serve plain MQTT on `mqttPort` (MQTT_PLAIN; default true). With `tls` and false, devices connect over TLS only
   * and the gateway does too.
   */
  mqttPlain?: boolean;
  /**
   * MQTT over TLS on the embedded broker (docs/device-protocol.md "Transport security"): `port` (MQTT_TLS_PORT; 0 = a
   * free one), the operator's `files` (MQTT_TLS_CERT, MQTT_TLS_KEY, MQTT_TLS_CA) or, without them, the development
   * CA of DATA_DIR with a broker certificate for localhost, 127.0.0.1, ::1 and `hosts`. With an external broker only
   * `files.ca` is read: the CA the gateway trusts on an `mqtts://` MQTT_URL. Absent: no TLS listener.
   */
  tls?: { port: number; files?: { cert?: string; key?: string; ca?: string }; hosts?: string[] };
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
 * Starts the device link (docs/device-protocol.md): the embedded Aedes broker unless `mqttUrl` is given (plain MQTT
 * unless `mqttPlain` is false, MQTT over TLS with `tls`: the operator's certificate or one from the development CA
 * in DATA_DIR/tls), then the gateway that records device reports and sends commands. With an external broker the gateway uses shared
 * subscriptions and a persistent session and does not wait for the broker (it reconnects with backoff), and with
 * `brokerKind: "mosquitto-dynsec"` a second connection keeps device accounts in the broker ({@link DynsecAccounts},
 * client id `<gatewayClientId>-dynsec`; docs/deploy.md "External MQTT broker (Mosquitto)").
 * @throws ConfigError when a TLS file cannot be read or the key does not match the certificate; when the embedded
 *   broker's port cannot be bound or the gateway cannot connect to it (nothing is left
 * running then); never for an external broker that is down.
 */
export async function startDeviceLink(options: DeviceLinkOptions): Promise<DeviceLink> {
  let broker: EmbeddedBroker | null = null;
  let gateway: DeviceGateway | null = null;
  let url: string;
  let brokerUrl: string;
  let deviceUrl: string;
  let deviceCa: string | null = null;
  let gatewayTls: GatewayOptions["tls"];
  let username: string | undefined;
  let password: string | undefined;
  const files = options.tls?.files;
  if (options.mqttUrl) {
    url = options.mqttUrl;
    const u = new URL(options.mqttUrl);
    u.username = "";
    u.password = "";
    brokerUrl = u.toString().replace(/\/$/, "");
    deviceUrl = brokerUrl;
    if (files?.ca) {
      deviceCa = loadOperatorCa(files.ca);
      gatewayTls = { ca: deviceCa };
    }
  } else {
    password =
      options.gatewayPassword ??
      Buffer.from(loadOrCreateSecret(options.dataDir, GATEWAY_SECRET_FILE)).toString("base64url");
    username = GATEWAY_USERNAME;
    const host = options.mqttHost ?? "127.0.0.1";
    let certificate: BrokerTls | null = null;
    if (options.tls) {
      certificate =
        files?.cert && files.key
          ? loadOperatorTls({ cert: files.cert, key: files.key, ca: files.ca })
          : await ensureDevelopmentTls(options.dataDir, [host, ...(options.tls.hosts ?? [])]);
      deviceCa = certificate.ca;
    }
    broker = await startEmbeddedBroker({
      host,
      // Device messages go to the gateway in-process, and the device's PUBACK waits until they are recorded.
      ingest: (message) => (gateway ? gateway.ingest(message) : Promise.reject(new Error("gateway not started"))),
      port: options.mqttPlain === false && certificate ? null : (options.mqttPort ?? 1883),
      tls:
        certificate && options.tls
          ? { port: options.tls.port, cert: certificate.cert, key: certificate.key }
          : undefined,
      authorize: createDeviceAuthorizer(options.db),
      gatewayPassword: password,
      logger: options.logger,
      ...options.brokerLimits,
    });
    const reachable = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host;
    const authority = (port: number | null) => `${reachable.includes(":") ? `[${reachable}]` : reachable}:${port}`;
    const tlsUrl = broker.tlsPort === null ? null : `mqtts://${authority(broker.tlsPort)}`;
    brokerUrl = broker.port === null ? (tlsUrl as string) : `mqtt://${authority(broker.port)}`;
    deviceUrl = tlsUrl ?? brokerUrl;
    url = brokerUrl;
    if (broker.port === null && certificate) {
      // The gateway reaches its own broker over loopback: it trusts exactly the certificate the broker serves,
      // whatever names that certificate carries.
      const own = new X509Certificate(certificate.cert).fingerprint256;
      gatewayTls = {
        ca: certificate.ca ?? undefined,
        checkServerIdentity: (_host, peer) =>
          peer.fingerprint256 === own ? undefined : new Error("not the embedded broker's certificate"),
      };
    }
  }
  const external = Boolean(options.mqttUrl);
  const clientId = options.gatewayClientId;
  const dynsec =
    external && options.brokerKind === "mosquitto-dynsec"
      ? DynsecAccounts.start({
          url,
          clientId: `${clientId ?? "gateway"}-dynsec`,
          logger: options.logger,
          ca: gatewayTls?.ca,
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
      tls: gatewayTls,
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
    deviceUrl,
    deviceCa,
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

/** Reads MQTT_TLS_CA for the gateway's connection to an external broker. @throws ConfigError naming the file. */
function loadOperatorCa(file: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (err) {
    throw new ConfigError([`MQTT_TLS_CA: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? "error"})`]);
  }
}
