/**
 * Test support (not exported from the package): a real Aedes broker that lets a device in only with its registered
 * MAC and secret, and a small HTTP server playing the cloud's factory route and the two activation endpoints exactly
 * per packages/contract/src/activation.ts (404 unknown-device, 401 bad-credentials, 409 nonce-invalid), so every
 * refusal the setup-mode device meets is a real one.
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import {
  ACTIVATION_NONCE_SECONDS,
  ACTIVATION_PATHS,
  ACTIVATION_TOKEN_MINUTES,
  normaliseMac,
  ZActivationBegin,
  ZActivationComplete,
} from "@aquapilot/contract";
import { Aedes, type AuthenticateError } from "aedes";

/** One HTTP call the cloud answered. */
export interface CloudCall {
  path: string;
  status: number;
  body: Record<string, unknown>;
}

/** One CONNECT the broker judged. */
export interface BrokerAuth {
  clientId: string;
  username: string | undefined;
  password: string | undefined;
  accepted: boolean;
}

/** The cloud of the tests: broker, HTTP endpoints and what they saw. */
export interface TestCloud {
  /** http://127.0.0.1:PORT */
  serverUrl: string;
  /** mqtt://127.0.0.1:PORT */
  brokerUrl: string;
  broker: Aedes;
  /** Registered devices: MAC → secret. */
  registry: Map<string, string>;
  /** Pairing codes issued: MAC → code. */
  issued: Map<string, string>;
  calls: CloudCall[];
  auths: BrokerAuth[];
  /**
   * Ordered log of "accepted:MAC" entries, written when the broker has accepted a client's credentials and registered
   * it, right before it writes the CONNACK; tests add their own entries to compare orders.
   */
  order: string[];
  /** Client ids connected now. */
  connected: Set<string>;
  /** Delay before answering activation step one, ms (default 0). */
  beginDelayMs: number;
  close(): Promise<void>;
}

function readBody(req: http.IncomingMessage): Promise<unknown> {
  return new Promise((resolve) => {
    let text = "";
    req.on("data", (c) => {
      text += c;
    });
    req.on("end", () => {
      try {
        resolve(JSON.parse(text));
      } catch {
        resolve(null);
      }
    });
  });
}

/** Starts the broker and the HTTP cloud on free loopback ports. */
export async function startTestCloud(): Promise<TestCloud> {
  const registry = new Map<string, string>();
  const issued = new Map<string, string>();
  const nonces = new Map<string, string>();
  const calls: CloudCall[] = [];
  const auths: BrokerAuth[] = [];
  const order: string[] = [];

  const broker = await Aedes.createBroker({
    authenticate: (client, username, password, done) => {
      const secret = registry.get(normaliseMac(username ?? "-"));
      const accepted =
        secret !== undefined &&
        client.id === username &&
        username === normaliseMac(username) &&
        password?.toString() === secret;
      auths.push({ clientId: client.id, username, password: password?.toString(), accepted });
      if (accepted) return done(null, true);
      const err = new Error("bad user name or password") as AuthenticateError;
      err.returnCode = 4;
      done(err, false);
    },
  });
  const connected = new Set<string>();
  broker.on("client", (client) => {
    order.push(`accepted:${client.id}`);
    connected.add(client.id);
  });
  broker.on("clientDisconnect", (client) => connected.delete(client.id));
  const mqttServer = net.createServer(broker.handle);
  await new Promise<void>((resolve) => mqttServer.listen(0, "127.0.0.1", resolve));
  const brokerUrl = `mqtt://127.0.0.1:${(mqttServer.address() as AddressInfo).port}`;

  const cloud: TestCloud = {
    serverUrl: "",
    brokerUrl,
    broker,
    registry,
    issued,
    calls,
    auths,
    order,
    connected,
    beginDelayMs: 0,
    close: async () => undefined,
  };

  const httpServer = http.createServer(async (req, res) => {
    const body = (await readBody(req)) as Record<string, unknown> | null;
    const answer = (status: number, json: unknown) => {
      calls.push({ path: req.url ?? "", status, body: body ?? {} });
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(json));
    };
    if (req.method !== "POST") return answer(404, { error: "not-found" });
    if (req.url === "/dev/factory/devices") {
      registry.set(normaliseMac(String(body?.mac)), String(body?.secret));
      return answer(201, {});
    }
    if (req.url === ACTIVATION_PATHS.begin) {
      const parsed = ZActivationBegin.safeParse(body);
      if (!parsed.success) return answer(400, { error: "invalid-request" });
      const mac = normaliseMac(parsed.data.mac);
      if (!registry.has(mac)) return answer(404, { error: "unknown-device" });
      if (cloud.beginDelayMs > 0) await new Promise((r) => setTimeout(r, cloud.beginDelayMs));
      const nonce = randomBytes(24).toString("base64url");
      nonces.set(nonce, mac);
      return answer(200, {
        nonce,
        expiresInSeconds: ACTIVATION_NONCE_SECONDS,
        serverTime: new Date().toISOString(),
        mqttUrl: brokerUrl,
      });
    }
    if (req.url === ACTIVATION_PATHS.complete) {
      const parsed = ZActivationComplete.safeParse(body);
      if (!parsed.success) return answer(400, { error: "invalid-request" });
      const mac = normaliseMac(parsed.data.mac);
      if (nonces.get(parsed.data.nonce) !== mac) return answer(409, { error: "nonce-invalid" });
      if (registry.get(mac) !== parsed.data.secret) return answer(401, { error: "bad-credentials" });
      nonces.delete(parsed.data.nonce);
      const pairingCode = `${mac}:${randomBytes(16).toString("base64url")}`;
      issued.set(mac, pairingCode);
      return answer(200, {
        pairingCode,
        expiresAt: new Date(Date.now() + ACTIVATION_TOKEN_MINUTES * 60_000).toISOString(),
      });
    }
    answer(404, { error: "not-found" });
  });
  await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  cloud.serverUrl = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
  cloud.close = async () => {
    httpServer.closeAllConnections();
    await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    await new Promise<void>((resolve) => broker.close(() => resolve()));
    await new Promise<void>((resolve) => mqttServer.close(() => resolve()));
  };
  return cloud;
}
