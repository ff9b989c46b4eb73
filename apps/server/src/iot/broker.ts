import { createHash, timingSafeEqual } from "node:crypto";
import net from "node:net";
import type { Duplex } from "node:stream";
import tls from "node:tls";
import {
  deviceTopic,
  MQTT_MAX_PACKET_BYTES,
  MQTT_TOPIC_ROOT,
  normaliseMac,
  parseDeviceTopic,
} from "@aquapilot/contract";
import { verify } from "@node-rs/argon2";
import { Aedes, type AuthenticateError, type Client } from "aedes";
import type { Db } from "../db/index.ts";
import type { IotLogger } from "./logger.ts";
import {
  addressKey,
  LoginLimiter,
  type LoginLimiterStats,
  type LoginLimits,
  type LoginOutcome,
} from "./login-limiter.ts";
import { guardPacketSize } from "./packet-guard.ts";
import type { InboundMessage } from "./transport.ts";

/** The gateway's MQTT username (docs/device-protocol.md, "Credentials"). */
export const GATEWAY_USERNAME = "gateway";

/** Channels a device may publish to under its own tree. */
const DEVICE_PUBLISH = new Set(["status", "state", "telemetry", "event", "ack"]);
/** Channels a device may subscribe to under its own tree: commands and the cloud's receipts. */
const DEVICE_SUBSCRIBE = ["cmd", "receipt"] as const;

/** Checks a device's credentials: MAC (normalised) and password. Resolves true when they match. */
export type DeviceAuthorizer = (mac: string, password: string) => Promise<boolean>;

/** Options of {@link startEmbeddedBroker}. */
export interface EmbeddedBrokerOptions {
  /** Interface to listen on, e.g. "127.0.0.1" or "0.0.0.0". */
  host: string;
  /**
   * Port of plain MQTT over TCP; 0 picks a free one (see {@link EmbeddedBroker.port}); null: no plain listener (the
   * production shape: devices connect over {@link tls} only).
   */
  port: number | null;
  /**
   * MQTT over TLS (docs/device-protocol.md "Transport security"): port (0 picks a free one, see
   * {@link EmbeddedBroker.tlsPort}) on the same `host`, the broker certificate and its key (PEM). Absent: no TLS
   * listener.
   */
  tls?: { port: number; cert: string; key: string };
  /** Verifies a device's MAC and secret (see {@link createDeviceAuthorizer}). */
  authorize: DeviceAuthorizer;
  /** Password of the "gateway" user. */
  gatewayPassword: string;
  logger?: IotLogger;
  /** Overrides of the password-guessing limits (login-limiter.ts DEFAULT_LOGIN_LIMITS; tests). */
  loginLimits?: Partial<LoginLimits>;
  /** Clock of the guessing limits' blocks, epoch ms (tests). */
  now?: () => number;
  /** Largest packet read, bytes of remaining length (default MQTT_MAX_PACKET_BYTES). */
  maxPacketBytes?: number;
  /**
   * Takes every device publish the ACL allows (its will included) in-process, before the broker acknowledges it
   * (the gateway's `ingest`, so an acknowledged message is a stored one): the PUBACK (QoS 1) is sent, and the message
   * passed on to subscribers, only once the returned promise resolves; a rejection refuses the publish, which closes
   * the device's connection without a PUBACK, so the device sends the message again. undefined: acknowledged at once.
   */
  ingest?: (message: InboundMessage) => Promise<unknown> | undefined;
}

/** What the broker refused since start, for tests and diagnostics. */
export interface EmbeddedBrokerStats {
  /** Connections closed because a packet announced more than the size limit (or a malformed length). */
  oversizedPackets: number;
  /** The password-guessing limiter's counts. */
  logins: LoginLimiterStats;
  /** Connections handed to the broker since start, per listener (a TLS one once its handshake succeeded). */
  connections: { plain: number; tls: number };
}

/** A running embedded broker. */
export interface EmbeddedBroker {
  /** Actual port of plain MQTT (when 0 was asked), or null without a plain listener. */
  port: number | null;
  /** Actual port of MQTT over TLS (when 0 was asked), or null without a TLS listener. */
  tlsPort: number | null;
  host: string;
  /** Number of connected clients. */
  readonly connectedClients: number;
  /** Refusals since start (a copy). */
  readonly stats: EmbeddedBrokerStats;
  /** Disconnects every client and stops listening. */
  close(): Promise<void>;
}

type Identity = { kind: "gateway" } | { kind: "device"; mac: string };

function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

/**
 * The CONNACK return codes a login is refused with (MQTT 3.1.1 §3.2.2.3); the broker closes the connection after
 * sending one.
 */
const ConnackReturnCode = {
  /** 2: identifier rejected (a device's client id must be its MAC). */
  IdentifierRejected: 2,
  /** 3: server unavailable (the password checks are saturated, or one failed). */
  ServerUnavailable: 3,
  /** 4: bad user name or password. */
  BadUsernameOrPassword: 4,
  /** 5: not authorized (blocked after repeated wrong passwords, or a will topic other than its own status). */
  NotAuthorized: 5,
} as const;
type ConnackReturnCode = (typeof ConnackReturnCode)[keyof typeof ConnackReturnCode];

function authError(message: string, returnCode: ConnackReturnCode): AuthenticateError {
  return Object.assign(new Error(message), { returnCode }) as AuthenticateError;
}

/** True when a gateway may use this topic filter: inside the device tree, optionally as `$share/<group>/…`. */
function gatewayTopicAllowed(topic: string): boolean {
  const plain = topic.startsWith("$share/") ? topic.split("/").slice(2).join("/") : topic;
  return plain.startsWith(`${MQTT_TOPIC_ROOT}/`);
}

/** Listens on `port` of `host`; resolves the port bound. @throws the listen error (e.g. EADDRINUSE). */
async function listen(server: net.Server, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  return (server.address() as net.AddressInfo).port;
}

/**
 * Starts Aedes 1.x on a TCP server, a TLS server, or both (docs/device-protocol.md "Credentials", "ACL" and
 * "Transport security"); both hand their connections to the same broker, so the rules below hold on either.
 * - authenticate: username "gateway" with the gateway password, or a device with username = MAC (client id must be
 *   the MAC too, so no device can take over another's session) and password = provisioning secret.
 *   A device's will must be its own status topic. Wrong passwords are slowed and then blocked per client id and per
 *   remote address (login-limiter.ts; docs/device-protocol.md §2): a blocked login is refused with CONNACK 5
 *   without a password check.
 * - packet size: a packet announcing more than `maxPacketBytes` (default MQTT_MAX_PACKET_BYTES, 16 KiB) closes the
 *   connection before its body is read (packet-guard.ts).
 * - authorizePublish: a device only to its own status/state/telemetry/event/ack; the gateway anywhere under
 *   `aq/v1/devices/`. A refused publish closes the connection (MQTT 3.1.1 has no negative PUBACK). With `ingest`,
 *   an allowed device publish is recorded before it is acknowledged (see {@link EmbeddedBrokerOptions.ingest}).
 * - authorizeSubscribe: a device only its own cmd and receipt; the gateway anything under the tree (also `$share/…`);
 *   anything else is answered with SUBACK 0x80.
 * @throws when a port cannot be bound (nothing is left listening then), or when neither listener is asked for.
 */
export async function startEmbeddedBroker(options: EmbeddedBrokerOptions): Promise<EmbeddedBroker> {
  const { logger } = options;
  const identities = new WeakMap<Client, Identity>();
  const willTopics = new WeakMap<Client, string | null>();
  const addresses = new WeakMap<object, string>();
  const gatewayDigest = digest(options.gatewayPassword);
  let oversizedPackets = 0;
  const limiter = new LoginLimiter(options.loginLimits, options.now, (kind, key, untilMs) =>
    logger?.warn(
      { [kind]: key, until: new Date(untilMs).toISOString() },
      "mqtt logins blocked after repeated wrong passwords",
    ),
  );
  const aedes = await Aedes.createBroker({ heartbeatInterval: 60_000, drainTimeout: 30_000 });

  aedes.preConnect = (client, packet, callback) => {
    willTopics.set(client, packet.will?.topic ?? null);
    callback(null, true);
  };

  aedes.authenticate = (client, username, password, done) => {
    const pass = password?.toString("utf8") ?? "";
    const address = addresses.get(client.conn) ?? "unknown";
    const refuse = (message: string, returnCode: ConnackReturnCode) => done(authError(message, returnCode), false);
    const answer = (outcome: LoginOutcome) => {
      if (outcome === "blocked") return refuse("Not authorized", ConnackReturnCode.NotAuthorized);
      if (outcome === "busy") return refuse("Server unavailable", ConnackReturnCode.ServerUnavailable);
      return refuse("Bad username or password", ConnackReturnCode.BadUsernameOrPassword);
    };
    if (!username) {
      limiter.recordFailure({ address });
      return refuse("Bad username or password", ConnackReturnCode.BadUsernameOrPassword);
    }
    if (username === GATEWAY_USERNAME) {
      // A 256-bit generated secret compared in constant time: the right one always gets in (the gateway must never
      // be locked out); wrong ones count against the address like any other.
      if (timingSafeEqual(digest(pass), gatewayDigest)) {
        identities.set(client, { kind: "gateway" });
        return done(null, true);
      }
      limiter
        .attempt({ address }, null, async () => false)
        .then(answer, () => refuse("Server unavailable", ConnackReturnCode.ServerUnavailable));
      return;
    }
    const mac = normaliseMac(username);
    if (!/^[0-9A-F]{12}$/.test(mac)) {
      limiter.recordFailure({ address });
      return refuse("Bad username or password", ConnackReturnCode.BadUsernameOrPassword);
    }
    if (client.id !== mac) {
      limiter.recordFailure({ address });
      return refuse("Client id must be the MAC", ConnackReturnCode.IdentifierRejected);
    }
    const will = willTopics.get(client);
    if (will && will !== deviceTopic(mac, "status")) {
      limiter.recordFailure({ address });
      return refuse("Will topic not allowed", ConnackReturnCode.NotAuthorized);
    }
    limiter
      .attempt({ client: mac, address }, digest(pass), () => options.authorize(mac, pass))
      .then(
        (outcome) => {
          if (outcome === "ok") {
            identities.set(client, { kind: "device", mac });
            return done(null, true);
          }
          if (outcome === "refused") logger?.info({ mac }, "mqtt device refused: bad credentials");
          answer(outcome);
        },
        (err: Error) => {
          logger?.error({ mac, err: err.message }, "mqtt device authentication failed");
          refuse("Server unavailable", ConnackReturnCode.ServerUnavailable);
        },
      );
  };

  aedes.authorizePublish = (client, packet, callback) => {
    if (!client) {
      // A will left by a session of another broker instance: only a status message may be published that way.
      return callback(parseDeviceTopic(packet.topic)?.channel === "status" ? null : new Error("not allowed"));
    }
    const who = identities.get(client);
    if (who?.kind === "gateway") {
      return callback(packet.topic.startsWith(`${MQTT_TOPIC_ROOT}/`) ? null : new Error("topic not allowed"));
    }
    if (who?.kind === "device") {
      const parsed = parseDeviceTopic(packet.topic);
      if (parsed && parsed.mac === who.mac && DEVICE_PUBLISH.has(parsed.channel)) {
        const payload = packet.payload;
        const recorded = options.ingest?.({
          topic: packet.topic,
          mac: parsed.mac,
          channel: parsed.channel,
          payload: Buffer.isBuffer(payload) ? payload : Buffer.from(payload),
          retained: packet.retain,
          redelivered: packet.dup,
        });
        if (!recorded) return callback(null);
        recorded.then(
          () => callback(null),
          (err: Error) => {
            logger?.warn({ mac: who.mac, topic: packet.topic, err: err.message }, "mqtt publish not recorded");
            callback(err);
          },
        );
        return;
      }
      logger?.warn({ mac: who.mac, topic: packet.topic }, "mqtt publish refused");
    }
    callback(new Error("topic not allowed"));
  };

  aedes.authorizeSubscribe = (client, sub, callback) => {
    const who = identities.get(client);
    if (who?.kind === "gateway" && gatewayTopicAllowed(sub.topic)) return callback(null, sub);
    if (who?.kind === "device" && DEVICE_SUBSCRIBE.some((c) => sub.topic === deviceTopic(who.mac, c))) {
      return callback(null, sub);
    }
    logger?.warn({ client: client.id, topic: sub.topic }, "mqtt subscribe refused");
    callback(null, null);
  };

  aedes.on("clientError", (client, err) => logger?.debug({ client: client.id, err: err.message }, "mqtt client error"));

  const maxPacketBytes = options.maxPacketBytes ?? MQTT_MAX_PACKET_BYTES;
  const connections = { plain: 0, tls: 0 };
  const accept = (socket: net.Socket, listener: keyof typeof connections) => {
    connections[listener]++;
    // MQTT packets are small and answered (PUBACK, the next publish): Nagle's algorithm would hold each behind the
    // peer's delayed ACK, some 40 ms per hop on Linux on the device → app path.
    socket.setNoDelay(true);
    const conn: Duplex = guardPacketSize(socket, maxPacketBytes, (remainingLength) => {
      oversizedPackets++;
      // Aedes hangs its client on the connection: its id is the device's MAC once it has connected.
      const clientId = (conn as Duplex & { client?: { id?: string | null } }).client?.id ?? null;
      logger?.warn(
        { client: clientId, address: socket.remoteAddress, bytes: remainingLength, limit: maxPacketBytes },
        "mqtt connection closed: packet too large",
      );
    });
    addresses.set(conn, addressKey(socket.remoteAddress));
    aedes.handle(conn);
  };
  if (options.port === null && !options.tls) {
    await new Promise<void>((resolve) => aedes.close(() => resolve()));
    throw new Error("embedded broker: neither a plain nor a TLS listener asked for");
  }
  const servers: net.Server[] = [];
  const closeServers = () =>
    Promise.all(
      servers.map((s) => new Promise<void>((resolve) => (s.listening ? s.close(() => resolve()) : resolve()))),
    );
  let port: number | null = null;
  let tlsPort: number | null = null;
  try {
    if (options.port !== null) {
      const server = net.createServer((socket) => accept(socket, "plain"));
      servers.push(server);
      port = await listen(server, options.port, options.host);
      logger?.info({ host: options.host, port }, "embedded MQTT broker listening (plain MQTT)");
    }
    if (options.tls) {
      const server = tls.createServer(
        { cert: options.tls.cert, key: options.tls.key, minVersion: "TLSv1.2" },
        (socket) => accept(socket, "tls"),
      );
      // A handshake refused (a client that does not trust the certificate, a scanner) concerns that peer only.
      server.on("tlsClientError", (err, socket) =>
        logger?.debug({ address: socket.remoteAddress, err: err.message }, "mqtt TLS handshake failed"),
      );
      servers.push(server);
      tlsPort = await listen(server, options.tls.port, options.host);
      logger?.info({ host: options.host, port: tlsPort }, "embedded MQTT broker listening (MQTT over TLS)");
    }
  } catch (err) {
    await closeServers();
    await new Promise<void>((resolve) => aedes.close(() => resolve()));
    throw err;
  }

  return {
    port,
    tlsPort,
    host: options.host,
    get connectedClients() {
      return aedes.connectedClients;
    },
    get stats() {
      return { oversizedPackets, logins: limiter.stats, connections: { ...connections } };
    },
    async close() {
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
      await closeServers();
    },
  };
}

/**
 * Device credential check against `devices.secret_hash` (argon2id). Successful checks are remembered for
 * `cacheMs` (default 60 s) as a SHA-256 of the password, so a reconnect storm costs one hash each, not one argon2.
 * Failed checks are never cached.
 */
export function createDeviceAuthorizer(db: Db, cacheMs = 60_000): DeviceAuthorizer {
  const cache = new Map<string, { digest: Buffer; until: number }>();
  return async (mac, password) => {
    const now = Date.now();
    const hit = cache.get(mac);
    const d = digest(password);
    if (hit && hit.until > now && timingSafeEqual(hit.digest, d)) return true;
    const row = await db.selectFrom("devices").select("secret_hash").where("mac", "=", mac).executeTakeFirst();
    if (!row) return false;
    const ok = await verify(row.secret_hash, password).catch(() => false);
    if (ok) {
      if (cache.size > 10_000) cache.clear();
      cache.set(mac, { digest: d, until: now + cacheMs });
    } else {
      cache.delete(mac);
    }
    return ok;
  };
}
