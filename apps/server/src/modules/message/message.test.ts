import { randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createTestApp, registerByEmail, type TestApp } from "../../../test/helpers.ts";
import { VAPID_KEY_FILE } from "../../notify/push/index.ts";
import { provisionDevice } from "../devices/provision.ts";

const MSG = "/api/push-service/app/message";
const JPUSH = "/api/push-service/app/jpush";
const SWITCH = "/api/RunLuckyIot/appuser_setting/app/setting/is_open_jpush__message/";
const WEB_PUSH = "/api/push-service/app/web-push";

type Call = (
  method: "GET" | "POST",
  url: string,
  auth: string | null,
  opts?: { query?: Record<string, string>; payload?: object; lang?: string },
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies of the API under test
) => Promise<{ statusCode: number; json: () => any }>;

function caller(t: () => TestApp): Call {
  return (method, url, auth, opts = {}) =>
    t().app.inject({
      method,
      url,
      query: opts.query,
      ...(opts.payload ? { payload: opts.payload } : {}),
      headers: { ...(auth ? { authorization: auth } : {}), "accept-language": opts.lang ?? "en" },
    });
}

/** Owner (en) and member (fr) share a household with the device "Kitchen"; the stranger is elsewhere. */
async function household(t: TestApp, prefix: string) {
  const ownerId = await registerByEmail(t.app, `${prefix}-owner@home.test`, "pass-word-1");
  const memberId = await registerByEmail(t.app, `${prefix}-member@home.test`, "pass-word-1");
  const strangerId = await registerByEmail(t.app, `${prefix}-stranger@home.test`, "pass-word-1");
  await t.db.updateTable("users").set({ language_type: "en" }).where("id", "=", ownerId).execute();
  await t.db.updateTable("users").set({ language_type: "fr" }).where("id", "=", memberId).execute();
  const owner = await bearer(t.app, `${prefix}-owner@home.test`, "pass-word-1");
  const member = await bearer(t.app, `${prefix}-member@home.test`, "pass-word-1");
  const stranger = await bearer(t.app, `${prefix}-stranger@home.test`, "pass-word-1");
  const created = await t.app.inject({
    method: "POST",
    url: "/api/run-lucky/device/app/family/",
    payload: { name: "Home", address: "Bund, Shanghai", longitude: 121.491, latitude: 31.233 },
    headers: { authorization: owner },
  });
  const familyId = created.json().result.id as string;
  await t.db
    .insertInto("family_members")
    .values({
      id: randomUUID(),
      family_id: familyId,
      user_id: memberId,
      is_admin: 0,
      creation_time: new Date().toISOString(),
    })
    .execute();
  const mac = randomUUID().replace(/-/g, "").slice(0, 12).toUpperCase();
  const device = await provisionDevice(t.db, { mac, secret: "s", name: "Kitchen" });
  await t.db.updateTable("devices").set({ family_id: familyId }).where("id", "=", device.id).execute();
  return { ownerId, memberId, strangerId, owner, member, stranger, familyId, deviceId: device.id };
}

async function storeEvent(
  t: TestApp,
  deviceId: string,
  e: { type: string; closeReason?: number | null; progress?: number | null },
): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  await t.db
    .insertInto("device_events")
    .values({
      id,
      device_id: deviceId,
      type: e.type,
      close_reason: e.closeReason ?? null,
      station: null,
      ts: now,
      received_at: now,
      progress: e.progress ?? null,
    })
    .execute();
  return id;
}

describe("message centre over HTTP (spec §7 push-service/app/message, issue 5)", () => {
  let t: TestApp;
  let clock = Date.parse("2026-03-01T08:00:00.000Z");
  let h: Awaited<ReturnType<typeof household>>;
  const call = caller(() => t);

  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date(clock) });
    h = await household(t, "mc");
  });
  afterAll(() => t.close());

  it("answers 401 to anonymous callers on every call", async () => {
    for (const [method, url] of [
      ["GET", `${MSG}/get-message-type-list`],
      ["GET", `${MSG}/get-user-message-list`],
      ["GET", `${MSG}/get-message-detail?id=x`],
      ["POST", `${MSG}/set-message-read`],
      ["POST", `${MSG}/set-message-all-read`],
      ["POST", `${MSG}/test-send-message`],
      ["POST", `${JPUSH}/app-device-binding?registrationId=r`],
      ["POST", `${JPUSH}/app-device-unbinding?registrationId=r`],
      ["GET", SWITCH],
      ["POST", `${SWITCH}?isOpen=false`],
      ["GET", `${WEB_PUSH}/public-key`],
    ] as const) {
      const res = await call(method, url, null);
      expect(res.statusCode, url).toBe(401);
      expect(res.json().unAuthorizedRequest).toBe(true);
    }
  });

  it("names the message types in the caller's language", async () => {
    expect((await call("GET", `${MSG}/get-message-type-list`, h.owner)).json().result).toEqual([
      { value: 1, name: "Device alarm" },
      { value: 2, name: "Device notice" },
      { value: 3, name: "Announcement" },
    ]);
    const zh = (await call("GET", `${MSG}/get-message-type-list`, h.owner, { lang: "zh-CN" })).json().result;
    expect(zh.map((x: { name: string }) => x.name)).toEqual(["设备告警", "设备通知", "平台公告"]);
  });

  it("writes one message per member for a leak, in each member's language, however often it is derived", async () => {
    const eventId = await storeEvent(t, h.deviceId, { type: "close", closeReason: 513 });
    const counts = await Promise.all([1, 2, 3].map(() => t.app.messages.fromDeviceEvent(h.deviceId, eventId)));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(2);
    expect(await t.app.messages.fromDeviceEvent(h.deviceId, eventId)).toBe(0);

    const mine = (await call("GET", `${MSG}/get-user-message-list`, h.owner)).json().result;
    expect(mine.totalCount).toBe(1);
    expect(mine.items[0]).toMatchObject({
      type: 1,
      event: "leak",
      closeReason: 513,
      title: "Leak detected",
      deviceId: h.deviceId,
      deviceName: "Kitchen",
      familyId: h.familyId,
      isRead: false,
      readTime: null,
    });
    expect(mine.items[0].content).toContain("Kitchen");
    const theirs = (await call("GET", `${MSG}/get-user-message-list`, h.member, { lang: "fr" })).json().result;
    expect(theirs.totalCount).toBe(1);
    expect(theirs.items[0]).toMatchObject({ title: "Fuite détectée", event: "leak" });
    expect(theirs.items[0].id).not.toBe(mine.items[0].id);
    // Read in another language, the same stored message is worded in that language (issue 10).
    const inRussian = await t.app.inject({
      method: "GET",
      url: `${MSG}/get-user-message-list`,
      headers: { authorization: h.owner, "accept-language": "ru" },
    });
    expect(inRussian.json().result.items[0].id).toBe(mine.items[0].id);
    expect(inRussian.json().result.items[0].title).toBe("Обнаружена протечка");
    expect(inRussian.json().result.items[0].content).toContain("Kitchen");
    expect((await call("GET", `${MSG}/get-user-message-list`, h.stranger)).json().result).toEqual({
      items: [],
      totalCount: 0,
    });
  });

  it("maps every device event of issue 5 to its message and ignores the others", async () => {
    const cases = [
      [{ type: "close", closeReason: 1025 }, "excessive-flow", 1, "Excessive flow"],
      [{ type: "close", closeReason: 769 }, "continuous-use", 1, "Water used too long"],
      [{ type: "close", closeReason: 257 }, "valve-button", 1, "Valve closed"],
      [{ type: "regeneration-end" }, "regeneration-finished", 2, "Regeneration finished"],
      [{ type: "ota-progress", progress: 100 }, "ota-finished", 2, "Firmware updated"],
      [{ type: "ota-failed", progress: 40 }, "ota-failed", 2, "Firmware update failed"],
    ] as const;
    for (const [event, name, type, title] of cases) {
      clock += 1000;
      const id = await storeEvent(t, h.deviceId, event);
      expect(await t.app.messages.fromDeviceEvent(h.deviceId, id), name).toBe(2);
      const newest = (await call("GET", `${MSG}/get-user-message-list`, h.owner)).json().result.items[0];
      expect(newest).toMatchObject({ event: name, type, title });
    }
    const failed = (await call("GET", `${MSG}/get-user-message-list`, h.owner)).json().result.items[0];
    expect(failed.content).toContain("40%");
    for (const ignored of [
      { type: "ota-progress", progress: 50 },
      { type: "station" },
      { type: "regeneration-start" },
    ]) {
      const id = await storeEvent(t, h.deviceId, ignored);
      expect(await t.app.messages.fromDeviceEvent(h.deviceId, id)).toBe(0);
    }
  });

  it("lists newest first, pages with skipCount/maxResultCount and filters read state and type", async () => {
    for (let i = 0; i < 14; i++) {
      clock += 1000;
      await t.app.messages.announce({ title: `Notice ${i}`, content: "Hello", userIds: [h.ownerId] });
    }
    const first = (await call("GET", `${MSG}/get-user-message-list`, h.owner)).json().result;
    expect(first.totalCount).toBe(21);
    expect(first.items).toHaveLength(15);
    expect(first.items[0].title).toBe("Notice 13");
    const times = first.items.map((m: { creationTime: string }) => m.creationTime);
    expect([...times].sort().reverse()).toEqual(times);
    const second = (
      await call("GET", `${MSG}/get-user-message-list`, h.owner, { query: { skipCount: "15", maxResultCount: "15" } })
    ).json().result;
    expect(second.items).toHaveLength(6);
    expect(second.items.at(-1).event).toBe("leak");
    const alarms = (await call("GET", `${MSG}/get-user-message-list`, h.owner, { query: { type: "1" } })).json().result;
    expect(alarms.totalCount).toBe(4);
    expect(alarms.items.every((m: { type: number }) => m.type === 1)).toBe(true);
    const read = (await call("GET", `${MSG}/get-user-message-list`, h.owner, { query: { isRead: "true" } })).json();
    expect(read.result.totalCount).toBe(0);
    const bad = await call("GET", `${MSG}/get-user-message-list`, h.owner, { query: { type: "9" } });
    expect(bad.statusCode).toBe(400);
  });

  it("reads details and marks read only the caller's own messages; someone else's id changes nothing", async () => {
    const mine = (await call("GET", `${MSG}/get-user-message-list`, h.owner)).json().result.items;
    const theirs = (await call("GET", `${MSG}/get-user-message-list`, h.member)).json().result.items;
    const detail = await call("GET", `${MSG}/get-message-detail`, h.owner, { query: { id: mine[0].id } });
    expect(detail.json().result).toEqual(mine[0]);

    for (const who of [h.owner, h.stranger]) {
      const peek = await call("GET", `${MSG}/get-message-detail`, who, { query: { id: theirs[0].id }, lang: "fr" });
      expect(peek.statusCode).toBe(404);
      expect(peek.json().error.message).toBe("Message introuvable.");
    }
    const mixed = await call("POST", `${MSG}/set-message-read`, h.owner, {
      payload: { ids: [mine[0].id, theirs[0].id] },
    });
    expect(mixed.statusCode).toBe(404);
    const still = await call("GET", `${MSG}/get-message-detail`, h.owner, { query: { id: mine[0].id } });
    expect(still.json().result.isRead).toBe(false);
    const stranger = await call("POST", `${MSG}/set-message-all-read`, h.stranger);
    expect(stranger.json().result).toEqual({ updated: 0 });

    clock += 1000;
    const ok = await call("POST", `${MSG}/set-message-read`, h.owner, { payload: { ids: [mine[0].id, mine[0].id] } });
    expect(ok.json().result).toEqual({ updated: 1 });
    expect(
      (await call("POST", `${MSG}/set-message-read`, h.owner, { payload: { ids: [mine[0].id] } })).json().result,
    ).toEqual({ updated: 0 });
    const after = (await call("GET", `${MSG}/get-message-detail`, h.owner, { query: { id: mine[0].id } })).json()
      .result;
    expect(after).toMatchObject({ isRead: true, readTime: new Date(clock).toISOString() });
    const unread = (await call("GET", `${MSG}/get-user-message-list`, h.owner, { query: { isRead: "false" } })).json();
    expect(unread.result.totalCount).toBe(20);

    expect((await call("POST", `${MSG}/set-message-read`, h.owner, { payload: { ids: [] } })).statusCode).toBe(400);
    expect((await call("POST", `${MSG}/set-message-all-read`, h.owner)).json().result).toEqual({ updated: 20 });
    const memberUnread = (
      await call("GET", `${MSG}/get-user-message-list`, h.member, { query: { isRead: "false" } })
    ).json().result;
    expect(memberUnread.totalCount).toBe(theirs.length);
  });

  it("test-send-message reaches the caller only, and pushes to the outbox while the switch is on", async () => {
    expect((await call("GET", SWITCH, h.owner)).json().result).toBe(true);
    expect(
      (await call("POST", `${JPUSH}/app-device-binding`, h.owner, { query: { registrationId: "reg-owner" } }))
        .statusCode,
    ).toBe(200);
    const before = (await call("GET", `${MSG}/get-user-message-list`, h.member)).json().result.totalCount;
    const sent = (await call("POST", `${MSG}/test-send-message`, h.owner)).json().result;
    expect(sent).toMatchObject({ type: 3, title: "Test message", isRead: false, deviceId: null, event: null });
    await t.app.messages.idle();
    const list = (await call("GET", `${MSG}/get-user-message-list`, h.owner)).json().result;
    expect(list.items[0].id).toBe(sent.id);
    expect((await call("GET", `${MSG}/get-user-message-list`, h.member)).json().result.totalCount).toBe(before);
    const outbox = await t.db.selectFrom("outbox").selectAll().where("channel", "=", "push").execute();
    expect(outbox.filter((o) => o.recipient === "jpush:reg-owner").map((o) => o.subject)).toEqual(["Test message"]);
    expect(outbox.find((o) => o.recipient === "jpush:reg-owner")?.body).toContain(sent.id);

    expect((await call("POST", SWITCH, h.owner, { query: { isOpen: "false" } })).json().result).toBe(false);
    expect((await call("GET", SWITCH, h.owner)).json().result).toBe(false);
    expect((await call("GET", SWITCH, h.member)).json().result).toBe(true);
    await call("POST", `${MSG}/test-send-message`, h.owner);
    await t.app.messages.idle();
    const later = await t.db.selectFrom("outbox").selectAll().where("recipient", "=", "jpush:reg-owner").execute();
    expect(later).toHaveLength(1);
    await call("POST", SWITCH, h.owner, { query: { isOpen: "true" } });
  });

  it("moves a registration re-bound from the same installation; unbinding someone else's changes nothing", async () => {
    const installationId = "install-shared-phone-0001";
    await call("POST", `${JPUSH}/app-device-binding`, h.owner, {
      query: { registrationId: "shared-phone", installationId },
    });
    // Without the installation's proof another user cannot take it (issue 11; modules/push/push-binding.test.ts).
    const taken = await call("POST", `${JPUSH}/app-device-binding`, h.member, {
      query: { registrationId: "shared-phone", platform: "ios" },
    });
    expect(taken.statusCode).toBe(409);
    await call("POST", `${JPUSH}/app-device-binding`, h.member, {
      query: { registrationId: "shared-phone", platform: "ios", installationId },
    });
    const row = await t.db
      .selectFrom("push_registrations")
      .selectAll()
      .where("registration_id", "=", "shared-phone")
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ user_id: h.memberId, platform: "ios" });
    await call("POST", `${JPUSH}/app-device-unbinding`, h.owner, { query: { registrationId: "shared-phone" } });
    expect(
      await t.db
        .selectFrom("push_registrations")
        .select("user_id")
        .where("registration_id", "=", "shared-phone")
        .execute(),
    ).toEqual([{ user_id: h.memberId }]);
    const bad = await call("POST", `${JPUSH}/app-device-binding`, h.owner, { query: { registrationId: "  " } });
    expect(bad.statusCode).toBe(400);
    await call("POST", `${JPUSH}/app-device-unbinding`, h.member, { query: { registrationId: "shared-phone" } });
    expect(
      await t.db
        .selectFrom("push_registrations")
        .select("user_id")
        .where("registration_id", "=", "shared-phone")
        .execute(),
    ).toEqual([]);
  });

  it("keeps Web Push subscriptions per caller and serves the VAPID public key generated once into DATA_DIR", async () => {
    const key = (await call("GET", `${WEB_PUSH}/public-key`, h.owner)).json().result.publicKey;
    expect(key).toMatch(/^[A-Za-z0-9_-]{80,}$/);
    expect(JSON.parse(fs.readFileSync(path.join(t.config.DATA_DIR, VAPID_KEY_FILE), "utf8")).publicKey).toBe(key);
    const sub = { endpoint: "https://push.example/ep/1", keys: { p256dh: "BP256", auth: "AUTH" } };
    expect((await call("POST", `${WEB_PUSH}/subscribe`, h.owner, { payload: sub })).statusCode).toBe(200);
    await call("POST", `${WEB_PUSH}/unsubscribe`, h.stranger, { payload: { endpoint: sub.endpoint } });
    const rows = await t.db.selectFrom("web_push_subscriptions").select(["user_id", "p256dh"]).execute();
    expect(rows).toEqual([{ user_id: h.ownerId, p256dh: "BP256" }]);
    expect((await call("POST", `${WEB_PUSH}/subscribe`, h.owner, { payload: { endpoint: "nope" } })).statusCode).toBe(
      400,
    );
    await call("POST", `${WEB_PUSH}/unsubscribe`, h.owner, { payload: { endpoint: sub.endpoint } });
    expect(await t.db.selectFrom("web_push_subscriptions").selectAll().execute()).toEqual([]);
  });
});

describe("push delivery through the JPush provider (real HTTP against a local JPush stand-in)", () => {
  let t: TestApp;
  let server: http.Server;
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies of the API under test
  const received: Array<{ authorization?: string; body: any }> = [];
  let answer = { status: 200, body: '{"sendno":"0","msg_id":"1"}' };
  const call = caller(() => t);

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c) => {
        body += c;
      });
      req.on("end", () => {
        received.push({ authorization: req.headers.authorization, body: JSON.parse(body) });
        res.writeHead(answer.status, { "content-type": "application/json" }).end(answer.body);
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const { port } = server.address() as AddressInfo;
    t = await createTestApp({
      env: { JPUSH_APP_KEY: "key", JPUSH_MASTER_SECRET: "secret", JPUSH_BASE_URL: `http://127.0.0.1:${port}` },
    });
  });
  afterAll(async () => {
    await t.close();
    await new Promise((r) => server.close(r));
  });

  it("pushes a device alarm to each member's phone, and drops a registration JPush no longer knows", async () => {
    const h = await household(t, "jp");
    await call("POST", `${JPUSH}/app-device-binding`, h.owner, {
      query: { registrationId: "owner-phone", platform: "android" },
    });
    await call("POST", `${JPUSH}/app-device-binding`, h.member, { query: { registrationId: "member-phone" } });
    await call("POST", `${JPUSH}/app-device-binding`, h.stranger, { query: { registrationId: "stranger-phone" } });
    const eventId = await storeEvent(t, h.deviceId, { type: "close", closeReason: 513 });
    await t.app.messages.fromDeviceEvent(h.deviceId, eventId);
    await t.app.messages.idle();
    expect(received).toHaveLength(2);
    const byId = new Map(received.map((r) => [r.body.audience.registration_id[0], r]));
    expect([...byId.keys()].sort()).toEqual(["member-phone", "owner-phone"]);
    expect(byId.get("owner-phone")?.authorization).toBe(`Basic ${Buffer.from("key:secret").toString("base64")}`);
    expect(byId.get("owner-phone")?.body.notification.android).toMatchObject({
      title: "Leak detected",
      extras: { deviceId: h.deviceId },
    });
    expect(byId.get("member-phone")?.body.notification.ios.alert.title).toBe("Fuite détectée");
    const ownerMessage = (await call("GET", `${MSG}/get-user-message-list`, h.owner)).json().result.items[0];
    expect(byId.get("owner-phone")?.body.notification.android.extras.messageId).toBe(ownerMessage.id);
    expect(await t.db.selectFrom("outbox").selectAll().where("channel", "=", "push").execute()).toEqual([]);

    answer = { status: 400, body: '{"error":{"code":1011,"message":"cannot find user by this audience"}}' };
    await call("POST", `${MSG}/test-send-message`, h.owner);
    await t.app.messages.idle();
    expect(
      await t.db.selectFrom("push_registrations").select("registration_id").where("user_id", "=", h.ownerId).execute(),
    ).toEqual([]);

    received.length = 0;
    await call("POST", SWITCH, h.member, { query: { isOpen: "false" } });
    await call("POST", `${MSG}/test-send-message`, h.member);
    await t.app.messages.idle();
    expect(received).toEqual([]);
  });
});
