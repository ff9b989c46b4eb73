import { HUB_METHODS, HUB_PATHS, type TDeviceChangeMessage } from "@aquapilot/contract";
import {
  HttpTransportType,
  type HubConnection,
  HubConnectionBuilder,
  HubConnectionState,
  type IRetryPolicy,
  LogLevel,
} from "@microsoft/signalr";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, openTestDatabase, type TestDatabase } from "../../test/databases.ts";
import { insertFamily, insertMember, insertUser } from "../../test/factories.ts";
import { RecordingDevicePort } from "../../test/helpers.ts";
import { buildApp, createLogger } from "../app.ts";
import { InProcessBus } from "../bus.ts";
import { type AppConfig, loadConfig } from "../config.ts";
import { accountHubAuth, type Hubs, registerHubs } from "./index.ts";

/**
 * Reconnect suite: 200 hub-1 clients of one user and 200 of 20 users (10 each, in 5 households),
 * all with the official @microsoft/signalr client and a jittered, never-ending reconnect policy like the app's,
 * survive a server restart — the Fastify app stopped and a new one started on the same port and database: every
 * client comes back on its own, and a device change published after the restart reaches every client of its
 * household and no other.
 */

const SOLO_CLIENTS = 200;
const USERS = 20;
const CLIENTS_PER_USER = 10;
const HOUSEHOLDS = 5;

/** Jittered exponential backoff, 100 ms doubling to at most 2 s, never null (the app's shape, shorter steps). */
const retryForever: IRetryPolicy = {
  nextRetryDelayInMilliseconds: ({ previousRetryCount }) => {
    const ceiling = Math.min(2000, 100 * 2 ** previousRetryCount);
    return ceiling / 2 + Math.random() * (ceiling / 2);
  },
};

interface Server {
  app: FastifyInstance;
  bus: InProcessBus;
  hubs: Hubs;
}

interface Client {
  connection: HubConnection;
  familyId: string;
  /** family ids of the device changes received */
  received: string[];
  reconnectedAt: number | null;
  closed: boolean;
}

async function waitFor(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`${what}: not reached in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function deviceChange(familyId: string, deviceId: string): TDeviceChangeMessage {
  return {
    kind: "state",
    deviceId,
    mac: "AABBCCDDEE01",
    familyId,
    online: true,
    station: 1,
    stationRemainingSeconds: null,
    remainingWaterL: 1000,
    flowRateLpm: 0,
    lastReportTime: new Date().toISOString(),
    event: null,
  };
}

describe.each(ENGINES)("reconnect suite on %s", (engine) => {
  let database: TestDatabase;
  let config: AppConfig;
  let server: Server;
  let port = 0;
  const clients: Client[] = [];
  const families: string[] = [];

  async function startServer(): Promise<Server> {
    const bus = new InProcessBus();
    const app = buildApp({
      config,
      db: database.db,
      bus,
      devices: new RecordingDevicePort(),
      logger: createLogger(config),
    });
    const hubs = registerHubs(app, { bus, auth: accountHubAuth(app.auth, database.db) });
    await app.listen({ port, host: "127.0.0.1" });
    const address = app.server.address();
    port = typeof address === "object" && address ? address.port : port;
    return { app, bus, hubs };
  }

  async function stopServer(s: Server): Promise<void> {
    await s.app.close(); // closes the hubs first (preClose): Close with allowReconnect true to every client
    await s.bus.close();
  }

  function publishToEveryFamily(s: Server, tag: string): void {
    for (const familyId of families) {
      s.bus.publish({
        type: "device.changed",
        familyId,
        deviceId: `${tag}-${familyId}`,
        message: deviceChange(familyId, `${tag}-${familyId}`),
      });
    }
  }

  beforeAll(async () => {
    database = await openTestDatabase(engine);
    config = loadConfig({ APP_ENV: "test", LOG_LEVEL: "silent", DATA_DIR: database.dataDir });
    server = await startServer();
    const db = database.db;
    const solo = await insertUser(db, "solo");
    families.push(await insertFamily(db, "solo", solo));
    const users: Array<{ id: string; familyId: string }> = [];
    for (let h = 0; h < HOUSEHOLDS; h++) {
      const members: string[] = [];
      for (let m = 0; m < USERS / HOUSEHOLDS; m++) members.push(await insertUser(db, `member-${h}-${m}`));
      const familyId = await insertFamily(db, `house-${h}`, members[0]);
      for (const member of members.slice(1)) await insertMember(db, familyId, member, false);
      families.push(familyId);
      for (const id of members) users.push({ id, familyId });
    }
    const tokenOf = async (id: string) => {
      const user = await db
        .selectFrom("users")
        .select(["id", "user_name", "security_stamp"])
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
      return (await server.app.auth.issueTokens(user)).access_token;
    };
    const plan: Array<{ token: string; familyId: string }> = [];
    const soloToken = await tokenOf(solo);
    for (let i = 0; i < SOLO_CLIENTS; i++) plan.push({ token: soloToken, familyId: families[0] });
    for (const user of users) {
      const token = await tokenOf(user.id);
      for (let i = 0; i < CLIENTS_PER_USER; i++) plan.push({ token, familyId: user.familyId });
    }
    for (const { token, familyId } of plan) {
      const connection = new HubConnectionBuilder()
        .withUrl(`http://127.0.0.1:${port}${HUB_PATHS.deviceChange}`, {
          accessTokenFactory: () => token,
          transport: HttpTransportType.WebSockets,
        })
        .withAutomaticReconnect(retryForever)
        .configureLogging(LogLevel.None)
        .build();
      const client: Client = { connection, familyId, received: [], reconnectedAt: null, closed: false };
      connection.on(HUB_METHODS.deviceChange, (json: string) =>
        client.received.push((JSON.parse(json) as TDeviceChangeMessage).familyId ?? "none"),
      );
      connection.onreconnected(() => {
        client.reconnectedAt = Date.now();
      });
      connection.onclose(() => {
        client.closed = true;
      });
      clients.push(client);
    }
    // All 400 start at once, as after an app update pushed to every open tab.
    await Promise.all(clients.map((c) => c.connection.start()));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.connection.stop().catch(() => undefined)));
    if (server) await stopServer(server);
    await database?.close();
  });

  it("all 400 clients come back after a restart on the same port and database, and device changes resume", async () => {
    const total = SOLO_CLIENTS + USERS * CLIENTS_PER_USER;
    expect(clients).toHaveLength(total);
    expect(server.hubs.connectionCount()).toBe(total);
    publishToEveryFamily(server, "before");
    await waitFor(() => clients.every((c) => c.received.length === 1), 20_000, "delivery before the restart");

    const stoppedAt = Date.now();
    await stopServer(server);
    const downMs = Date.now() - stoppedAt;
    await waitFor(
      () => clients.every((c) => c.connection.state === HubConnectionState.Reconnecting),
      10_000,
      "every client reconnecting",
    );
    server = await startServer();
    const restartedAt = Date.now();
    await waitFor(() => clients.every((c) => c.reconnectedAt !== null), 60_000, "every client back");
    const back = clients.filter((c) => c.connection.state === HubConnectionState.Connected).length;
    const slowest = Math.max(...clients.map((c) => (c.reconnectedAt ?? 0) - restartedAt));
    expect(back).toBe(total);
    expect(clients.filter((c) => c.closed)).toHaveLength(0);
    await waitFor(() => server.hubs.connectionCount() === total, 10_000, "server-side connection count");

    publishToEveryFamily(server, "after");
    await waitFor(() => clients.every((c) => c.received.length === 2), 20_000, "delivery after the restart");
    // Each client got exactly its own household's change, before and after; nothing of anyone else's.
    for (const c of clients) expect(c.received).toEqual([c.familyId, c.familyId]);
    const soloBack = clients.slice(0, SOLO_CLIENTS).filter((c) => c.reconnectedAt !== null).length;
    console.log(
      `reconnect (${engine}): ${back}/${total} clients back (${soloBack}/${SOLO_CLIENTS} of one user, ` +
        `${back - soloBack}/${USERS * CLIENTS_PER_USER} of ${USERS} users) within ${slowest} ms of the restart ` +
        `(stop took ${downMs} ms); ${clients.filter((c) => c.received.length === 2).length}/${total} received the ` +
        "device change after it; 0 closed, 0 lost",
    );
  }, 120_000);
});
