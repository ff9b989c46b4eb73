import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, openTestDatabase, type TestDatabase } from "../../../test/databases.ts";
import { insertFamily, insertMember, insertUser } from "../../../test/factories.ts";
import { AppError } from "../../http/errors.ts";
import { translate } from "../../http/messages.ts";
import { provisionDevice } from "../devices/provision.ts";
import { asLanguage } from "../message/index.ts";
import { collectDiagnostics } from "./diagnostics.ts";
import {
  createAfterSale,
  deleteAfterSale,
  getAfterSale,
  handleAfterSale,
  listAfterSales,
  listAfterSalesForService,
  updateAfterSale,
} from "./service.ts";

const input = (deviceId: string, description: string) => ({
  deviceId,
  description,
  photos: [],
  contactPhone: null,
  attachDiagnostics: false,
});

describe.each(ENGINES)("after-sales data layer on %s", (engine) => {
  let tdb: TestDatabase;
  let ms = Date.parse("2026-05-10T12:00:00.000Z");
  const tick = () => {
    ms += 1000;
    return new Date(ms);
  };
  const deps = () => ({ db: tdb.db, now: tick });
  const users: Record<string, string> = {};
  let familyId: string;
  let deviceId: string;

  beforeAll(async () => {
    tdb = await openTestDatabase(engine);
    const now = new Date(ms).toISOString();
    for (const name of ["ann", "bob", "eve"])
      users[name] = await insertUser(tdb.db, name, now, { email: `${name}@x.test` });
    familyId = await insertFamily(tdb.db, "ann", users.ann, now);
    await insertMember(tdb.db, familyId, users.bob, false, now);
    deviceId = (await provisionDevice(tdb.db, { mac: "0AA5A1E0D001", secret: "s", name: "Cellar" })).id;
    await tdb.db.updateTable("devices").set({ family_id: familyId }).where("id", "=", deviceId).execute();
  });
  afterAll(() => tdb?.close());

  it("collects 30 days of diagnostics with daily water and regenerations", async () => {
    const at = "2026-05-09T08:00:00.000Z";
    await tdb.db
      .insertInto("device_events")
      .values(
        [
          { id: "r1", type: "regeneration-start", ts: "2026-05-09T02:00:00.000Z" },
          { id: "r2", type: "regeneration-start", ts: "2026-05-09T14:00:00.000Z" },
          { id: "c1", type: "close", ts: "2026-05-01T02:00:00.000Z", close_reason: 769 },
          { id: "old", type: "close", ts: "2026-03-01T02:00:00.000Z", close_reason: 513 },
        ].map((e) => ({ close_reason: null, station: null, ...e, device_id: deviceId, received_at: at })),
      )
      .execute();
    await tdb.db
      .insertInto("device_water_daily")
      .values([
        { device_id: deviceId, day: "2026-05-09", water_l: 321.25, samples: 3, updated_at: at },
        { device_id: deviceId, day: "2026-03-01", water_l: 999, samples: 3, updated_at: at },
      ])
      .execute();
    const d = await collectDiagnostics(tdb.db, deviceId, new Date("2026-05-10T12:00:00.000Z"));
    expect(d.events.map((e) => e.time)).toEqual([
      "2026-05-09T14:00:00.000Z",
      "2026-05-09T02:00:00.000Z",
      "2026-05-01T02:00:00.000Z",
    ]);
    expect(d.events[2]).toEqual({ time: "2026-05-01T02:00:00.000Z", type: "close", closeReason: 769 });
    expect(d.dailyUsage[0].date).toBe("2026-04-11");
    expect(d.dailyUsage.at(-1)?.date).toBe("2026-05-10");
    expect(d.dailyUsage.find((u) => u.date === "2026-05-09")).toEqual({
      date: "2026-05-09",
      waterL: 321.25,
      regenerations: 2,
    });
    expect(d.dailyUsage.reduce((s, u) => s + u.waterL, 0)).toBe(321.25);
    const none = await collectDiagnostics(tdb.db, "gone", new Date());
    expect(none).toMatchObject({ firmwareVersion: null, online: false, events: [], settings: null });
  });

  it("creates, lists per owner, updates, handles and deletes: own requests only, frozen once handled", async () => {
    const a1 = await createAfterSale(deps(), users.ann, {
      ...input(deviceId, "First request"),
      attachDiagnostics: true,
    });
    expect(a1.diagnostics?.dailyUsage).toHaveLength(30);
    const a2 = await createAfterSale(deps(), users.ann, input(deviceId, "Second request"));
    const b1 = await createAfterSale(deps(), users.bob, input(deviceId, "Bob's request"));
    await expect(createAfterSale(deps(), users.eve, input(deviceId, "Eve's attempt"))).rejects.toMatchObject({
      status: 404,
      messageKey: "device.notFound",
    });

    const ann = await listAfterSales(tdb.db, users.ann, { skipCount: 0, maxResultCount: 1 });
    expect(ann).toMatchObject({ totalCount: 2, items: [{ id: a2.id }] });
    expect((await listAfterSales(tdb.db, users.bob, {})).items.map((i) => i.id)).toEqual([b1.id]);
    await expect(getAfterSale(tdb.db, users.bob, a1.id)).rejects.toMatchObject({ messageKey: "afterSale.notFound" });

    const edited = await updateAfterSale(deps(), users.ann, a1.id, {
      description: "First request, edited",
      photos: [],
      contactPhone: "123",
      attachDiagnostics: false,
    });
    expect(edited).toMatchObject({ description: "First request, edited", contactPhone: "123", diagnostics: null });
    await expect(
      updateAfterSale(deps(), users.bob, a1.id, { ...input(deviceId, "nope nope"), attachDiagnostics: false }),
    ).rejects.toBeInstanceOf(AppError);

    const handled = await handleAfterSale(deps(), a1.id, "  Done.  ");
    expect(handled).toMatchObject({ handled: true, reply: "Done." });
    expect(await handleAfterSale(deps(), a1.id, "Again")).toBe("already-handled");
    expect(await handleAfterSale(deps(), "missing", "x")).toBe("not-found");
    // The owner is told once, in their language, with the reply; the message waits for the server's worker.
    const told = await tdb.db
      .selectFrom("messages")
      .selectAll()
      .where("source_key", "=", `after-sale:${a1.id}`)
      .execute();
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ user_id: users.ann, type: 2, event: "after-sale-answered", is_read: 0 });
    const lang = (
      await tdb.db.selectFrom("users").select("language_type").where("id", "=", users.ann).executeTakeFirstOrThrow()
    ).language_type;
    expect(told[0].content).toBe(
      translate(asLanguage(lang), "message.afterSaleAnswered.content", {
        device: told[0].device_name ?? "",
        reply: "Done.",
      }),
    );
    const source = await tdb.db
      .selectFrom("message_sources")
      .select("published_at")
      .where("source_key", "=", `after-sale:${a1.id}`)
      .executeTakeFirstOrThrow();
    expect(source.published_at).toBeNull();
    await expect(deleteAfterSale(deps(), users.ann, a1.id)).rejects.toMatchObject({ messageKey: "afterSale.handled" });
    await expect(
      updateAfterSale(deps(), users.ann, a1.id, { ...input(deviceId, "late edit"), attachDiagnostics: false }),
    ).rejects.toMatchObject({ messageKey: "afterSale.handled", status: 409 });

    expect((await listAfterSales(tdb.db, users.ann, { handled: true })).items.map((i) => i.id)).toEqual([a1.id]);
    expect((await listAfterSales(tdb.db, users.ann, { handled: false })).items.map((i) => i.id)).toEqual([a2.id]);
    const open = await listAfterSalesForService(tdb.db, { unhandled: true });
    expect(open.map((o) => o.id)).toEqual([a2.id, b1.id]);
    expect(open[1]).toMatchObject({ userName: "bob", email: "bob@x.test" });

    await deleteAfterSale(deps(), users.ann, a2.id);
    await expect(getAfterSale(tdb.db, users.ann, a2.id)).rejects.toMatchObject({ status: 404 });
  });

  it("lets exactly one of a concurrent edit and the service team's handling decide", async () => {
    const r = await createAfterSale(deps(), users.bob, input(deviceId, "Race request"));
    const results = await Promise.allSettled([
      handleAfterSale(deps(), r.id, "Handled"),
      deleteAfterSale(deps(), users.bob, r.id),
    ]);
    const row = await tdb.db.selectFrom("after_sale_requests").selectAll().where("id", "=", r.id).executeTakeFirst();
    if (row) {
      // Handled first: the row stays handled and the delete was refused.
      expect(row.handled).toBe(1);
      expect(results[1].status).toBe("rejected");
    } else {
      // Deleted first: handling found nothing.
      expect(results[0]).toMatchObject({ status: "fulfilled", value: "not-found" });
    }
  });

  it("keeps requests when the device and the household are deleted", async () => {
    await tdb.db.deleteFrom("families").where("id", "=", familyId).execute();
    await tdb.db.deleteFrom("devices").where("id", "=", deviceId).execute();
    const list = await listAfterSales(tdb.db, users.bob, {});
    expect(list.items[0]).toMatchObject({ deviceName: "Cellar", deviceId, familyId });
  });
});
