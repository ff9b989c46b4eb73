import { randomUUID } from "node:crypto";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "../../../test/databases.ts";
import { createTestApp, registerByEmail, type TestApp } from "../../../test/helpers.ts";
import { type BusEvent, InProcessBus } from "../../bus.ts";
import { provisionDevice } from "../devices/provision.ts";
import { createPushService } from "../push/service.ts";
import { resetSaltLevel } from "../statistics/salt.ts";
import { MessageCenter } from "./center.ts";

const MINUTE = 60_000;

/**
 * The message center on both engines: exactly one message per member per source under concurrency,
 * crash repair from stored events, delivery claimed once, the offline watcher once per period, low salt once per
 * refill, and removed members out of the audience.
 */
describe.each(ENGINES)("message center on %s", (engine) => {
  let t: TestApp;
  let clock = Date.parse("2026-05-01T06:00:00.000Z");
  let ownerId: string;
  let memberId: string;
  let familyId: string;
  let deviceId: string;
  const bus = new InProcessBus();
  const silent = pino({ level: "silent" });
  let center: MessageCenter;
  const published: Array<Extract<BusEvent, { type: "message.created" }>> = [];

  const count = async (userId: string, filter: { event?: string; source?: string } = {}) => {
    let q = t.db
      .selectFrom("messages")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("user_id", "=", userId);
    if (filter.event) q = q.where("event", "=", filter.event);
    return Number((await q.executeTakeFirstOrThrow()).n);
  };
  const storeEvent = async (e: { type: string; closeReason?: number; progress?: number; at?: number }) => {
    const id = randomUUID();
    const at = new Date(e.at ?? clock).toISOString();
    await t.db
      .insertInto("device_events")
      .values({
        id,
        device_id: deviceId,
        type: e.type,
        close_reason: e.closeReason ?? null,
        station: null,
        ts: at,
        received_at: at,
        progress: e.progress ?? null,
      })
      .execute();
    return id;
  };

  beforeAll(async () => {
    t = await createTestApp({ engine, now: () => new Date(clock) });
    ownerId = await registerByEmail(t.app, `owner-${engine}@home.test`, "pass-word-1");
    memberId = await registerByEmail(t.app, `member-${engine}@home.test`, "pass-word-1");
    // Registered without Accept-Language: zh-Hans (the default). The owner switches to English.
    await t.db.updateTable("users").set({ language_type: "en" }).where("id", "=", ownerId).execute();
    familyId = randomUUID();
    const at = new Date(clock).toISOString();
    await t.db
      .insertInto("families")
      .values({
        id: familyId,
        name: "Home",
        address: "Somewhere",
        longitude: 1,
        latitude: 1,
        avatar: null,
        creator_id: ownerId,
        creation_time: at,
        province: null,
        city: null,
        district: null,
      })
      .execute();
    await t.db
      .insertInto("family_members")
      .values([
        { id: randomUUID(), family_id: familyId, user_id: ownerId, is_admin: 1, creation_time: at },
        { id: randomUUID(), family_id: familyId, user_id: memberId, is_admin: 0, creation_time: at },
      ])
      .execute();
    const device = await provisionDevice(t.db, { mac: "0A0B0C0D0E0F", secret: "s", name: "Utility room" });
    deviceId = device.id;
    await t.db.updateTable("devices").set({ family_id: familyId }).where("id", "=", deviceId).execute();
    bus.subscribe((e) => {
      if (e.type === "message.created") published.push(e);
    });
    center = new MessageCenter({
      db: t.db,
      bus,
      push: createPushService({ db: t.db, config: t.config, logger: silent }),
      offlineMinutes: t.config.OFFLINE_MESSAGE_MINUTES,
      now: () => new Date(clock),
      logger: silent,
    });
  });
  afterAll(async () => {
    await center?.idle();
    await bus.close();
    await t?.close();
  });

  it("derives one message per member even when several gateways derive the same event at once", async () => {
    const eventId = await storeEvent({ type: "close", closeReason: 513 });
    const results = await Promise.all(Array.from({ length: 6 }, () => center.fromDeviceEvent(deviceId, eventId)));
    expect(results.reduce((a, b) => a + b, 0)).toBe(2);
    expect(await count(ownerId, { event: "leak" })).toBe(1);
    expect(await count(memberId, { event: "leak" })).toBe(1);
    expect(
      published
        .filter((p) => p.message.event === "leak")
        .map((p) => p.userId)
        .sort(),
    ).toEqual([ownerId, memberId].sort());
  });

  it("repairs a crash between storing an event and deriving its messages (sweep of stored events)", async () => {
    clock += MINUTE;
    await storeEvent({ type: "close", closeReason: 1025 }); // the gateway "crashed" before the hook ran
    expect(await center.sweepDeviceEvents(24 * 60 * MINUTE)).toBe(2);
    expect(await center.sweepDeviceEvents(24 * 60 * MINUTE)).toBe(0);
    expect(await count(ownerId, { event: "excessive-flow" })).toBe(1);
  });

  it("publishes a stored but unpublished source exactly once (crash after commit, or the announce CLI)", async () => {
    const before = published.length;
    const { count: stored } = await center.announce({ title: "Hello", content: "World" }, { publish: false });
    expect(stored).toBe(2);
    expect(published.length).toBe(before);
    const counts = await Promise.all([center.publishPending(), center.publishPending()]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(2);
    expect(await center.publishPending()).toBe(0);
    expect(published.slice(before).map((p) => p.message.title)).toEqual(["Hello", "Hello"]);
  });

  it("raises one offline alarm per offline period longer than OFFLINE_MESSAGE_MINUTES (30)", async () => {
    const wentOffline = clock;
    await t.db
      .insertInto("device_state")
      .values({
        device_id: deviceId,
        online: 0,
        vacation: 0,
        regeneration_count: 0,
        updated_at: new Date(wentOffline).toISOString(),
      })
      .onConflict((oc) =>
        oc.column("device_id").doUpdateSet({ online: 0, updated_at: new Date(wentOffline).toISOString() }),
      )
      .execute();
    expect(await center.checkOfflineDevices()).toBe(0);
    clock = wentOffline + 29 * MINUTE;
    expect(await center.checkOfflineDevices()).toBe(0);
    clock = wentOffline + 31 * MINUTE;
    expect(await center.checkOfflineDevices()).toBe(2);
    clock += 60 * MINUTE;
    expect(await center.checkOfflineDevices()).toBe(0);
    const [msg] = await t.db
      .selectFrom("messages")
      .selectAll()
      .where("user_id", "=", ownerId)
      .where("event", "=", "offline")
      .execute();
    expect(msg).toMatchObject({ type: 1, title: "Device offline", device_name: "Utility room" });
    expect(msg.content).toContain("30 minutes");

    // Back online ends the period; the next offline period gets its own alarm.
    await t.db
      .updateTable("device_state")
      .set({ online: 1, updated_at: new Date(clock).toISOString() })
      .execute();
    expect(await center.checkOfflineDevices()).toBe(0);
    clock += MINUTE;
    await t.db
      .updateTable("device_state")
      .set({ online: 0, updated_at: new Date(clock).toISOString() })
      .execute();
    expect(await center.checkOfflineDevices()).toBe(0);
    clock += 31 * MINUTE;
    expect(await center.checkOfflineDevices()).toBe(2);
    expect(await count(memberId, { event: "offline" })).toBe(2);
    await t.db.updateTable("device_state").set({ online: 1 }).execute();
  });

  it("raises the offline alarm for a device whose status still says online but that the cloud no longer hears", async () => {
    const heardAt = new Date(clock).toISOString();
    await t.db
      .updateTable("device_state")
      .set({ online: 1, last_heard_at: heardAt, status_at: heardAt, updated_at: heardAt })
      .where("device_id", "=", deviceId)
      .execute();
    const before = await count(ownerId, { event: "offline" });
    expect(await center.checkOfflineDevices()).toBe(0);
    // Quiet beyond the report interval plus margin: an offline period starts, alarmed after 30 minutes.
    clock += 3 * MINUTE;
    expect(await center.checkOfflineDevices()).toBe(0);
    clock += 31 * MINUTE;
    expect(await center.checkOfflineDevices()).toBe(2);
    expect(await count(ownerId, { event: "offline" })).toBe(before + 1);
    // Heard again: the period ends.
    await t.db
      .updateTable("device_state")
      .set({ last_heard_at: new Date(clock).toISOString() })
      .where("device_id", "=", deviceId)
      .execute();
    expect(await center.checkOfflineDevices()).toBe(0);
    expect(
      await t.db.selectFrom("device_offline_watch").select("device_id").where("device_id", "=", deviceId).execute(),
    ).toEqual([]);
    await t.db
      .updateTable("device_state")
      .set({ last_heard_at: null, status_at: null })
      .where("device_id", "=", deviceId)
      .execute();
  });

  it("warns of low salt once per refill, after a regeneration", async () => {
    await t.db
      .updateTable("device_state")
      .set({ settings_json: JSON.stringify({ saltAddition: 2 }) })
      .where("device_id", "=", deviceId)
      .execute();
    clock += MINUTE;
    await resetSaltLevel(t.db, deviceId, 3, ownerId, new Date(clock));
    clock += MINUTE;
    await storeEvent({ type: "regeneration-start" });
    const end1 = await storeEvent({ type: "regeneration-end" });
    // regeneration finished (2) + salt low (2): 3 kg − 2 kg = 1 kg, less than one regeneration's salt
    expect(await center.fromDeviceEvent(deviceId, end1)).toBe(4);
    clock += MINUTE;
    await storeEvent({ type: "regeneration-start" });
    const end2 = await storeEvent({ type: "regeneration-end" });
    expect(await center.fromDeviceEvent(deviceId, end2)).toBe(2);
    expect(await count(ownerId, { event: "salt-low" })).toBe(1);
    const [salt] = await t.db
      .selectFrom("messages")
      .selectAll()
      .where("user_id", "=", ownerId)
      .where("event", "=", "salt-low")
      .execute();
    expect(salt).toMatchObject({ type: 2, title: "Salt low" });
    const [memberSalt] = await t.db
      .selectFrom("messages")
      .selectAll()
      .where("user_id", "=", memberId)
      .where("event", "=", "salt-low")
      .execute();
    expect(memberSalt.title).toBe("盐量不足");

    clock += MINUTE;
    await resetSaltLevel(t.db, deviceId, 2.5, ownerId, new Date(clock)); // a small refill
    clock += MINUTE;
    await storeEvent({ type: "regeneration-start" });
    const end3 = await storeEvent({ type: "regeneration-end" });
    expect(await center.fromDeviceEvent(deviceId, end3)).toBe(4);
    expect(await count(memberId, { event: "salt-low" })).toBe(2);
  });

  it("stops writing to a member removed from the household", async () => {
    await t.db.deleteFrom("family_members").where("user_id", "=", memberId).execute();
    const before = await count(memberId);
    clock += MINUTE;
    const eventId = await storeEvent({ type: "close", closeReason: 769 });
    expect(await center.fromDeviceEvent(deviceId, eventId)).toBe(1);
    expect(await count(memberId)).toBe(before);
    expect(await count(ownerId, { event: "continuous-use" })).toBe(1);
  });
});
