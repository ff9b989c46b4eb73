import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createTestApp, registerByEmail, type TestApp } from "../../test/helpers.ts";
import { seedDemoIfEmpty } from "./demo.ts";
import { provisionDevice } from "./devices/provision.ts";

const FAMILIES = "/api/run-lucky/device/app/family/";
const FAMILY_DEVICES = "/api/run-lucky/device/app/family-device/get-list-by-family-id";
const QUERY_INFO = "/api/run-lucky/device/app/device-control/query-device-info";

describe("families, devices and access (spec §6)", () => {
  let t: TestApp;
  let owner: string;
  let stranger: string;
  let familyId: string;
  let deviceIds: string[];

  beforeAll(async () => {
    t = await createTestApp();
    const seeded = await seedDemoIfEmpty(t.db, {
      devices: [
        {
          mac: "a1:b2:c3:d4:e5:01",
          secret: "s1",
          name: "Kitchen",
          model: "RL-S1",
          serialNumber: "V1",
          deviceSerialNumber: "D1",
        },
        { mac: "A1B2C3D4E502", secret: "s2", name: "Garage", model: "RL-S1" },
      ],
    });
    expect(seeded).toEqual({ created: true, email: "demo@aquapilot.local", password: "demo1234" });
    owner = await bearer(t.app, "demo", "demo1234");
    await registerByEmail(t.app, "stranger@example.com", "pass-word-1");
    stranger = await bearer(t.app, "stranger@example.com", "pass-word-1");
    const families = (await t.app.inject({ method: "GET", url: FAMILIES, headers: { authorization: owner } })).json();
    familyId = families.result.items[0].id;
    const devices = await t.db.selectFrom("devices").select("id").orderBy("sort").execute();
    deviceIds = devices.map((d) => d.id);
  });
  afterAll(() => t.close());

  it("lists the caller's families with admin flag and counts; a stranger has none", async () => {
    const mine = (await t.app.inject({ method: "GET", url: FAMILIES, headers: { authorization: owner } })).json();
    expect(mine.result.totalCount).toBe(1);
    expect(mine.result.items[0]).toMatchObject({
      name: "Home",
      isAdmin: true,
      memberCount: 1,
      deviceCount: 2,
      longitude: 121.491,
      latitude: 31.233,
    });
    const theirs = (await t.app.inject({ method: "GET", url: FAMILIES, headers: { authorization: stranger } })).json();
    expect(theirs.result).toEqual({ items: [], totalCount: 0 });
  });

  it("pages with skipCount / maxResultCount", async () => {
    const page = await t.app.inject({
      method: "GET",
      url: FAMILIES,
      query: { skipCount: "1", maxResultCount: "15" },
      headers: { authorization: owner },
    });
    expect(page.json().result).toEqual({ items: [], totalCount: 1 });
  });

  it("lists a family's devices in sort order with their state", async () => {
    await t.db
      .updateTable("device_state")
      .set({ online: 1, station: 2 })
      .where("device_id", "=", deviceIds[1])
      .execute();
    const res = await t.app.inject({
      method: "GET",
      url: FAMILY_DEVICES,
      query: { familyId },
      headers: { authorization: owner },
    });
    expect(res.statusCode).toBe(200);
    const list = res.json().result;
    expect(list.map((d: { name: string }) => d.name)).toEqual(["Kitchen", "Garage"]);
    expect(list[0]).toMatchObject({ mac: "A1B2C3D4E501", sort: 0, online: false, station: null, deviceModel: "RL-S1" });
    expect(list[1]).toMatchObject({ mac: "A1B2C3D4E502", sort: 1, online: true, station: 2 });
  });

  it("refuses a stranger another family's devices (403, no data)", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: FAMILY_DEVICES,
      query: { familyId },
      headers: { authorization: stranger },
    });
    expect(res.statusCode).toBe(403);
    const body = res.json();
    expect(body).toMatchObject({ success: false, result: null, error: { code: "Forbidden" } });
    expect(res.body).not.toContain("Kitchen");
    expect(res.body).not.toContain("A1B2C3D4E501");
  });

  it("query-device-info sends the query command and answers the device info", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: QUERY_INFO,
      query: { deviceId: deviceIds[0] },
      headers: { authorization: owner },
    });
    expect(res.statusCode).toBe(200);
    const info = res.json().result;
    expect(info).toMatchObject({
      id: deviceIds[0],
      mac: "A1B2C3D4E501",
      name: "Kitchen",
      model: "RL-S1",
      serialNumber: "V1",
      deviceSerialNumber: "D1",
      online: false,
      vacation: false,
    });
    const call = t.devices.calls.at(-1)!;
    expect(call).toMatchObject({ deviceId: deviceIds[0], name: "query" });
    expect(info.commandId).toBe(call.commandId);
  });

  it("query-device-info on an offline device answers the last known state with commandId null", async () => {
    t.devices.offline.add(deviceIds[1]);
    const res = await t.app.inject({
      method: "POST",
      url: QUERY_INFO,
      query: { deviceId: deviceIds[1] },
      headers: { authorization: owner },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().result).toMatchObject({ id: deviceIds[1], station: 2, commandId: null });
  });

  it("query-device-info refuses a stranger (403) and an unknown device (404) without sending anything", async () => {
    const before = t.devices.calls.length;
    const denied = await t.app.inject({
      method: "POST",
      url: QUERY_INFO,
      query: { deviceId: deviceIds[0] },
      headers: { authorization: stranger },
    });
    expect(denied.statusCode).toBe(403);
    expect(denied.body).not.toContain("Kitchen");
    const unknown = await t.app.inject({
      method: "POST",
      url: QUERY_INFO,
      query: { deviceId: "nope" },
      headers: { authorization: owner },
    });
    expect(unknown.statusCode).toBe(404);
    expect(t.devices.calls.length).toBe(before);
  });

  it("an unbound provisioned device is nobody's", async () => {
    const { id } = await provisionDevice(t.db, { mac: "A1B2C3D4E5FF", secret: "x", name: "Spare" });
    const res = await t.app.inject({
      method: "POST",
      url: QUERY_INFO,
      query: { deviceId: id },
      headers: { authorization: owner },
    });
    expect(res.statusCode).toBe(403);
  });

  it("seedDemoIfEmpty does nothing the second time", async () => {
    const again = await seedDemoIfEmpty(t.db, { devices: [{ mac: "A1B2C3D4E599", secret: "z", name: "X" }] });
    expect(again.created).toBe(false);
    expect(await t.db.selectFrom("devices").select("id").where("mac", "=", "A1B2C3D4E599").execute()).toEqual([]);
  });
});
