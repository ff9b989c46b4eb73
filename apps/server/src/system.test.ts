import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  endpoints,
  HUB_METHODS,
  HUB_PATHS,
  type TDeviceChangeMessage,
  ZDeviceChangeMessage,
} from "@aquapilot/contract";
import { DEMO_ACCOUNT, type DevSystem, startDevSystem } from "@aquapilot/dev";
import { HttpTransportType, type HubConnection, HubConnectionBuilder, LogLevel } from "@microsoft/signalr";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../test/call.ts";
import { loadConfig } from "./config.ts";

/**
 * The walking skeleton's spine, all real parts: simulated softener → MQTT (embedded Aedes) → gateway → SQLite →
 * bus → SignalR hub 1 → the official @microsoft/signalr client; and browser-side REST on the same process.
 */
describe("whole system in one process", () => {
  let system: DevSystem;
  let dataDir: string;
  let token: string;
  let familyId: string;

  async function passwordToken(username: string, password: string): Promise<string> {
    const res = await fetch(`${system.url}/connect/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "password", username, password }),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { access_token: string }).access_token;
  }

  function connectHub1(accessToken: string): HubConnection {
    return new HubConnectionBuilder()
      .withUrl(`${system.url}${HUB_PATHS.deviceChange}`, {
        accessTokenFactory: () => accessToken,
        transport: HttpTransportType.WebSockets,
      })
      .configureLogging(LogLevel.None)
      .build();
  }

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "aq-system-"));
    const config = loadConfig({
      APP_ENV: "test",
      PORT: "0",
      MQTT_PORT: "0",
      DATA_DIR: dataDir,
      SIM_DEVICES: "2",
      SIM_TIME_SCALE: "1",
      LOG_LEVEL: "silent",
    });
    system = await startDevSystem(config);
    token = await passwordToken(DEMO_ACCOUNT.email, DEMO_ACCOUNT.password);
    const families = await call(system, endpoints.getFamilies, { as: token });
    familyId = families.result.items[0].id;
  });

  afterAll(async () => {
    await system?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("seeds the demo owner with the simulated devices, which come online", async () => {
    expect(system.demo).toEqual({ email: DEMO_ACCOUNT.email, password: DEMO_ACCOUNT.password });
    await expect
      .poll(
        async () => {
          const list = await call(system, endpoints.getFamilyDevices, { as: token, query: { familyId } });
          return list.result.map((d) => [d.online, d.station]);
        },
        { timeout: 10_000 },
      )
      .toEqual([
        [true, 0],
        [true, 0],
      ]);
  });

  it("a regeneration started on the device reaches the owner's hub connection, and a stranger's sees nothing", async () => {
    const owner = connectHub1(token);
    const received: TDeviceChangeMessage[] = [];
    owner.on(HUB_METHODS.deviceChange, (json: string) => received.push(ZDeviceChangeMessage.parse(JSON.parse(json))));
    await owner.start();

    // A stranger with a family of their own: registered through the real account flow and the outbox.
    const email = `stranger-${Date.now()}@example.com`;
    expect((await call(system, endpoints.sendEmailPasswordCode, { query: { email } })).status).toBe(200);
    const outbox = (await (await fetch(`${system.url}/dev/outbox?recipient=${encodeURIComponent(email)}`)).json()) as
      | Array<{ body: string }>
      | { result: Array<{ body: string }> };
    const mails = Array.isArray(outbox) ? outbox : outbox.result;
    const code = /\b(\d{6})\b/.exec(mails[0].body)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    const reg = await call(system, endpoints.register, {
      query: { bindType: "1", account: email, password: "secret12", code: code!, serviceRegion: "2" },
    });
    expect(reg.status).toBe(200);
    const strangerToken = await passwordToken(email, "secret12");
    const stranger = connectHub1(strangerToken);
    const strangerReceived: string[] = [];
    stranger.on(HUB_METHODS.deviceChange, (json: string) => strangerReceived.push(json));
    await stranger.start();

    const device = system.fleet.devices[0];
    device.startRegeneration();
    await expect
      .poll(() => received.find((m) => m.mac === device.mac && m.kind === "state" && m.station !== 0), {
        timeout: 10_000,
      })
      .toBeTruthy();
    const change = received.find((m) => m.mac === device.mac && m.station !== 0)!;
    expect(change.familyId).toBe(familyId);
    expect(change.online).toBe(true);

    // The stranger cannot read the family's devices either.
    const denied = await call(system, endpoints.getFamilyDevices, { as: strangerToken, query: { familyId } });
    expect(denied.status).toBe(404);
    expect(denied.body.success).toBe(false);
    expect(denied.body.result).toBeNull();
    expect(strangerReceived).toEqual([]);

    await owner.stop();
    await stranger.stop();
  });

  it("a device that drops off is marked offline by the broker's will message and the owner is told", async () => {
    const owner = connectHub1(token);
    const received: TDeviceChangeMessage[] = [];
    owner.on(HUB_METHODS.deviceChange, (json: string) => received.push(ZDeviceChangeMessage.parse(JSON.parse(json))));
    await owner.start();
    const device = system.fleet.devices[1];
    device.goOffline();
    await expect.poll(() => received.find((m) => m.mac === device.mac && !m.online), { timeout: 10_000 }).toBeTruthy();
    const list = await call(system, endpoints.getFamilyDevices, { as: token, query: { familyId } });
    expect(list.result.find((d) => d.mac === device.mac)?.online).toBe(false);
    await device.goOnline();
    await expect
      .poll(() => received.filter((m) => m.mac === device.mac).at(-1)?.online, { timeout: 10_000 })
      .toBe(true);
    await owner.stop();
  });

  it("query-device-info sends a query command to the device and answers its reported state", async () => {
    const list = await call(system, endpoints.getFamilyDevices, { as: token, query: { familyId } });
    const target = list.result[0];
    const info = await call(system, endpoints.queryDeviceInfo, { as: token, query: { deviceId: target.id } });
    expect(info.status).toBe(200);
    expect(info.result.mac).toBe(target.mac);
    expect(info.result.commandId).toBeTruthy();
    const sim = system.fleet.get(target.mac)!;
    await expect
      .poll(() => sim.appliedCommands.some((c) => c.id === info.result.commandId), { timeout: 10_000 })
      .toBe(true);
  });
  it("a member who joins by share code receives the family's device changes, and stops at once when leaving", async () => {
    // A second owner, registered through the real account flow.
    const email = `member-${Date.now()}@example.com`;
    await call(system, endpoints.sendEmailPasswordCode, { query: { email } });
    const rows = (await (await fetch(`${system.url}/dev/outbox?recipient=${encodeURIComponent(email)}`)).json()) as
      | Array<{ body: string }>
      | { result: Array<{ body: string }> };
    const code = /\b(\d{6})\b/.exec((Array.isArray(rows) ? rows : rows.result)[0].body)?.[1];
    const reg = await call(system, endpoints.register, {
      query: { bindType: "1", account: email, password: "member12", code: code!, serviceRegion: "2" },
    });
    expect(reg.status).toBe(200);
    const memberToken = await passwordToken(email, "member12");

    const share = await call(system, endpoints.getShareCode, { as: token, query: { familyId } });
    expect(share.status).toBe(200);
    const joined = await call(system, endpoints.analysisCode, { as: memberToken, query: { code: share.result.code } });
    expect(joined.status).toBe(200);

    const member = connectHub1(memberToken);
    const received: TDeviceChangeMessage[] = [];
    member.on(HUB_METHODS.deviceChange, (json: string) => received.push(ZDeviceChangeMessage.parse(JSON.parse(json))));
    await member.start();
    const device = system.fleet.devices[0];
    device.publishState();
    await expect.poll(() => received.some((m) => m.mac === device.mac), { timeout: 10_000 }).toBe(true);

    const left = await call(system, endpoints.withdrawFromFamily, { as: memberToken, query: { familyId } });
    expect(left.status).toBe(200);
    received.length = 0;
    device.publishState();
    // The owner still hears the device; the member who left hears nothing, and REST refuses the family's devices.
    const owner = connectHub1(token);
    const ownerReceived: string[] = [];
    owner.on(HUB_METHODS.deviceChange, (json: string) => ownerReceived.push(json));
    await owner.start();
    device.publishState();
    await expect.poll(() => ownerReceived.length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(received).toEqual([]);
    const denied = await call(system, endpoints.getFamilyDevices, { as: memberToken, query: { familyId } });
    expect(denied.status).toBe(404);
    expect(denied.body.result).toBeNull();
    await member.stop();
    await owner.stop();
  });
});
