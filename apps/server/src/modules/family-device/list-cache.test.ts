import { endpoints } from "@aquapilot/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { familyWithDevices, signUpOwner, type TestUser } from "../../../test/api-factories.ts";
import { call } from "../../../test/call.ts";
import { ENGINES, openTestDatabase, type TestDatabase } from "../../../test/databases.ts";
import { insertFamily, insertUser } from "../../../test/factories.ts";
import { createTestApp, type TestApp } from "../../../test/helpers.ts";
import { type BusEvent, InProcessBus } from "../../bus.ts";
import { provisionDevice } from "../devices/provision.ts";
import { bindDevice } from "../devices/service.ts";
import { createFamilyDeviceLists } from "./list-cache.ts";
import { updateDeviceSort } from "./service.ts";

describe.each(ENGINES)("households' device lists kept per process on %s", (engine) => {
  let tdb: TestDatabase;
  const bus = new InProcessBus();
  const deps = () => ({ db: tdb.db, bus, now: () => new Date("2026-03-01T10:00:00Z") });
  let userId: string;
  const families: string[] = [];
  const devices: string[] = [];
  let clock = 0;
  const lists = () =>
    createFamilyDeviceLists({ db: tdb.db, bus, present: (l) => l.map((d) => d.name), clock: () => clock });
  /** Renames a device behind the cache's back: no bus event. */
  const renameQuietly = (id: string, name: string) =>
    tdb.db.updateTable("devices").set({ name }).where("id", "=", id).execute();

  beforeAll(async () => {
    tdb = await openTestDatabase(engine);
    const now = new Date().toISOString();
    userId = await insertUser(tdb.db, "ann", now);
    families.push(await insertFamily(tdb.db, "home", userId, now), await insertFamily(tdb.db, "cabin", userId, now));
    for (const [i, familyId] of [families[0], families[0], families[1]].entries()) {
      const mac = `02CC0000000${i + 1}`;
      devices.push((await provisionDevice(tdb.db, { mac, secret: `s${i}`, name: `D${i}` })).id);
      await bindDevice(deps(), userId, { familyId, code: `${mac}:s${i}` });
    }
  });
  afterAll(() => tdb?.close());

  it("answers from memory until an event of the household drops its list", async () => {
    const cache = lists();
    expect(await cache.read(families[0])).toEqual(["D0", "D1"]);
    await renameQuietly(devices[0], "quiet");
    expect(await cache.read(families[0])).toEqual(["D0", "D1"]);
    const events: BusEvent[] = [
      { type: "device.changed", familyId: families[0], deviceId: devices[0], message: {} as never },
      { type: "family.devices-changed", familyId: families[0] },
      { type: "family.members-changed", familyId: families[0] },
    ];
    for (const [i, event] of events.entries()) {
      await renameQuietly(devices[0], `E${i}`);
      bus.publish(event);
      expect(await cache.read(families[0])).toEqual([`E${i}`, "D1"]);
    }
    cache.close();
  });

  it("keeps the list through other households' and other kinds of events", async () => {
    const cache = lists();
    await renameQuietly(devices[0], "D0");
    const before = await cache.read(families[0]);
    await renameQuietly(devices[0], "later");
    bus.publish({ type: "family.devices-changed", familyId: families[1] });
    bus.publish({ type: "device.changed", familyId: null, deviceId: devices[0], message: {} as never });
    bus.publish({ type: "user.changed", userId });
    bus.publish({ type: "user.revoked", userId });
    expect(await cache.read(families[0])).toEqual(before);
    expect(cache.size).toBe(1);
    cache.clear();
    expect(await cache.read(families[0])).toEqual(["later", "D1"]);
    cache.close();
  });

  it("reads again after the lifetime, and every time with a lifetime of 0", async () => {
    const cache = createFamilyDeviceLists({
      db: tdb.db,
      bus,
      present: (l) => l.map((d) => d.name),
      ttlMs: 1000,
      clock: () => clock,
    });
    await renameQuietly(devices[0], "D0");
    await cache.read(families[0]);
    await renameQuietly(devices[0], "aged");
    clock += 999;
    expect(await cache.read(families[0])).toEqual(["D0", "D1"]);
    clock += 1;
    expect(await cache.read(families[0])).toEqual(["aged", "D1"]);
    cache.close();
    const off = createFamilyDeviceLists({ db: tdb.db, bus, present: (l) => l.map((d) => d.name), ttlMs: 0 });
    await off.read(families[0]);
    await renameQuietly(devices[0], "D0");
    expect(await off.read(families[0])).toEqual(["D0", "D1"]);
    expect(off.size).toBe(0);
    off.close();
  });

  it("sees a new order at once: update-device-sort announces family.devices-changed", async () => {
    const cache = lists();
    expect(await cache.read(families[0])).toEqual(["D0", "D1"]);
    const order = await updateDeviceSort(deps(), userId, families[0], [devices[1], devices[0]]);
    expect(order.map((d) => d.id)).toEqual([devices[1], devices[0]]);
    expect(await cache.read(families[0])).toEqual(["D1", "D0"]);
    cache.close();
  });

  it("follows the bus no more once closed, and holds nothing", async () => {
    const handlers = new Set<(event: BusEvent) => void>();
    const watched = {
      subscribe(handler: (event: BusEvent) => void) {
        handlers.add(handler);
        return () => handlers.delete(handler);
      },
    };
    const cache = createFamilyDeviceLists({ db: tdb.db, bus: watched, present: (l) => l.length });
    expect(handlers.size).toBe(1);
    expect(await cache.read(families[1])).toBe(1);
    expect(cache.size).toBe(1);
    cache.close();
    expect(handlers.size).toBe(0);
    expect(cache.size).toBe(0);
  });
});

describe("the family device list over HTTP answers the cached list as a fresh one would", () => {
  let cached: TestApp;
  let fresh: TestApp;
  let owner: TestUser;
  let familyId: string;

  beforeAll(async () => {
    cached = await createTestApp();
    owner = await signUpOwner(cached.app, "lists@dev.test");
    familyId = (await familyWithDevices(cached, owner, 3, { name: "Home" })).id;
    // The same database through a second app with no caches: what the list reads from the database each time.
    fresh = await createTestApp({ database: cached.database, env: { AUTH_CACHE_MS: "0" } });
  });
  afterAll(async () => {
    await fresh?.app.close();
    await cached?.close();
  });

  const list = (t: TestApp) => call(t.app, endpoints.getFamilyDevices, { as: owner, query: { familyId } });

  it("sends the same bytes and content type, and changes made through the API show at once", async () => {
    const first = await list(cached);
    expect(first.status).toBe(200);
    expect(cached.app.familyDeviceLists.size).toBe(1);
    const again = await list(cached);
    expect(again.text).toBe(first.text);
    const reference = await list(fresh);
    expect(again.text).toBe(reference.text);
    expect(again.headers["content-type"]).toBe(reference.headers["content-type"]);

    const ids = first.result.map((d) => d.id);
    const sorted = await call(cached.app, endpoints.updateDeviceSort, {
      as: owner,
      body: { familyId, deviceIds: [...ids].reverse() },
    });
    expect(sorted.status).toBe(200);
    const reordered = await list(cached);
    expect(reordered.result.map((d) => d.id)).toEqual([...ids].reverse());
    const renamed = await call(cached.app, endpoints.updateDeviceName, {
      as: owner,
      query: { deviceId: ids[0] as string, name: "Kitchen" },
    });
    expect(renamed.status).toBe(200);
    const after = await list(cached);
    expect(after.result.find((d) => d.id === ids[0])?.name).toBe("Kitchen");
    expect(after.text).toBe((await list(fresh)).text);
  });

  it("keeps the membership check in front of the cache", async () => {
    await list(cached);
    const stranger = await signUpOwner(cached.app, "stranger-lists@dev.test");
    const refused = await call(cached.app, endpoints.getFamilyDevices, { as: stranger, query: { familyId } });
    expect(refused.status).toBe(404);
    expect(refused.text).not.toContain("Kitchen");
  });
});
