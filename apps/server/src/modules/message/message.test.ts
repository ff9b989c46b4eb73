import { randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { endpoints } from "@aquapilot/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMember, familyWithDevices, signUpOwner, signUpUser } from "../../../test/api-factories.ts";
import { call, describeEndpoint, nameOf } from "../../../test/call.ts";
import { createTestApp, type TestApp } from "../../../test/helpers.ts";
import { VAPID_KEY_FILE } from "../../notify/push/index.ts";

/** Owner (en) and member (fr) share a household with the device "Kitchen"; the stranger is elsewhere. */
async function newFamily(t: TestApp, prefix: string) {
  const owner = await signUpOwner(t.app, `${prefix}-owner@home.test`);
  const member = await signUpUser(t.app, `${prefix}-member@home.test`);
  const stranger = await signUpUser(t.app, `${prefix}-stranger@home.test`);
  await t.db.updateTable("users").set({ language_type: "en" }).where("id", "=", owner.userId).execute();
  await t.db.updateTable("users").set({ language_type: "fr" }).where("id", "=", member.userId).execute();
  const mac = randomUUID().replace(/-/g, "").slice(0, 12).toUpperCase();
  const home = await familyWithDevices(t, owner, [{ mac, secret: "s", name: "Kitchen" }]);
  await addMember(t, home, member);
  return {
    ownerId: owner.userId,
    memberId: member.userId,
    strangerId: stranger.userId,
    owner: owner.token,
    member: member.token,
    stranger: stranger.token,
    familyId: home.id,
    deviceId: home.devices[0].id,
  };
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

describe("message centre over HTTP (spec §7 push-service/app/message)", () => {
  let t: TestApp;
  let clock = Date.parse("2026-03-01T08:00:00.000Z");
  let h: Awaited<ReturnType<typeof newFamily>>;

  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date(clock) });
    h = await newFamily(t, "mc");
  });
  afterAll(() => t.close());

  it("answers 401 to anonymous callers on every call", async () => {
    for (const [endpoint, query] of [
      [endpoints.getMessageTypeList, {}],
      [endpoints.getUserMessageList, {}],
      [endpoints.getMessageDetail, { id: "x" }],
      [endpoints.setMessageRead, {}],
      [endpoints.setMessageAllRead, {}],
      [endpoints.testSendMessage, {}],
      [endpoints.appDeviceBinding, { registrationId: "r" }],
      [endpoints.appDeviceUnbinding, { registrationId: "r" }],
      [endpoints.getPushSwitch, {}],
      [endpoints.setPushSwitch, { isOpen: "false" }],
      [endpoints.getWebPushPublicKey, {}],
    ] as const) {
      const res = await call(t.app, endpoint, { query });
      expect(res.status, nameOf(endpoint)).toBe(401);
      expect(res.body.unAuthorizedRequest).toBe(true);
    }
  });

  describeEndpoint(endpoints.getMessageTypeList, () => {
    it("names the message types in the caller's language", async () => {
      expect((await call(t.app, endpoints.getMessageTypeList, { as: h.owner })).result).toEqual([
        { value: 1, name: "Device alarm" },
        { value: 2, name: "Device notice" },
        { value: 3, name: "Announcement" },
      ]);
      const zh = (await call(t.app, endpoints.getMessageTypeList, { as: h.owner, lang: "zh-CN" })).result;
      expect(zh.map((x: { name: string }) => x.name)).toEqual(["设备告警", "设备通知", "平台公告"]);
    });
  });

  it("writes one message per member for a leak, in each member's language, however often it is derived", async () => {
    const eventId = await storeEvent(t, h.deviceId, { type: "close", closeReason: 513 });
    const counts = await Promise.all([1, 2, 3].map(() => t.app.messages.fromDeviceEvent(h.deviceId, eventId)));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(2);
    expect(await t.app.messages.fromDeviceEvent(h.deviceId, eventId)).toBe(0);

    const mine = (await call(t.app, endpoints.getUserMessageList, { as: h.owner })).result;
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
    const theirs = (await call(t.app, endpoints.getUserMessageList, { as: h.member, lang: "fr" })).result;
    expect(theirs.totalCount).toBe(1);
    expect(theirs.items[0]).toMatchObject({ title: "Fuite détectée", event: "leak" });
    expect(theirs.items[0].id).not.toBe(mine.items[0].id);
    // Read in another language, the same stored message is worded in that language.
    const inRussian = await call(t.app, endpoints.getUserMessageList, { as: h.owner, lang: "ru" });
    expect(inRussian.result.items[0].id).toBe(mine.items[0].id);
    expect(inRussian.result.items[0].title).toBe("Обнаружена протечка");
    expect(inRussian.result.items[0].content).toContain("Kitchen");
    expect((await call(t.app, endpoints.getUserMessageList, { as: h.stranger })).result).toEqual({
      items: [],
      totalCount: 0,
    });
  });

  it("maps every alerting device event to its message and ignores the others", async () => {
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
      const newest = (await call(t.app, endpoints.getUserMessageList, { as: h.owner })).result.items[0];
      expect(newest).toMatchObject({ event: name, type, title });
    }
    const failed = (await call(t.app, endpoints.getUserMessageList, { as: h.owner })).result.items[0];
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

  describeEndpoint(endpoints.getUserMessageList, () => {
    it("lists newest first, pages with skipCount/maxResultCount and filters read state and type", async () => {
      for (let i = 0; i < 14; i++) {
        clock += 1000;
        await t.app.messages.announce({ title: `Notice ${i}`, content: "Hello", userIds: [h.ownerId] });
      }
      const first = (await call(t.app, endpoints.getUserMessageList, { as: h.owner })).result;
      expect(first.totalCount).toBe(21);
      expect(first.items).toHaveLength(15);
      expect(first.items[0].title).toBe("Notice 13");
      const times = first.items.map((m: { creationTime: string }) => m.creationTime);
      expect([...times].sort().reverse()).toEqual(times);
      const second = (
        await call(t.app, endpoints.getUserMessageList, {
          as: h.owner,
          query: { skipCount: "15", maxResultCount: "15" },
        })
      ).result;
      expect(second.items).toHaveLength(6);
      expect(second.items.at(-1)?.event).toBe("leak");
      const alarms = (await call(t.app, endpoints.getUserMessageList, { as: h.owner, query: { type: "1" } })).result;
      expect(alarms.totalCount).toBe(4);
      expect(alarms.items.every((m: { type: number }) => m.type === 1)).toBe(true);
      const read = (await call(t.app, endpoints.getUserMessageList, { as: h.owner, query: { isRead: "true" } })).body;
      expect(read.result?.totalCount).toBe(0);
      const bad = await call(t.app, endpoints.getUserMessageList, { as: h.owner, query: { type: "9" } });
      expect(bad.status).toBe(400);
    });
  });

  it("reads details and marks read only the caller's own messages; someone else's id changes nothing", async () => {
    const mine = (await call(t.app, endpoints.getUserMessageList, { as: h.owner })).result.items;
    const theirs = (await call(t.app, endpoints.getUserMessageList, { as: h.member })).result.items;
    const detail = await call(t.app, endpoints.getMessageDetail, { as: h.owner, query: { id: mine[0].id } });
    expect(detail.result).toEqual(mine[0]);

    for (const who of [h.owner, h.stranger]) {
      const peek = await call(t.app, endpoints.getMessageDetail, { as: who, query: { id: theirs[0].id }, lang: "fr" });
      expect(peek.status).toBe(404);
      expect(peek.body.error.message).toBe("Message introuvable.");
    }
    const mixed = await call(t.app, endpoints.setMessageRead, {
      as: h.owner,
      body: { ids: [mine[0].id, theirs[0].id] },
    });
    expect(mixed.status).toBe(404);
    const still = await call(t.app, endpoints.getMessageDetail, { as: h.owner, query: { id: mine[0].id } });
    expect(still.result.isRead).toBe(false);
    const stranger = await call(t.app, endpoints.setMessageAllRead, { as: h.stranger });
    expect(stranger.result).toEqual({ updated: 0 });

    clock += 1000;
    const ok = await call(t.app, endpoints.setMessageRead, { as: h.owner, body: { ids: [mine[0].id, mine[0].id] } });
    expect(ok.result).toEqual({ updated: 1 });
    expect((await call(t.app, endpoints.setMessageRead, { as: h.owner, body: { ids: [mine[0].id] } })).result).toEqual({
      updated: 0,
    });
    const after = (await call(t.app, endpoints.getMessageDetail, { as: h.owner, query: { id: mine[0].id } })).body
      .result;
    expect(after).toMatchObject({ isRead: true, readTime: new Date(clock).toISOString() });
    const unread = (await call(t.app, endpoints.getUserMessageList, { as: h.owner, query: { isRead: "false" } })).body;
    expect(unread.result?.totalCount).toBe(20);

    expect((await call(t.app, endpoints.setMessageRead, { as: h.owner, body: { ids: [] } })).status).toBe(400);
    expect((await call(t.app, endpoints.setMessageAllRead, { as: h.owner })).result).toEqual({ updated: 20 });
    const memberUnread = (await call(t.app, endpoints.getUserMessageList, { as: h.member, query: { isRead: "false" } }))
      .result;
    expect(memberUnread.totalCount).toBe(theirs.length);
  });

  describeEndpoint(endpoints.testSendMessage, () => {
    it("test-send-message reaches the caller only, and pushes to the outbox while the switch is on", async () => {
      expect((await call(t.app, endpoints.getPushSwitch, { as: h.owner })).result).toBe(true);
      expect(
        (await call(t.app, endpoints.appDeviceBinding, { as: h.owner, query: { registrationId: "reg-owner" } })).status,
      ).toBe(200);
      const before = (await call(t.app, endpoints.getUserMessageList, { as: h.member })).result.totalCount;
      const sent = (await call(t.app, endpoints.testSendMessage, { as: h.owner })).result;
      expect(sent).toMatchObject({ type: 3, title: "Test message", isRead: false, deviceId: null, event: null });
      await t.app.messages.idle();
      const list = (await call(t.app, endpoints.getUserMessageList, { as: h.owner })).result;
      expect(list.items[0].id).toBe(sent.id);
      expect((await call(t.app, endpoints.getUserMessageList, { as: h.member })).result.totalCount).toBe(before);
      const outbox = await t.db.selectFrom("outbox").selectAll().where("channel", "=", "push").execute();
      expect(outbox.filter((o) => o.recipient === "jpush:reg-owner").map((o) => o.subject)).toEqual(["Test message"]);
      expect(outbox.find((o) => o.recipient === "jpush:reg-owner")?.body).toContain(sent.id);

      expect((await call(t.app, endpoints.setPushSwitch, { as: h.owner, query: { isOpen: "false" } })).result).toBe(
        false,
      );
      expect((await call(t.app, endpoints.getPushSwitch, { as: h.owner })).result).toBe(false);
      expect((await call(t.app, endpoints.getPushSwitch, { as: h.member })).result).toBe(true);
      await call(t.app, endpoints.testSendMessage, { as: h.owner });
      await t.app.messages.idle();
      const later = await t.db.selectFrom("outbox").selectAll().where("recipient", "=", "jpush:reg-owner").execute();
      expect(later).toHaveLength(1);
      await call(t.app, endpoints.setPushSwitch, { as: h.owner, query: { isOpen: "true" } });
    });
  });

  describeEndpoint(endpoints.appDeviceBinding, () => {
    it("moves a registration re-bound from the same installation; unbinding someone else's changes nothing", async () => {
      const installationId = "install-shared-phone-0001";
      await call(t.app, endpoints.appDeviceBinding, {
        as: h.owner,
        query: { registrationId: "shared-phone", installationId },
      });
      // Without the installation's proof another user cannot take it (modules/push/push-binding.test.ts).
      const taken = await call(t.app, endpoints.appDeviceBinding, {
        as: h.member,
        query: { registrationId: "shared-phone", platform: "ios" },
      });
      expect(taken.status).toBe(409);
      await call(t.app, endpoints.appDeviceBinding, {
        as: h.member,
        query: { registrationId: "shared-phone", platform: "ios", installationId },
      });
      const row = await t.db
        .selectFrom("push_registrations")
        .selectAll()
        .where("registration_id", "=", "shared-phone")
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ user_id: h.memberId, platform: "ios" });
      /** Who holds the shared phone's registration now. */
      const holders = () =>
        t.db.selectFrom("push_registrations").select("user_id").where("registration_id", "=", "shared-phone").execute();
      await call(t.app, endpoints.appDeviceUnbinding, { as: h.owner, query: { registrationId: "shared-phone" } });
      expect(await holders()).toEqual([{ user_id: h.memberId }]);
      const bad = await call(t.app, endpoints.appDeviceBinding, { as: h.owner, query: { registrationId: "  " } });
      expect(bad.status).toBe(400);
      await call(t.app, endpoints.appDeviceUnbinding, { as: h.member, query: { registrationId: "shared-phone" } });
      expect(await holders()).toEqual([]);
    });
  });

  describeEndpoint(endpoints.webPushSubscribe, () => {
    it("keeps Web Push subscriptions per caller and serves the VAPID public key generated once into DATA_DIR", async () => {
      const key = (await call(t.app, endpoints.getWebPushPublicKey, { as: h.owner })).result.publicKey;
      expect(key).toMatch(/^[A-Za-z0-9_-]{80,}$/);
      expect(JSON.parse(fs.readFileSync(path.join(t.config.DATA_DIR, VAPID_KEY_FILE), "utf8")).publicKey).toBe(key);
      const sub = { endpoint: "https://push.example/ep/1", keys: { p256dh: "BP256", auth: "AUTH" } };
      expect((await call(t.app, endpoints.webPushSubscribe, { as: h.owner, body: sub })).status).toBe(200);
      await call(t.app, endpoints.webPushUnsubscribe, { as: h.stranger, body: { endpoint: sub.endpoint } });
      const rows = await t.db.selectFrom("web_push_subscriptions").select(["user_id", "p256dh"]).execute();
      expect(rows).toEqual([{ user_id: h.ownerId, p256dh: "BP256" }]);
      expect((await call(t.app, endpoints.webPushSubscribe, { as: h.owner, body: { endpoint: "nope" } })).status).toBe(
        400,
      );
      await call(t.app, endpoints.webPushUnsubscribe, { as: h.owner, body: { endpoint: sub.endpoint } });
      expect(await t.db.selectFrom("web_push_subscriptions").selectAll().execute()).toEqual([]);
    });
  });
});

describe("push delivery through the JPush provider (real HTTP against a local JPush stand-in)", () => {
  let t: TestApp;
  let server: http.Server;
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies of the API under test
  const received: Array<{ authorization?: string; body: any }> = [];
  let answer = { status: 200, body: '{"sendno":"0","msg_id":"1"}' };

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
    const h = await newFamily(t, "jp");
    await call(t.app, endpoints.appDeviceBinding, {
      as: h.owner,
      query: { registrationId: "owner-phone", platform: "android" },
    });
    await call(t.app, endpoints.appDeviceBinding, { as: h.member, query: { registrationId: "member-phone" } });
    await call(t.app, endpoints.appDeviceBinding, { as: h.stranger, query: { registrationId: "stranger-phone" } });
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
    const ownerMessage = (await call(t.app, endpoints.getUserMessageList, { as: h.owner })).result.items[0];
    expect(byId.get("owner-phone")?.body.notification.android.extras.messageId).toBe(ownerMessage.id);
    expect(await t.db.selectFrom("outbox").selectAll().where("channel", "=", "push").execute()).toEqual([]);

    answer = { status: 400, body: '{"error":{"code":1011,"message":"cannot find user by this audience"}}' };
    await call(t.app, endpoints.testSendMessage, { as: h.owner });
    await t.app.messages.idle();
    expect(
      await t.db.selectFrom("push_registrations").select("registration_id").where("user_id", "=", h.ownerId).execute(),
    ).toEqual([]);

    received.length = 0;
    await call(t.app, endpoints.setPushSwitch, { as: h.member, query: { isOpen: "false" } });
    await call(t.app, endpoints.testSendMessage, { as: h.member });
    await t.app.messages.idle();
    expect(received).toEqual([]);
  });
});
