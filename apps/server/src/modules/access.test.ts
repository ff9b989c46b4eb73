import { endpoints } from "@aquapilot/contract";
import { seedDemoIfEmpty } from "@aquapilot/dev";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, describeEndpoint } from "../../test/call.ts";
import { bearer, createTestApp, registerByEmail, type TestApp } from "../../test/helpers.ts";
import { provisionDevice } from "./devices/provision.ts";

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
    const families = await call(t, endpoints.getFamilies, { as: owner });
    familyId = families.result.items[0].id;
    const devices = await t.db.selectFrom("devices").select("id").orderBy("sort").execute();
    deviceIds = devices.map((d) => d.id);
  });
  afterAll(() => t.close());

  describeEndpoint(endpoints.getFamilies, () => {
    it("lists the caller's families with admin flag and counts; a stranger has none", async () => {
      const mine = await call(t, endpoints.getFamilies, { as: owner });
      expect(mine.result.totalCount).toBe(1);
      expect(mine.result.items[0]).toMatchObject({
        name: "Home",
        isAdmin: true,
        memberCount: 1,
        deviceCount: 2,
        longitude: 121.491,
        latitude: 31.233,
      });
      const theirs = await call(t, endpoints.getFamilies, { as: stranger });
      expect(theirs.result).toEqual({ items: [], totalCount: 0 });
    });

    it("pages with skipCount / maxResultCount", async () => {
      const page = await call(t, endpoints.getFamilies, { as: owner, query: { skipCount: "1", maxResultCount: "15" } });
      expect(page.result).toEqual({ items: [], totalCount: 1 });
    });
  });

  describeEndpoint(endpoints.getFamilyDevices, () => {
    it("lists a family's devices in sort order with their state", async () => {
      await t.db
        .updateTable("device_state")
        .set({ online: 1, station: 2 })
        .where("device_id", "=", deviceIds[1])
        .execute();
      const res = await call(t, endpoints.getFamilyDevices, { as: owner, query: { familyId } });
      expect(res.status).toBe(200);
      const list = res.result;
      expect(list.map((d: { name: string }) => d.name)).toEqual(["Kitchen", "Garage"]);
      expect(list[0]).toMatchObject({
        mac: "A1B2C3D4E501",
        sort: 0,
        online: false,
        station: null,
        deviceModel: "RL-S1",
      });
      expect(list[1]).toMatchObject({ mac: "A1B2C3D4E502", sort: 1, online: true, station: 2 });
    });

    it("refuses a stranger another family's devices as an unknown family (404, no data)", async () => {
      const res = await call(t, endpoints.getFamilyDevices, { as: stranger, query: { familyId } });
      expect(res.status).toBe(404);
      const body = res.body;
      expect(body).toMatchObject({ success: false, result: null, error: { code: "NotFound" } });
      expect(res.text).not.toContain("Kitchen");
      expect(res.text).not.toContain("A1B2C3D4E501");
    });
  });

  describeEndpoint(endpoints.queryDeviceInfo, () => {
    it("query-device-info sends the query command and answers the device info", async () => {
      const res = await call(t, endpoints.queryDeviceInfo, { as: owner, query: { deviceId: deviceIds[0] } });
      expect(res.status).toBe(200);
      const info = res.result;
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
      const sent = t.devices.calls.at(-1)!;
      expect(sent).toMatchObject({ deviceId: deviceIds[0], name: "query" });
      expect(info.commandId).toBe(sent.commandId);
    });

    it("query-device-info on an offline device answers the last known state with commandId null", async () => {
      t.devices.offline.add(deviceIds[1]);
      const res = await call(t, endpoints.queryDeviceInfo, { as: owner, query: { deviceId: deviceIds[1] } });
      expect(res.status).toBe(200);
      expect(res.result).toMatchObject({ id: deviceIds[1], station: 2, commandId: null });
    });

    it("query-device-info refuses a stranger as an unknown device (404) without sending anything", async () => {
      const before = t.devices.calls.length;
      const denied = await call(t, endpoints.queryDeviceInfo, { as: stranger, query: { deviceId: deviceIds[0] } });
      expect(denied.status).toBe(404);
      expect(denied.text).not.toContain("Kitchen");
      const unknown = await call(t, endpoints.queryDeviceInfo, { as: owner, query: { deviceId: "nope" } });
      expect(unknown.status).toBe(404);
      expect(unknown.body.error).toEqual(denied.body.error);
      expect(t.devices.calls.length).toBe(before);
    });

    it("an unbound provisioned device is nobody's", async () => {
      const { id } = await provisionDevice(t.db, { mac: "A1B2C3D4E5FF", secret: "x", name: "Spare" });
      const res = await call(t, endpoints.queryDeviceInfo, { as: owner, query: { deviceId: id } });
      expect(res.status).toBe(404);
    });
  });

  it("seedDemoIfEmpty does nothing the second time", async () => {
    const again = await seedDemoIfEmpty(t.db, { devices: [{ mac: "A1B2C3D4E599", secret: "z", name: "X" }] });
    expect(again.created).toBe(false);
    expect(await t.db.selectFrom("devices").select("id").where("mac", "=", "A1B2C3D4E599").execute()).toEqual([]);
  });
});
