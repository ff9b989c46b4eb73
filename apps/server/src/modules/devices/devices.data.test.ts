import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, openTestDatabase, type TestDatabase } from "../../../test/databases.ts";
import { insertFamily, insertUser } from "../../../test/factories.ts";
import { requireAccess } from "../../auth/access.ts";
import { type BusEvent, InProcessBus } from "../../bus.ts";
import { AppError } from "../../http/errors.ts";
import { findDeviceModel } from "../device-model/service.ts";
import { deleteFamilyDevice, updateDeviceSort } from "../family-device/service.ts";
import { provisionDevice } from "./provision.ts";
import { bindDevice, recordConfigChange } from "./service.ts";

describe.each(ENGINES)("device data layer on %s", (engine) => {
  let tdb: TestDatabase;
  const bus = new InProcessBus();
  const events: BusEvent[] = [];
  const deps = () => ({ db: tdb.db, bus, now: () => new Date("2026-03-01T10:00:00Z") });
  const users: Record<string, string> = {};
  const families: Record<string, string> = {};
  const devices: string[] = [];

  beforeAll(async () => {
    tdb = await openTestDatabase(engine);
    bus.subscribe((e) => events.push(e));
    const now = new Date().toISOString();
    for (const name of ["ann", "bob"]) {
      users[name] = await insertUser(tdb.db, name, now);
      families[name] = await insertFamily(tdb.db, name, users[name], now);
    }
    for (const n of [1, 2, 3]) {
      devices.push((await provisionDevice(tdb.db, { mac: `02BB0000000${n}`, secret: `s${n}`, name: `D${n}` })).id);
    }
  });
  afterAll(() => tdb?.close());

  it("seeds the simulator's models with their images", async () => {
    const model = await findDeviceModel(tdb.db, "AQ-S35");
    expect(model).toMatchObject({ deviceModel: "AQ-S35", mainImage: "/device-images/aq-s35.svg" });
    expect(model?.images).toHaveLength(2);
  });

  it("names a model in the asked language, else by its catalogue name", async () => {
    expect((await findDeviceModel(tdb.db, "AQ-S25", "zh-Hans"))?.name).toBe("AquaPilot S25 软水机（树脂 25 升）");
    expect((await findDeviceModel(tdb.db, "AQ-S25", "fr"))?.name).toBe("Adoucisseur AquaPilot S25 (25 L de résine)");
    expect((await findDeviceModel(tdb.db, "AQ-S25"))?.name).toBe("AquaPilot S25 softener (25 L resin)");
    // A model added with its name in some languages only: the others read the catalogue name.
    await tdb.db
      .insertInto("device_models")
      .values({
        model: "AQ-X1",
        name: "AquaPilot X1 filter",
        main_image: null,
        images_json: "[]",
        creation_time: new Date().toISOString(),
        names_json: JSON.stringify({ fr: "Filtre AquaPilot X1" }),
      })
      .execute();
    expect((await findDeviceModel(tdb.db, "AQ-X1", "fr"))?.name).toBe("Filtre AquaPilot X1");
    expect((await findDeviceModel(tdb.db, "AQ-X1", "ru"))?.name).toBe("AquaPilot X1 filter");
  });

  it("binds in sort order and moves a device on rebind, announcing it to both households", async () => {
    for (const [i, id] of devices.entries()) {
      const d = await bindDevice(deps(), users.ann, { familyId: families.ann, code: `02BB0000000${i + 1}:s${i + 1}` });
      expect(d).toMatchObject({ id, sort: i });
    }
    await expect(
      bindDevice(deps(), users.bob, { familyId: families.bob, code: "02BB00000001:s1" }),
    ).rejects.toMatchObject({
      code: "Conflict",
    });
    events.length = 0;
    const moved = await bindDevice(deps(), users.bob, {
      familyId: families.bob,
      code: "02BB00000001:s1",
      rebind: true,
    });
    expect(moved).toMatchObject({ familyId: families.bob, sort: 0 });
    expect(events.map((e) => (e.type === "device.changed" ? e.familyId : null)).sort()).toEqual(
      [families.ann, families.bob].sort(),
    );
    // Each household gets the device's state addressed to it (the household that lost it too).
    for (const e of events) {
      if (e.type !== "device.changed") continue;
      expect(e.message).toMatchObject({
        kind: "state",
        deviceId: devices[0],
        mac: "02BB00000001",
        familyId: e.familyId,
      });
      expect(e.message).toMatchObject({ online: false, station: null, event: null, ack: null });
    }
  });

  it("reorders in one transaction and leaves the order untouched on a bad list", async () => {
    const order = await updateDeviceSort(deps(), users.ann, families.ann, [devices[2], devices[1]]);
    expect(order.map((d) => d.id)).toEqual([devices[2], devices[1]]);
    await expect(updateDeviceSort(deps(), users.ann, families.ann, [devices[2], devices[0]])).rejects.toBeInstanceOf(
      AppError,
    );
    const rows = await tdb.db
      .selectFrom("devices")
      .select(["id", "sort"])
      .where("family_id", "=", families.ann)
      .execute();
    expect(Object.fromEntries(rows.map((r) => [r.id, r.sort]))).toEqual({ [devices[2]]: 0, [devices[1]]: 1 });
  });

  it("merges a valve-side change once per message and unbinds keeping the device provisioned", async () => {
    const input = { mac: "02BB00000002", settings: { washTime: 8 }, ts: "2026-03-01T09:00:00Z" };
    await recordConfigChange(deps(), input);
    await recordConfigChange(deps(), input);
    const { settings } = await recordConfigChange(deps(), { ...input, settings: { saltAddition: 4 } });
    expect(settings).toEqual({ washTime: 8, saltAddition: 4 });
    const count = await tdb.db
      .selectFrom("device_events")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("device_id", "=", devices[1])
      .where("type", "=", "config-change")
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(2);

    const grant = await requireAccess(tdb.db, users.ann, { object: "device", role: "admin", id: devices[1] });
    await deleteFamilyDevice(deps(), grant);
    const row = await tdb.db.selectFrom("devices").selectAll().where("id", "=", devices[1]).executeTakeFirstOrThrow();
    expect(row.family_id).toBeNull();
    const again = await bindDevice(deps(), users.ann, { familyId: families.ann, mac: "02BB00000002", secret: "s2" });
    expect(again).toMatchObject({ familyId: families.ann, sort: 1 });
  });

  it("two valve-side changes of one device at once both land (neither merge reads the row before the other wrote)", async () => {
    const keys = [
      "washTime",
      "saltAddition",
      "backWashTime",
      "resinVolume",
      "rawWaterHardness",
      "saltTankRefillTime",
    ] as const;
    for (let round = 0; round < 5; round++) {
      // Each change of its own key, all at once: on PostgreSQL each merge holds the row from its read to its commit.
      await Promise.all(
        keys.map((key, i) =>
          recordConfigChange(deps(), {
            mac: "02BB00000003",
            settings: { [key]: round * 10 + i + 1 },
            ts: `2026-03-01T09:0${round}:0${i}Z`,
          }),
        ),
      );
      const row = await tdb.db
        .selectFrom("device_state")
        .select("settings_json")
        .where("device_id", "=", devices[2])
        .executeTakeFirstOrThrow();
      expect(JSON.parse(row.settings_json ?? "{}")).toEqual(
        Object.fromEntries(keys.map((key, i) => [key, round * 10 + i + 1])),
      );
    }
  });
});
