import { createHash, timingSafeEqual } from "node:crypto";
import net from "node:net";
import { deviceTopic, MQTT_TOPIC_ROOT, normaliseMac, parseDeviceTopic } from "@aquapilot/contract";
import { verify } from "@node-rs/argon2";
import { Aedes, type AuthenticateError, type Client } from "aedes";
import type { Db } from "../db/index.js";
import type { IotLogger } from "./logger.js";

/** The gateway's MQTT username (docs/device-protocol.md, "Credentials"). */
export const GATEWAY_USERNAME = "gateway";

/** Channels a device may publish to under its own tree. */
const DEVICE_PUBLISH = new Set(["status", "state", "telemetry", "event", "ack"]);

/** Checks a device's credentials: MAC (normalised) and password. Resolves true when they match. */
export type DeviceAuthorizer = (mac: string, password: string) => Promise<boolean>;

/** Options of {@link startEmbeddedBroker}. */
export interface EmbeddedBrokerOptions {
  /** Interface to listen on, e.g. "127.0.0.1" or "0.0.0.0". */
  host: string;
  /** TCP port; 0 picks a free one (see {@link EmbeddedBroker.port}). */
  port: number;
  /** Verifies a device's MAC and secret (see {@link createDeviceAuthorizer}). */
  authorize: DeviceAuthorizer;
  /** Password of the "gateway" user. */
  gatewayPassword: string;
  logger?: IotLogger;
}

/** A running embedded broker. */
export interface EmbeddedBroker {
  /** Actual port (when 0 was asked). */
  port: number;
  host: string;
  /** Number of connected clients. */
  readonly connectedClients: number;
  /** Disconnects every client and stops listening. */
  close(): Promise<void>;
}

type Identity = { kind: "gateway" } | { kind: "device"; mac: string };

function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

function authError(message: string, returnCode: number): AuthenticateError {
  return Object.assign(new Error(message), { returnCode }) as AuthenticateError;
}

/** True when a gateway may use this topic filter: inside the device tree, optionally as `$share/<group>/…`. */
function gatewayTopicAllowed(topic: string): boolean {
  const plain = topic.startsWith("$share/") ? topic.split("/").slice(2).join("/") : topic;
  return plain.startsWith(`${MQTT_TOPIC_ROOT}/`);
}

/**
 * Starts Aedes 1.x on a TCP server (docs/device-protocol.md "Credentials" and "ACL").
 * - authenticate: username "gateway" with the gateway password, or a device with username = MAC (client id must be
 *   the MAC too, so no device can take over another's session) and password = provisioning secret.
 *   A device's will must be its own status topic.
 * - authorizePublish: a device only to its own status/state/telemetry/event/ack; the gateway anywhere under
 *   `aq/v1/devices/`. A refused publish closes the connection (MQTT 3.1.1 has no negative PUBACK).
 * - authorizeSubscribe: a device only its own cmd; the gateway anything under the tree (also `$share/…`);
 *   anything else is answered with SUBACK 0x80.
 * @throws when the port cannot be bound.
 */
export async function startEmbeddedBroker(options: EmbeddedBrokerOptions): Promise<EmbeddedBroker> {
  const { logger } = options;
  const identities = new WeakMap<Client, Identity>();
  const willTopics = new WeakMap<Client, string | null>();
  const gatewayDigest = digest(options.gatewayPassword);
  const aedes = await Aedes.createBroker({ heartbeatInterval: 60_000, drainTimeout: 30_000 });

  aedes.preConnect = (client, packet, callback) => {
    willTopics.set(client, packet.will?.topic ?? null);
    callback(null, true);
  };

  aedes.authenticate = (client, username, password, done) => {
    const pass = password?.toString("utf8") ?? "";
    if (!username) return done(authError("Bad username or password", 4), false);
    if (username === GATEWAY_USERNAME) {
      if (timingSafeEqual(digest(pass), gatewayDigest)) {
        identities.set(client, { kind: "gateway" });
        return done(null, true);
      }
      return done(authError("Bad username or password", 4), false);
    }
    const mac = normaliseMac(username);
    if (!/^[0-9A-F]{12}$/.test(mac)) return done(authError("Bad username or password", 4), false);
    if (client.id !== mac) return done(authError("Client id must be the MAC", 2), false);
    const will = willTopics.get(client);
    if (will && will !== deviceTopic(mac, "status")) return done(authError("Will topic not allowed", 5), false);
    options.authorize(mac, pass).then(
      (ok) => {
        if (!ok) {
          logger?.info({ mac }, "mqtt device refused: bad credentials");
          return done(authError("Bad username or password", 4), false);
        }
        identities.set(client, { kind: "device", mac });
        done(null, true);
      },
      (err: Error) => {
        logger?.error({ mac, err: err.message }, "mqtt device authentication failed");
        done(authError("Server unavailable", 3), false);
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
      if (parsed && parsed.mac === who.mac && DEVICE_PUBLISH.has(parsed.channel)) return callback(null);
      logger?.warn({ mac: who.mac, topic: packet.topic }, "mqtt publish refused");
    }
    callback(new Error("topic not allowed"));
  };

  aedes.authorizeSubscribe = (client, sub, callback) => {
    const who = identities.get(client);
    if (who?.kind === "gateway" && gatewayTopicAllowed(sub.topic)) return callback(null, sub);
    if (who?.kind === "device" && sub.topic === deviceTopic(who.mac, "cmd")) return callback(null, sub);
    logger?.warn({ client: client.id, topic: sub.topic }, "mqtt subscribe refused");
    callback(null, null);
  };

  aedes.on("clientError", (client, err) => logger?.debug({ client: client.id, err: err.message }, "mqtt client error"));

  const server = net.createServer(aedes.handle);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as net.AddressInfo;
  logger?.info({ host: options.host, port: address.port }, "embedded MQTT broker listening");

  return {
    port: address.port,
    host: options.host,
    get connectedClients() {
      return aedes.connectedClients;
    },
    async close() {
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
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
