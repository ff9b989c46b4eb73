import { randomUUID } from "node:crypto";
import { endpoints, LANGUAGES, SALT_REMINDER_DAYS } from "@aquapilot/contract";
import { seedDemoIfEmpty } from "@aquapilot/dev";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMember, signUpUser, type TestUser } from "../../../test/api-factories.ts";
import { call, describeEndpoint } from "../../../test/call.ts";
import { ENGINES } from "../../../test/databases.ts";
import { bearer, createTestApp, type TestApp } from "../../../test/helpers.ts";
import { InProcessBus } from "../../bus.ts";
import { MESSAGES } from "../../http/messages.ts";
import { MessageCenter } from "../message/center.ts";
import { createPushService } from "../push/service.ts";

const DAY = 86_400_000;

/**
 * The low-salt reminder on both engines: members read and set it per device,
 * a wrong value is refused with the setting's own text in the caller's language, "low" follows it, and the low-salt
 * message goes out once per refill when the forecast falls within the owner's threshold.
 */
describe.each(ENGINES)("salt reminder API on %s", (engine) => {
  let t: TestApp;
  let clock = Date.parse("2026-04-01T08:00:00.000Z");
  let owner: string;
  let member: TestUser;
  let stranger: TestUser;
  let deviceId: string;
  let ownerId: string;
  const bus = new InProcessBus();
  let center: MessageCenter;

  const status = async () => (await call(t.app, endpoints.getSaltStatus, { as: owner, query: { deviceId } })).result;
  const saltMessages = async () =>
    Number(
      (
        await t.db
          .selectFrom("messages")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("user_id", "=", ownerId)
          .where("event", "=", "salt-low")
          .executeTakeFirstOrThrow()
      ).n,
    );
  const regeneration = async () => {
    clock += 60_000;
    const at = new Date(clock).toISOString();
    for (const type of ["regeneration-start", "regeneration-end"]) {
      await t.db
        .insertInto("device_events")
        .values({
          id: `${type}-${clock}`,
          device_id: deviceId,
          type,
          close_reason: null,
          station: null,
          ts: at,
          received_at: at,
          progress: null,
        })
        .execute();
    }
    return `regeneration-end-${clock}`;
  };

  beforeAll(async () => {
    t = await createTestApp({ engine, now: () => new Date(clock) });
    await seedDemoIfEmpty(t.db, { devices: [{ mac: "A1B2C3D4E5C1", secret: "s1", name: "Kitchen", model: "AQ-S25" }] });
    owner = await bearer(t.app, "demo", "demo1234");
    const device = await t.db.selectFrom("devices").select(["id", "family_id"]).executeTakeFirstOrThrow();
    deviceId = device.id;
    ownerId = (await t.db.selectFrom("users").select("id").where("user_name", "=", "demo").executeTakeFirstOrThrow())
      .id;
    member = await signUpUser(t.app, `salt-member-${engine}@example.com`);
    await addMember(t, device.family_id as string, member);
    stranger = await signUpUser(t.app, `salt-stranger-${engine}@example.com`);
    await t.db
      .updateTable("device_state")
      .set({ settings_json: JSON.stringify({ saltAddition: 3 }) })
      .where("device_id", "=", deviceId)
      .execute();
    // Ten regenerations in the last 30 days: 10 × 3 kg ÷ 30 = 1 kg a day.
    for (let i = 0; i < 10; i++) {
      const at = new Date(clock - (i + 1) * 2 * DAY).toISOString();
      await t.db
        .insertInto("device_events")
        .values({
          id: randomUUID(),
          device_id: deviceId,
          type: "regeneration-start",
          close_reason: null,
          station: null,
          ts: at,
          received_at: at,
          progress: null,
        })
        .execute();
    }
    const silent = pino({ level: "silent" });
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

  describeEndpoint(endpoints.getSaltStatus, () => {
    it("answers the default reminder until one is set, and the level entered as the gauge's full mark", async () => {
      expect(await status()).toMatchObject({ reminderDays: SALT_REMINDER_DAYS.default, refillLevelKg: null });
      const refill = await call(t.app, endpoints.resetSaltLevel, { as: owner, query: { deviceId, levelKg: "12" } });
      expect(refill.result).toMatchObject({
        saltLevelKg: 12,
        refillLevelKg: 12,
        saltDaysLeft: 12,
        lowSalt: false,
      });
    });
  });

  describeEndpoint(endpoints.setSaltReminder, () => {
    it("a member sets the reminder; 'low' follows it", async () => {
      const res = await call(t.app, endpoints.setSaltReminder, { as: member, query: { deviceId, days: "14" } });
      expect(res.status).toBe(200);
      expect(res.result).toMatchObject({ reminderDays: 14, saltDaysLeft: 12, lowSalt: true });
      expect(res.result.message).toContain("12");
      const row = await t.db.selectFrom("device_salt_reminder").selectAll().executeTakeFirstOrThrow();
      expect(row).toMatchObject({ device_id: deviceId, days: 14, updated_at: new Date(clock).toISOString() });
      // Back to 10 days: 12 days left is not low any more.
      expect(
        (await call(t.app, endpoints.setSaltReminder, { as: owner, query: { deviceId, days: "10" } })).result,
      ).toMatchObject({
        reminderDays: 10,
        lowSalt: false,
      });
    });

    it("refuses a reminder outside 1–30 whole days with the setting's own text in the caller's language", async () => {
      for (const [days, lang] of [
        ["0", "en"],
        ["31", "fr"],
        ["2.5", "ru"],
        ["-3", "es"],
        ["7", "zh-Hans"],
      ] as const) {
        const res = await call(t.app, endpoints.setSaltReminder, { as: owner, query: { deviceId, days }, lang });
        if (days === "7") {
          expect(res.status).toBe(200);
          continue;
        }
        expect(res.status, days).toBe(400);
        const error = res.body.error;
        expect(error.code).toBe("Validation");
        expect(error.validationErrors).toEqual([{ message: MESSAGES[lang]["salt.reminderRange"], members: ["days"] }]);
        expect(error.message).toBe(MESSAGES[lang]["salt.reminderRange"]);
      }
      const notANumber = await call(t.app, endpoints.setSaltReminder, { as: owner, query: { deviceId, days: "many" } });
      expect(notANumber.status).toBe(400);
      expect(notANumber.body.error.validationErrors[0].members).toEqual(["days"]);
      expect((await status()).reminderDays).toBe(7);
    });

    it("the range in the refusal is the contract's in every language", () => {
      for (const lang of LANGUAGES) {
        const text = MESSAGES[lang]["salt.reminderRange"];
        expect(text, lang).toContain(String(SALT_REMINDER_DAYS.min));
        expect(text, lang).toContain(String(SALT_REMINDER_DAYS.max));
      }
    });

    it("refuses a stranger and an unknown device", async () => {
      expect(
        (await call(t.app, endpoints.setSaltReminder, { as: stranger, query: { deviceId, days: "5" } })).status,
      ).toBe(404);
      expect(
        (await call(t.app, endpoints.setSaltReminder, { as: owner, query: { deviceId: randomUUID(), days: "5" } }))
          .status,
      ).toBe(404);
    });
  });

  it("sends the low-salt message once per refill, when the forecast falls within the owner's reminder", async () => {
    await call(t.app, endpoints.setSaltReminder, { as: owner, query: { deviceId, days: "7" } });
    await call(t.app, endpoints.resetSaltLevel, { as: owner, query: { deviceId, levelKg: "20" } });
    // Each regeneration takes 3 kg and adds to the 30-day use (10 before: 1 kg a day, then 1.1, 1.2, …).
    // 17 kg at 1.1 kg a day: 15 days; 14 kg at 1.2: 11 days — neither within 7 days.
    await center.fromDeviceEvent(deviceId, await regeneration());
    await center.fromDeviceEvent(deviceId, await regeneration());
    expect((await status()).saltDaysLeft).toBe(11);
    expect(await saltMessages()).toBe(0);
    // The owner wants to know two weeks ahead: 11 kg at 1.3 kg a day is 8 days — not within 7, within 14 → one message.
    await call(t.app, endpoints.setSaltReminder, { as: owner, query: { deviceId, days: "14" } });
    await center.fromDeviceEvent(deviceId, await regeneration());
    expect((await status()).saltDaysLeft).toBe(8);
    expect(await saltMessages()).toBe(1);
    // Still low at the next regeneration: no second message for the same refill.
    await center.fromDeviceEvent(deviceId, await regeneration());
    expect(await saltMessages()).toBe(1);
    // A new refill that is low again warns again, once.
    await call(t.app, endpoints.resetSaltLevel, { as: owner, query: { deviceId, levelKg: "10" } });
    await center.fromDeviceEvent(deviceId, await regeneration());
    await center.fromDeviceEvent(deviceId, await regeneration());
    expect(await saltMessages()).toBe(2);
  });
});
