import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Duplex } from "node:stream";
import { deviceTopic, endpoints, HUB_METHODS, HUB_PATHS, type TMessage } from "@aquapilot/contract";
import { DEMO_ACCOUNT, type DevSystem, startDevSystem } from "@aquapilot/dev";
import {
  HttpTransportType,
  type HubConnection,
  HubConnectionBuilder,
  HubConnectionState,
  LogLevel,
} from "@microsoft/signalr";
import mqtt from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, okResult } from "../../../test/call.ts";
import { loadConfig } from "../../config.ts";

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Hub 2 end to end, all real parts: simulated softener → MQTT (embedded Aedes) → gateway → message center →
 * SQLite → bus → SignalR hub 2 → the official @microsoft/signalr client (spec §7 "Hub 2 … ReceiveMessage").
 */
describe("messages over hub 2 with a simulated softener", () => {
  let system: DevSystem;
  let dataDir: string;
  let ownerToken: string;
  let memberToken: string;
  let familyId: string;
  const connections: HubConnection[] = [];
  /** Server-side sockets of every WebSocket upgrade, newest last (to drop one). */
  const upgrades: Array<{ url: string; socket: Duplex }> = [];

  async function token(username: string, password: string): Promise<string> {
    const res = await fetch(`${system.url}/connect/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "password", username, password }),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { access_token: string }).access_token;
  }

  async function connectHub2(accessToken: string, reconnectDelays = [0, 200, 500, 1000]) {
    const received: TMessage[] = [];
    const states: string[] = [];
    const connection = new HubConnectionBuilder()
      .withUrl(`${system.url}${HUB_PATHS.message}`, {
        accessTokenFactory: () => accessToken,
        transport: HttpTransportType.WebSockets,
      })
      .withAutomaticReconnect(reconnectDelays)
      .configureLogging(LogLevel.None)
      .build();
    connection.on(HUB_METHODS.receiveMessage, (m: TMessage) => received.push(m));
    connection.onreconnecting(() => states.push("connecting"));
    connection.onreconnected(() => states.push("connected"));
    connections.push(connection);
    await connection.start();
    return { connection, received, states };
  }

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "aq-messages-"));
    system = await startDevSystem(
      loadConfig({
        APP_ENV: "test",
        PORT: "0",
        MQTT_PORT: "0",
        DATA_DIR: dataDir,
        SIM_DEVICES: "1",
        SIM_TIME_SCALE: "1",
        LOG_LEVEL: "silent",
      }),
    );
    system.app.server.on("upgrade", (req, socket: Duplex) => upgrades.push({ url: req.url ?? "", socket }));
    ownerToken = await token(DEMO_ACCOUNT.email, DEMO_ACCOUNT.password);
    familyId = (await okResult(call(system, endpoints.getFamilies, { as: ownerToken }))).items[0].id;

    // A second member registers (code from the dev outbox), sets French, and joins by the household's QR code.
    const email = "member@home.test";
    await call(system, endpoints.sendEmailPasswordCode, { query: { email } });
    const outbox = (await (await fetch(`${system.url}/dev/outbox?recipient=${email}`)).json()) as Array<{
      body: string;
    }>;
    const code = outbox[0].body.match(/\b(\d{6})\b/)?.[1] as string;
    const reg = await call(system, endpoints.register, {
      query: { bindType: "1", account: email, password: "pass-word-1", code, serviceRegion: "2" },
      lang: "fr",
    });
    expect(reg.status).toBe(200);
    memberToken = await token(email, "pass-word-1");
    await system.db.updateTable("users").set({ language_type: "fr" }).where("email", "=", email).execute();
    const share = await okResult(call(system, endpoints.getShareCode, { as: ownerToken, query: { familyId } }));
    await okResult(call(system, endpoints.analysisCode, { as: memberToken, query: { code: share.code } }));
    await system.db.updateTable("users").set({ language_type: "en" }).where("email", "=", DEMO_ACCOUNT.email).execute();
    await until(() => system.fleet.devices[0].connected);
  });

  afterAll(async () => {
    await Promise.all(connections.map((c) => c.stop().catch(() => undefined)));
    await system?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("delivers a leak on the softener once to both members' hub-2 connections, each in their language", async () => {
    const owner = await connectHub2(ownerToken);
    const member = await connectHub2(memberToken);
    system.fleet.devices[0].injectClose(513);
    await expect.poll(() => owner.received.length + member.received.length, { timeout: 5000 }).toBe(2);
    await new Promise((r) => setTimeout(r, 500)); // nothing more arrives
    expect(owner.received).toHaveLength(1);
    expect(member.received).toHaveLength(1);
    expect(owner.received[0]).toMatchObject({ type: 1, event: "leak", closeReason: 513, title: "Leak detected" });
    expect(member.received[0]).toMatchObject({ event: "leak", title: "Fuite détectée", isRead: false });
    const list = await okResult(call(system, endpoints.getUserMessageList, { as: ownerToken }));
    expect(list.items[0]).toEqual(owner.received[0]);
    await owner.connection.stop();
    await member.connection.stop();
  });

  it("stores a redelivered device event once (same event id published twice over MQTT)", async () => {
    const owner = await connectHub2(ownerToken);
    const device = system.fleet.devices[0];
    const [pairing] = system.pairingCodes;
    const [mac, secret] = pairing.split(":");
    await device.stop(); // free the device's client id for the stand-in below
    const client = await mqtt.connectAsync(system.deviceLink.brokerUrl, {
      clientId: mac,
      username: mac,
      password: secret,
      reconnectPeriod: 0,
    });
    const event = JSON.stringify({
      v: 1,
      ts: new Date().toISOString(),
      id: "redelivered-1",
      type: "close",
      closeReason: 1025,
    });
    await client.publishAsync(deviceTopic(mac, "event"), event, { qos: 1 });
    await client.publishAsync(deviceTopic(mac, "event"), event, { qos: 1 });
    await client.endAsync();
    await system.deviceLink.gateway.idle();
    await expect.poll(() => owner.received.length, { timeout: 5000 }).toBe(1);
    await new Promise((r) => setTimeout(r, 300));
    expect(owner.received.map((m) => m.event)).toEqual(["excessive-flow"]);
    const flows = await system.db
      .selectFrom("messages")
      .select("user_id")
      .where("event", "=", "excessive-flow")
      .execute();
    expect(flows).toHaveLength(2);
    await device.start();
    await expect.poll(() => device.connected, { timeout: 10_000 }).toBe(true);
    await owner.connection.stop();
  });

  it("reconnects a dropped socket; a message stored while disconnected is in the list afterwards", async () => {
    const owner = await connectHub2(ownerToken, [800, 800, 800]);
    const socket = upgrades.filter((u) => u.url.startsWith(HUB_PATHS.message)).at(-1)?.socket;
    expect(socket).toBeDefined();
    socket?.destroy();
    await expect.poll(() => owner.states, { timeout: 5000 }).toEqual(["connecting"]);
    expect(owner.connection.state).toBe(HubConnectionState.Reconnecting);
    const missed = await okResult(call(system, endpoints.testSendMessage, { as: ownerToken }));
    await expect.poll(() => owner.states, { timeout: 5000 }).toEqual(["connecting", "connected"]);
    expect(owner.received.map((m) => m.id)).not.toContain(missed.id);
    const list = await okResult(call(system, endpoints.getUserMessageList, { as: ownerToken }));
    expect(list.items.map((m) => m.id)).toContain(missed.id);
    // And live delivery works again on the new socket.
    const live = await okResult(call(system, endpoints.testSendMessage, { as: ownerToken }));
    await expect.poll(() => owner.received.map((m) => m.id), { timeout: 5000 }).toContain(live.id);
    await owner.connection.stop();
  });

  it("sends nothing more to a member who left the household", async () => {
    const owner = await connectHub2(ownerToken);
    const member = await connectHub2(memberToken);
    await okResult(call(system, endpoints.withdrawFromFamily, { as: memberToken, query: { familyId } }));
    const before = await okResult(call(system, endpoints.getUserMessageList, { as: memberToken }));
    system.fleet.devices[0].injectClose(769);
    await expect.poll(() => owner.received.length, { timeout: 5000 }).toBe(1);
    await new Promise((r) => setTimeout(r, 500));
    expect(owner.received[0].event).toBe("continuous-use");
    expect(member.received).toEqual([]);
    const after = await okResult(call(system, endpoints.getUserMessageList, { as: memberToken }));
    expect(after.totalCount).toBe(before.totalCount);
  });
});
