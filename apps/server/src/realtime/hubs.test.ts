import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { HUB_METHODS, HUB_PATHS, type TDeviceChangeMessage } from "@aquapilot/contract";
import {
  HttpTransportType,
  type HubConnection,
  HubConnectionBuilder,
  HubConnectionState,
  type IHttpConnectionOptions,
  LogLevel,
} from "@microsoft/signalr";
import Fastify, { type FastifyInstance } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { InProcessBus } from "../bus.ts";
import type { HubName } from "./connection.ts";
import type { ConnectionTokenClaims } from "./connection-token.ts";
import { RecordReader } from "./framing.ts";
import type { HubAuth } from "./hub-auth.ts";
import type { HubOptions } from "./hub-options.ts";
import { type Hubs, registerHubs } from "./hubs.ts";
import { HubCloseReason } from "./protocol.ts";

// ---- harness -------------------------------------------------------------------------------------------------------

interface Harness {
  app: FastifyInstance;
  bus: InProcessBus;
  hubs: Hubs;
  base: string;
  /** token → userId; delete an entry to make the token invalid. Each token is its own session: sessionId = token. */
  tokens: Map<string, string>;
  /** userId → family ids; edit it, then publish family.members-changed */
  families: Map<string, string[]>;
  familyIdsOfCalls: () => number;
  /** server-side sockets of every upgrade, as the test's own `upgrade` listener saw them */
  upgrades: { url: string; authorization: string | undefined; socket: Duplex }[];
}

const harnesses: Harness[] = [];
const clients: HubConnection[] = [];
const rawSockets: WebSocket[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.stop().catch(() => undefined)));
  for (const ws of rawSockets.splice(0)) ws.terminate();
  for (const h of harnesses.splice(0)) {
    await h.hubs.close();
    await h.app.close();
    await h.bus.close();
  }
});

async function startServer(
  config: {
    options?: HubOptions;
    withMemberIds?: boolean;
    /** Connection token key (servers given the same one stand for processes of one cluster). */
    tokenKey?: Uint8Array;
    tokenClaims?: ConnectionTokenClaims;
  } = {},
): Promise<Harness> {
  const app = Fastify({ logger: false });
  const bus = new InProcessBus();
  const tokens = new Map([
    ["token-alice", "alice"],
    ["token-alice-2", "alice"],
    ["token-bob", "bob"],
    ["token-carol", "carol"],
  ]);
  const families = new Map([
    ["alice", ["F1"]],
    ["bob", ["F1", "F2"]],
    ["carol", ["F2"]],
  ]);
  let calls = 0;
  const auth: HubAuth = {
    async authenticate(token) {
      const userId = tokens.get(token);
      return userId ? { userId, sessionId: token } : null;
    },
    async familyIdsOf(userId) {
      calls++;
      return [...(families.get(userId) ?? [])];
    },
  };
  if (config.withMemberIds) {
    auth.memberIdsOf = async (familyId) =>
      [...families].filter(([, ids]) => ids.includes(familyId)).map(([userId]) => userId);
  }
  const hubs = registerHubs(app, {
    bus,
    auth,
    options: config.options,
    tokenKey: config.tokenKey,
    tokenClaims: config.tokenClaims,
  });
  const upgrades: Harness["upgrades"] = [];
  app.server.on("upgrade", (req, socket: Duplex) =>
    upgrades.push({ url: req.url ?? "", authorization: req.headers.authorization, socket }),
  );
  await app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = app.server.address() as AddressInfo;
  const h: Harness = {
    app,
    bus,
    hubs,
    base: `http://127.0.0.1:${port}`,
    tokens,
    families,
    familyIdsOfCalls: () => calls,
    upgrades,
  };
  harnesses.push(h);
  return h;
}

interface Client {
  connection: HubConnection;
  /** arguments of every DeviceChangContentTypeMessage / ReceiveMessage received */
  received: unknown[][];
  closedWith: Promise<Error | undefined>;
}

function build(
  h: Harness,
  hub: HubName,
  token: string,
  options: Partial<IHttpConnectionOptions> = {},
  reconnectDelays?: number[],
): Client {
  let builder = new HubConnectionBuilder()
    .withUrl(h.base + HUB_PATHS[hub], { accessTokenFactory: () => token, ...options })
    .configureLogging(LogLevel.None);
  if (reconnectDelays) builder = builder.withAutomaticReconnect(reconnectDelays);
  const connection = builder.build();
  clients.push(connection);
  const received: unknown[][] = [];
  connection.on(hub === "deviceChange" ? HUB_METHODS.deviceChange : HUB_METHODS.receiveMessage, (...args) =>
    received.push(args),
  );
  const closedWith = new Promise<Error | undefined>((resolve) => connection.onclose(resolve));
  return { connection, received, closedWith };
}

async function connect(
  h: Harness,
  hub: HubName,
  token: string,
  options: Partial<IHttpConnectionOptions> = {},
  reconnectDelays?: number[],
): Promise<Client> {
  const client = build(h, hub, token, options, reconnectDelays);
  await client.connection.start();
  return client;
}

async function waitFor(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function deviceMessage(familyId: string, deviceId: string): TDeviceChangeMessage {
  return {
    kind: "state",
    deviceId,
    mac: "AA:BB:CC:DD:EE:01",
    familyId,
    online: true,
    station: 2,
    stationRemainingSeconds: 540,
    remainingWaterL: 1250.5,
    flowRateLpm: 6.2,
    lastReportTime: "2025-01-01T08:00:00.000Z",
    event: null,
  };
}

function publishDevice(h: Harness, familyId: string, deviceId: string): TDeviceChangeMessage {
  const message = deviceMessage(familyId, deviceId);
  h.bus.publish({ type: "device.changed", familyId, deviceId, message });
  return message;
}

/** Device ids received by a hub-1 client, parsed from the JSON-string argument. */
function deviceIds(client: Client): string[] {
  return client.received.map((args) => (JSON.parse(args[0] as string) as TDeviceChangeMessage).deviceId);
}

interface Raw {
  ws: WebSocket;
  records: unknown[];
  closed: Promise<number>;
}

/** A bare WebSocket speaking the JSON hub protocol by hand (as a browser would: token in the query). */
async function rawConnect(url: string, headers: Record<string, string> = {}): Promise<Raw> {
  const ws = new WebSocket(url.replace(/^http/, "ws"), { headers });
  rawSockets.push(ws);
  const reader = new RecordReader();
  const records: unknown[] = [];
  ws.on("message", (data: Buffer) => {
    for (const record of reader.push(data)) records.push(JSON.parse(record));
  });
  const closed = new Promise<number>((resolve) => ws.on("close", (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  return { ws, records, closed };
}

/** The HTTP status an upgrade request gets (101 when it is accepted). */
function upgradeStatus(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url.replace(/^http/, "ws"), { headers });
    ws.on("unexpected-response", (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.on("open", () => {
      resolve(101);
      ws.terminate();
    });
    ws.on("error", (error) => reject(error));
  });
}

async function negotiate(h: Harness, hub: HubName, token: string | null, version = 1): Promise<Response> {
  return fetch(`${h.base}${HUB_PATHS[hub]}/negotiate?negotiateVersion=${version}`, {
    method: "POST",
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
}

const HANDSHAKE = '{"protocol":"json","version":1}\u001e';

// ---- tests ---------------------------------------------------------------------------------------------------------

describe("negotiate", () => {
  it("answers version 1 with a connection id, a separate token and the WebSockets transport", async () => {
    const h = await startServer();
    const res = await negotiate(h, "deviceChange", "token-alice");
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toEqual({
      negotiateVersion: 1,
      connectionId: expect.any(String),
      connectionToken: expect.any(String),
      availableTransports: [{ transport: "WebSockets", transferFormats: ["Text"] }],
    });
    expect(body.connectionToken).not.toBe(body.connectionId);
  });

  it("answers version 0 clients without a connectionToken, and accepts an empty JSON body", async () => {
    const h = await startServer();
    const res = await fetch(`${h.base}${HUB_PATHS.message}/negotiate`, {
      method: "POST",
      headers: { Authorization: "Bearer token-bob", "Content-Type": "application/json" },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.negotiateVersion).toBe(0);
    expect(body.connectionToken).toBeUndefined();
    expect(typeof body.connectionId).toBe("string");
    // version 0: the connectionId is the id of the WebSocket request
    expect(await upgradeStatus(`${h.base}${HUB_PATHS.message}?id=${body.connectionId}&access_token=token-bob`)).toBe(
      101,
    );
  });

  it("refuses a missing or invalid bearer token with 401", async () => {
    const h = await startServer();
    expect((await negotiate(h, "deviceChange", null)).status).toBe(401);
    expect((await negotiate(h, "deviceChange", "token-mallory")).status).toBe(401);
  });
});

describe("hub 1: DeviceChangContentTypeMessage", () => {
  it("delivers a family's device change to its members as a JSON string, and not to strangers", async () => {
    const h = await startServer();
    const alice = await connect(h, "deviceChange", "token-alice");
    const bob = await connect(h, "deviceChange", "token-bob");
    const carol = await connect(h, "deviceChange", "token-carol");
    const aliceMessages = await connect(h, "message", "token-alice");
    expect(h.hubs.connectionCount()).toBe(4);
    const callsBefore = h.familyIdsOfCalls();

    const sent = publishDevice(h, "F1", "dev-1");
    await waitFor(() => alice.received.length === 1 && bob.received.length === 1);
    expect(alice.received[0]).toHaveLength(1);
    expect(typeof alice.received[0][0]).toBe("string");
    expect(JSON.parse(alice.received[0][0] as string)).toEqual(sent);

    // carol is not in F1: once she has F2's event, F1's (sent before it) would have arrived too
    publishDevice(h, "F2", "dev-2");
    await waitFor(() => carol.received.length === 1 && bob.received.length === 2);
    expect(deviceIds(carol)).toEqual(["dev-2"]);
    expect(deviceIds(bob)).toEqual(["dev-1", "dev-2"]);
    expect(deviceIds(alice)).toEqual(["dev-1"]);
    // hub 2 does not carry device changes; delivery did not query families per event
    expect(aliceMessages.received).toEqual([]);
    expect(h.familyIdsOfCalls()).toBe(callsBefore);
  });

  it("refuses a bad token on negotiate and on the WebSocket upgrade", async () => {
    const h = await startServer();
    await expect(build(h, "deviceChange", "token-mallory").connection.start()).rejects.toThrow();
    await expect(
      build(h, "deviceChange", "token-mallory", {
        skipNegotiation: true,
        transport: HttpTransportType.WebSockets,
      }).connection.start(),
    ).rejects.toThrow();
    const url = h.base + HUB_PATHS.deviceChange;
    expect(await upgradeStatus(`${url}?access_token=token-mallory`)).toBe(401);
    expect(await upgradeStatus(url)).toBe(401);
    expect(await upgradeStatus(url, { Authorization: "Bearer nope" })).toBe(401);
    expect(h.hubs.connectionCount()).toBe(0);
  });

  it("reconnects automatically after the server drops the socket and receives later events", async () => {
    const h = await startServer();
    const alice = await connect(h, "deviceChange", "token-alice", {}, [0, 100, 200, 500]);
    const reconnected = new Promise<string | undefined>((resolve) => alice.connection.onreconnected(resolve));
    const upgrade = h.upgrades.find((u) => u.authorization === "Bearer token-alice");
    expect(upgrade).toBeDefined();
    upgrade?.socket.destroy(); // the server side of the WebSocket vanishes without a close frame

    await reconnected;
    expect(alice.connection.state).toBe(HubConnectionState.Connected);
    await waitFor(() => h.hubs.connectionCount() === 1);
    publishDevice(h, "F1", "dev-after");
    await waitFor(() => alice.received.length === 1);
    expect(deviceIds(alice)).toEqual(["dev-after"]);
  });

  it("closes every connection of a revoked user on both hubs, without reconnecting", async () => {
    const h = await startServer();
    const alice = await connect(h, "deviceChange", "token-alice", {}, [0, 100]);
    const aliceMessages = await connect(h, "message", "token-alice", {}, [0, 100]);
    const bob = await connect(h, "deviceChange", "token-bob");
    let reconnecting = 0;
    alice.connection.onreconnecting(() => reconnecting++);
    aliceMessages.connection.onreconnecting(() => reconnecting++);

    h.tokens.delete("token-alice");
    h.bus.publish({ type: "user.revoked", userId: "alice" });
    const [error1, error2] = await Promise.all([alice.closedWith, aliceMessages.closedWith]);
    expect(String(error1)).toContain("access has ended");
    expect(String(error2)).toContain("access has ended");
    expect(alice.connection.state).toBe(HubConnectionState.Disconnected);
    expect(reconnecting).toBe(0);

    await waitFor(() => h.hubs.connectionCount() === 1);
    publishDevice(h, "F1", "dev-1");
    await waitFor(() => bob.received.length === 1);
    expect(bob.connection.state).toBe(HubConnectionState.Connected);
  });

  for (const withMemberIds of [false, true]) {
    it(`applies family.members-changed to the very next event (${withMemberIds ? "memberIdsOf" : "familyIdsOf"})`, async () => {
      const h = await startServer({ withMemberIds });
      const alice = await connect(h, "deviceChange", "token-alice");
      const bob = await connect(h, "deviceChange", "token-bob", {}, [0, 100]);
      const carol = await connect(h, "deviceChange", "token-carol");
      const bobBack = new Promise((resolve) => bob.connection.onreconnected(resolve));

      // bob leaves F1, carol joins it; the event right after the change already follows the new membership
      h.families.set("bob", ["F2"]);
      h.families.set("carol", ["F1", "F2"]);
      h.bus.publish({ type: "family.members-changed", familyId: "F1" });
      publishDevice(h, "F1", "dev-1");

      await waitFor(() => alice.received.length === 1 && carol.received.length === 1);
      // Having lost F1, bob's connection was closed and came back with F2 only (allowed to reconnect); carol's stayed.
      await bobBack;
      publishDevice(h, "F2", "dev-2");
      await waitFor(() => bob.received.length === 1);
      expect(deviceIds(bob)).toEqual(["dev-2"]);
      expect(deviceIds(alice)).toEqual(["dev-1"]);
      await waitFor(() => carol.received.length === 2);
      expect(deviceIds(carol)).toEqual(["dev-1", "dev-2"]);
    });
  }

  for (const withMemberIds of [false, true]) {
    it(`closes the hub-1 connections of a member who lost a household within 1 s; their other household comes back (${withMemberIds ? "memberIdsOf" : "familyIdsOf"})`, async () => {
      const h = await startServer({ withMemberIds });
      const alice = await connect(h, "deviceChange", "token-alice");
      const carol = await connect(h, "deviceChange", "token-carol");
      const bob = await connect(h, "deviceChange", "token-bob"); // no automatic reconnect: onclose gets the error
      const bobAgain = await connect(h, "deviceChange", "token-bob", {}, [0, 100]);
      const bobMessages = await connect(h, "message", "token-bob");
      const raw = await rawConnect(`${h.base}${HUB_PATHS.deviceChange}?access_token=token-bob`);
      raw.ws.send(HANDSHAKE);
      await waitFor(() => raw.records.length === 1);
      const reconnectingWith = new Promise<Error | undefined>((resolve) => bobAgain.connection.onreconnecting(resolve));
      const reconnected = new Promise((resolve) => bobAgain.connection.onreconnected(resolve));

      // bob is removed from F1 (a leave or F1's deletion publish the same event); he stays in F2
      const started = Date.now();
      h.families.set("bob", ["F2"]);
      h.bus.publish({ type: "family.members-changed", familyId: "F1" });
      const error = await bob.closedWith;
      expect(Date.now() - started).toBeLessThan(1000);
      expect(String(error)).toContain(HubCloseReason.FamilyAccessEnded);
      expect(await raw.closed).toBe(1000);
      expect(raw.records.at(-1)).toEqual({ type: 7, error: HubCloseReason.FamilyAccessEnded, allowReconnect: true });
      expect(String(await reconnectingWith)).toContain(HubCloseReason.FamilyAccessEnded);
      await reconnected;

      // F1's members and bob's own messages hub are untouched; bob's reconnected connection hears F2, not F1
      publishDevice(h, "F1", "dev-1");
      publishDevice(h, "F2", "dev-2");
      await waitFor(() => alice.received.length === 1 && carol.received.length === 1 && bobAgain.received.length === 1);
      expect(deviceIds(bobAgain)).toEqual(["dev-2"]);
      expect(deviceIds(alice)).toEqual(["dev-1"]);
      for (const c of [alice, carol, bobMessages]) expect(c.connection.state).toBe(HubConnectionState.Connected);
      expect(h.hubs.sendToUser("message", "bob", HUB_METHODS.receiveMessage, [{ id: "m-1" }])).toBe(1);
      await waitFor(() => bobMessages.received.length === 1);

      // a change that takes no household from anyone (a join, an administrator transfer) closes nothing
      h.families.set("carol", ["F1", "F2"]);
      h.bus.publish({ type: "family.members-changed", familyId: "F1" });
      publishDevice(h, "F1", "dev-3");
      await waitFor(() => alice.received.length === 2 && carol.received.length === 2);
      for (const c of [alice, carol, bobAgain]) expect(c.connection.state).toBe(HubConnectionState.Connected);
    });
  }

  it("accepts skipNegotiation with the WebSockets transport", async () => {
    const h = await startServer();
    const alice = await connect(h, "deviceChange", "token-alice", {
      skipNegotiation: true,
      transport: HttpTransportType.WebSockets,
    });
    expect(h.upgrades.at(-1)?.url).toBe(HUB_PATHS.deviceChange);
    publishDevice(h, "F1", "dev-1");
    await waitFor(() => alice.received.length === 1);
    expect(deviceIds(alice)).toEqual(["dev-1"]);
  });
});

describe("sessions and the per-user connection limit", () => {
  it("session.ended closes that session's connections on both hubs, not the user's other session", async () => {
    const h = await startServer();
    const ended = await connect(h, "deviceChange", "token-alice", {}, [0, 100]);
    const endedMessages = await connect(h, "message", "token-alice", {}, [0, 100]);
    const kept = await connect(h, "deviceChange", "token-alice-2");
    // A negotiation of the ending session that has not opened its WebSocket yet is forgotten too.
    const { connectionToken } = (await (await negotiate(h, "deviceChange", "token-alice")).json()) as {
      connectionToken: string;
    };
    let reconnecting = 0;
    ended.connection.onreconnecting(() => reconnecting++);
    const started = Date.now();
    h.tokens.delete("token-alice");
    h.bus.publish({ type: "session.ended", userId: "alice", sessionId: "token-alice" });
    const [e1, e2] = await Promise.all([ended.closedWith, endedMessages.closedWith]);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(String(e1)).toContain("session has ended");
    expect(String(e2)).toContain("session has ended");
    expect(reconnecting).toBe(0);
    expect(
      await upgradeStatus(`${h.base}${HUB_PATHS.deviceChange}?id=${connectionToken}&access_token=token-alice-2`),
    ).toBe(404);
    publishDevice(h, "F1", "dev-1");
    await waitFor(() => kept.received.length === 1);
    expect(kept.connection.state).toBe(HubConnectionState.Connected);
  });

  it("refuses a user's connection beyond the limit with 429 in the caller's language; others unaffected", async () => {
    const h = await startServer({ options: { maxConnectionsPerUser: 3 } });
    const held = [
      await connect(h, "deviceChange", "token-alice"),
      await connect(h, "message", "token-alice"),
      await connect(h, "deviceChange", "token-alice-2", {
        skipNegotiation: true,
        transport: HttpTransportType.WebSockets,
      }),
    ];
    const refused = await fetch(`${h.base}${HUB_PATHS.deviceChange}/negotiate?negotiateVersion=1`, {
      method: "POST",
      headers: { Authorization: "Bearer token-alice", "Accept-Language": "fr" },
    });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(await refused.json()).toMatchObject({
      success: false,
      error: { code: "TooManyRequests", message: "Trop de requêtes. Veuillez réessayer plus tard." },
      __abp: true,
    });
    expect(await upgradeStatus(`${h.base}${HUB_PATHS.message}?access_token=token-alice`)).toBe(429);
    await expect(build(h, "message", "token-alice-2").connection.start()).rejects.toThrow();
    // Another user has a budget of their own; a freed slot is usable again.
    await connect(h, "deviceChange", "token-bob");
    await held[0].connection.stop();
    await waitFor(() => h.hubs.connectionCount() === 3);
    await connect(h, "deviceChange", "token-alice");
    expect(h.hubs.connectionCount()).toBe(4);
  });

  it("pending negotiations count within the limit and are never dropped for newer ones; they expire", async () => {
    const h = await startServer({ options: { maxConnectionsPerUser: 3, negotiateTimeoutMs: 500 } });
    const pending: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await negotiate(h, "deviceChange", "token-alice");
      expect(res.status).toBe(200);
      pending.push(((await res.json()) as { connectionToken: string }).connectionToken);
    }
    expect((await negotiate(h, "deviceChange", "token-alice")).status).toBe(429);
    // The oldest is still there (the old cap dropped it): it attaches.
    expect(await upgradeStatus(`${h.base}${HUB_PATHS.deviceChange}?id=${pending[0]}&access_token=token-alice`)).toBe(
      101,
    );
    await new Promise((resolve) => setTimeout(resolve, 700));
    // The two that never attached have expired and freed their slots (the attached one was closed by the test).
    expect((await negotiate(h, "deviceChange", "token-alice")).status).toBe(200);
    expect((await negotiate(h, "deviceChange", "token-alice")).status).toBe(200);
  });

  it("60 clients of one user starting at once all connect (the old 16-negotiation cap lost some)", async () => {
    const h = await startServer();
    const many = Array.from({ length: 60 }, () => build(h, "deviceChange", "token-alice"));
    const results = await Promise.allSettled(many.map((c) => c.connection.start()));
    const connected = results.filter((r) => r.status === "fulfilled").length;
    console.log(`hub limit: ${connected} of 60 simultaneous clients of one user connected`);
    expect(connected).toBe(60);
    publishDevice(h, "F1", "dev-1");
    await waitFor(() => many.every((c) => c.received.length === 1));
  });
});

describe("hub 2: ReceiveMessage", () => {
  it("sendToUser reaches every connection of that user on that hub only", async () => {
    const h = await startServer();
    const alice1 = await connect(h, "message", "token-alice");
    const alice2 = await connect(h, "message", "token-alice");
    const aliceDevices = await connect(h, "deviceChange", "token-alice");
    const bob = await connect(h, "message", "token-bob");

    expect(h.hubs.sendToUser("message", "alice", HUB_METHODS.receiveMessage, [{ id: "m1" }, 2])).toBe(2);
    await waitFor(() => alice1.received.length === 1 && alice2.received.length === 1);
    expect(alice1.received[0]).toEqual([{ id: "m1" }, 2]);
    expect(h.hubs.sendToUser("message", "bob", HUB_METHODS.receiveMessage, ["m2"])).toBe(1);
    await waitFor(() => bob.received.length === 1);
    expect(bob.received).toEqual([["m2"]]);
    expect(aliceDevices.received).toEqual([]);
    expect(h.hubs.sendToUser("message", "nobody", HUB_METHODS.receiveMessage, [])).toBe(0);
  });
});

describe("keep-alive and timeouts", () => {
  const options: HubOptions = { keepAliveIntervalMs: 200, clientTimeoutMs: 800, handshakeTimeoutMs: 800 };

  it("pings keep an idle connection alive past the timeouts on both sides", async () => {
    const h = await startServer({ options });
    const client = build(h, "deviceChange", "token-alice");
    client.connection.serverTimeoutInMilliseconds = 800;
    client.connection.keepAliveIntervalInMilliseconds = 200;
    await client.connection.start();
    let closed = false;
    client.connection.onclose(() => {
      closed = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(closed).toBe(false);
    expect(client.connection.state).toBe(HubConnectionState.Connected);
    publishDevice(h, "F1", "dev-1");
    await waitFor(() => client.received.length === 1);
  });

  it("sends pings and closes a connection that stays silent longer than the client timeout", async () => {
    const h = await startServer({ options });
    const raw = await rawConnect(`${h.base}${HUB_PATHS.deviceChange}?access_token=token-alice`);
    raw.ws.send(HANDSHAKE);
    const started = Date.now();
    expect(await raw.closed).toBe(1000);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(700);
    expect(elapsed).toBeLessThan(3000);
    expect(raw.records[0]).toEqual({});
    expect(raw.records).toContainEqual({ type: 6 });
    expect(raw.records.at(-1)).toMatchObject({ type: 7, allowReconnect: true });
  });

  it("closes a connection that never sends its handshake", async () => {
    const h = await startServer({ options: { ...options, clientTimeoutMs: 10_000 } });
    const raw = await rawConnect(`${h.base}${HUB_PATHS.message}?access_token=token-bob`);
    await raw.closed;
    expect(raw.records).toEqual([{ type: 7, error: "Handshake was canceled.", allowReconnect: false }]);
  });

  it("forgets a negotiated connection that never opens its WebSocket", async () => {
    const h = await startServer({ options: { negotiateTimeoutMs: 200 } });
    const { connectionToken } = (await (await negotiate(h, "deviceChange", "token-alice")).json()) as {
      connectionToken: string;
    };
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(
      await upgradeStatus(`${h.base}${HUB_PATHS.deviceChange}?id=${connectionToken}&access_token=token-alice`),
    ).toBe(404);
  });
});

describe("connection tokens shared by the processes of a cluster", () => {
  const key = new Uint8Array(32).map((_, i) => (i * 37 + 11) % 251);
  const tokenOf = async (h: Harness, token: string, version = 1) => {
    const body = (await (await negotiate(h, "deviceChange", token, version)).json()) as {
      connectionId: string;
      connectionToken?: string;
    };
    return body.connectionToken ?? body.connectionId;
  };
  const at = (h: Harness, id: string, token: string) =>
    `${h.base}${HUB_PATHS.deviceChange}?id=${encodeURIComponent(id)}&access_token=${token}`;

  it("a token negotiated on one server attaches on another with the same key, never on one with another key", async () => {
    const one = await startServer({ tokenKey: key });
    const two = await startServer({ tokenKey: key });
    const other = await startServer();
    const v1 = await tokenOf(one, "token-alice");
    expect(await upgradeStatus(at(other, v1, "token-alice"))).toBe(404);
    expect(await upgradeStatus(at(two, v1, "token-bob"))).toBe(403);
    const raw = await rawConnect(at(two, v1, "token-alice"));
    raw.ws.send(HANDSHAKE);
    await waitFor(() => raw.records.length === 1);
    expect(two.hubs.connectionCount()).toBe(1);
    expect(one.hubs.connectionCount()).toBe(0);
    // Used once here: 409 while it lives. (Without a shared store, server one would still take it; with Redis it
    // does not: cluster-bus.test.ts.)
    expect(await upgradeStatus(at(two, v1, "token-alice"))).toBe(409);
    // Version 0: the connection id is the token.
    expect(await upgradeStatus(at(two, await tokenOf(one, "token-alice", 0), "token-alice"))).toBe(101);
  });

  it("a token from another server needs a slot of this server's per-user limit", async () => {
    const one = await startServer({ tokenKey: key });
    const two = await startServer({ tokenKey: key, options: { maxConnectionsPerUser: 1 } });
    await connect(two, "deviceChange", "token-alice");
    const foreign = await tokenOf(one, "token-alice");
    expect(await upgradeStatus(at(two, foreign, "token-alice"))).toBe(429);
    // Bob's budget on server two is his own.
    expect(await upgradeStatus(at(two, await tokenOf(one, "token-bob"), "token-bob"))).toBe(101);
  });

  it("the shared single-use store decides: taken elsewhere is 409; a store that fails does not lock users out", async () => {
    const claimed: Array<{ id: string; ttlMs: number }> = [];
    let answer: boolean | Error = false;
    const store: ConnectionTokenClaims = {
      async claim(id, ttlMs) {
        claimed.push({ id, ttlMs });
        if (answer instanceof Error) throw answer;
        return answer;
      },
    };
    const h = await startServer({ tokenKey: key, tokenClaims: store, options: { negotiateTimeoutMs: 5_000 } });
    const first = await tokenOf(h, "token-alice");
    expect(await upgradeStatus(at(h, first, "token-alice"))).toBe(409);
    expect(claimed).toHaveLength(1);
    expect(claimed[0].ttlMs).toBeGreaterThan(4_000);
    expect(claimed[0].ttlMs).toBeLessThanOrEqual(5_000);
    answer = true;
    expect(await upgradeStatus(at(h, await tokenOf(h, "token-alice"), "token-alice"))).toBe(101);
    answer = new Error("Redis away");
    expect(await upgradeStatus(at(h, await tokenOf(h, "token-alice"), "token-alice"))).toBe(101);
    // skipNegotiation never asks the store.
    const before = claimed.length;
    expect(await upgradeStatus(`${h.base}${HUB_PATHS.deviceChange}?access_token=token-alice`)).toBe(101);
    expect(claimed).toHaveLength(before);
  });
});

describe("reconnectAll after a gap in the backplane", () => {
  it("asks every connection to reconnect with Resync; the official client comes back and receives again", async () => {
    const h = await startServer();
    const official = await connect(h, "deviceChange", "token-alice", {}, [0, 100]);
    const messages = await connect(h, "message", "token-bob", {}, [0, 100]);
    const raw = await rawConnect(`${h.base}${HUB_PATHS.deviceChange}?access_token=token-bob`);
    raw.ws.send(HANDSHAKE);
    await waitFor(() => raw.records.length === 1);
    let reconnected = 0;
    official.connection.onreconnected(() => reconnected++);
    messages.connection.onreconnected(() => reconnected++);
    expect(h.hubs.reconnectAll()).toBe(3);
    expect(await raw.closed).toBe(1000);
    expect(raw.records.at(-1)).toEqual({ type: 7, error: HubCloseReason.Resync, allowReconnect: true });
    await waitFor(() => reconnected === 2);
    expect(h.hubs.connectionCount()).toBe(2);
    publishDevice(h, "F1", "dev-after");
    await waitFor(() => deviceIds(official).includes("dev-after"));
  });
});

describe("WebSockets transport and JSON hub protocol by hand", () => {
  it("attaches a negotiated connection with the token in the query, once", async () => {
    const h = await startServer();
    const { connectionToken } = (await (await negotiate(h, "deviceChange", "token-alice")).json()) as {
      connectionToken: string;
    };
    const url = `${h.base}${HUB_PATHS.deviceChange}?id=${encodeURIComponent(connectionToken)}`;
    // another user's token, or the other hub's path, cannot take over this connection
    expect(await upgradeStatus(`${url}&access_token=token-bob`)).toBe(403);
    expect(await upgradeStatus(`${h.base}${HUB_PATHS.message}?id=${connectionToken}&access_token=token-alice`)).toBe(
      404,
    );

    const raw = await rawConnect(`${url}&access_token=token-alice`);
    raw.ws.send(HANDSHAKE);
    await waitFor(() => raw.records.length === 1);
    expect(raw.records[0]).toEqual({});
    expect(await upgradeStatus(`${url}&access_token=token-alice`)).toBe(409);
    expect(await upgradeStatus(`${h.base}${HUB_PATHS.deviceChange}?id=unknown&access_token=token-alice`)).toBe(404);

    const sent = publishDevice(h, "F1", "dev-1");
    await waitFor(() => raw.records.length === 2);
    expect(raw.records[1]).toEqual({
      type: 1,
      target: HUB_METHODS.deviceChange,
      arguments: [JSON.stringify(sent)],
    });
  });

  it("answers an unknown client invocation with an error completion, and ignores one without invocationId", async () => {
    const h = await startServer();
    const raw = await rawConnect(`${h.base}${HUB_PATHS.message}`, { Authorization: "Bearer token-carol" });
    // handshake and the first messages in one frame, a message split across two frames
    raw.ws.send(`${HANDSHAKE}{"type":6}\u001e{"type":1,"target":"Fire","arguments":[]}\u001e{"type":1,"invoc`);
    raw.ws.send('ationId":"1","target":"Echo","arguments":["x"]}\u001e');
    await waitFor(() => raw.records.length === 2);
    expect(raw.records).toEqual([
      {},
      {
        type: 3,
        invocationId: "1",
        error: "Failed to invoke 'Echo' due to an error on the server. HubException: Method does not exist.",
      },
    ]);
  });

  it("answers a handshake for an unsupported protocol with an error and closes", async () => {
    const h = await startServer();
    const raw = await rawConnect(`${h.base}${HUB_PATHS.deviceChange}?access_token=token-alice`);
    raw.ws.send('{"protocol":"messagepack","version":1}\u001e');
    await raw.closed;
    expect(raw.records).toEqual([{ error: "The protocol 'messagepack' is not supported." }]);
  });

  it("leaves upgrade requests for other paths to other listeners", async () => {
    const h = await startServer();
    let seen = false;
    h.app.server.on("upgrade", (req, socket: Duplex) => {
      if (!req.url?.startsWith("/other")) return;
      seen = true;
      socket.end("HTTP/1.1 418 I'm a teapot\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
    });
    expect(await upgradeStatus(`${h.base}/other?access_token=token-alice`)).toBe(418);
    expect(seen).toBe(true);
  });

  it("close() ends every connection and lets the app close", async () => {
    const h = await startServer();
    const alice = await connect(h, "deviceChange", "token-alice");
    const raw = await rawConnect(`${h.base}${HUB_PATHS.message}?access_token=token-bob`);
    raw.ws.send(HANDSHAKE);
    await waitFor(() => raw.records.length === 1);
    await h.hubs.close();
    expect(h.hubs.connectionCount()).toBe(0);
    await alice.closedWith;
    expect(await raw.closed).toBe(1000);
    expect(raw.records.at(-1)).toEqual({ type: 7, error: "Server is shutting down.", allowReconnect: true });
    expect(h.hubs.sendToUser("deviceChange", "alice", "X", [])).toBe(0);
  });
});
