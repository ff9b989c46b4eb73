import { endpoints } from "@aquapilot/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  familyWithDevices,
  joinWithShareCode,
  signUpOwner,
  signUpUser,
  type TestUser,
} from "../../../test/api-factories.ts";
import { call, describeEndpoint } from "../../../test/call.ts";
import { createTestApp, type TestApp } from "../../../test/helpers.ts";
import { provisionDevice } from "./provision.ts";
import { EXTERNAL_CALLBACK_HEADER, externalCallbackSecret } from "./routes.ts";

describe("devices over HTTP: binding, device screens, models, settings, external callback (spec §7)", () => {
  let t: TestApp;
  let owner: TestUser;
  let member: TestUser;
  let stranger: TestUser;
  let homeId: string;
  let cabinId: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp();
    owner = await signUpOwner(t.app, "owner@dev.test");
    member = await signUpUser(t.app, "member@dev.test");
    stranger = await signUpOwner(t.app, "stranger@dev.test");
    homeId = (await familyWithDevices(t, owner, 0, { name: "Home" })).id;
    cabinId = (await familyWithDevices(t, stranger, 0, { name: "Cabin" })).id;
    await joinWithShareCode(t.app, homeId, owner, member);
    for (const [name, mac, model] of [
      ["a", "02AA00000001", "AQ-S25"],
      ["b", "02AA00000002", "AQ-S15"],
      ["c", "02AA00000003", "AQ-S35"],
    ]) {
      ids[name] = (await provisionDevice(t.db, { mac, secret: `secret-${name}`, name: `Softener ${name}`, model })).id;
    }
  });
  afterAll(() => t.close());

  describeEndpoint(endpoints.bindDevice, () => {
    it("binds with the right secret, refuses a wrong one, a non-administrator and a stranger", async () => {
      const wrong = await call(t.app, endpoints.bindDevice, {
        as: owner,
        body: { familyId: homeId, code: "02:AA:00:00:00:01:nope" },
      });
      expect(wrong.status).toBe(400);
      expect(wrong.body.error).toMatchObject({
        code: "InvalidCode",
        message: "The pairing code is not valid for any device.",
      });
      const unknown = await call(t.app, endpoints.bindDevice, {
        as: owner,
        body: { familyId: homeId, code: "02AA000000FF:secret-a" },
      });
      expect(unknown.body.error.message).toBe("The pairing code is not valid for any device.");
      const empty = await call(t.app, endpoints.bindDevice, { as: owner, body: { familyId: homeId } });
      expect(empty.status).toBe(400);
      expect(empty.body.error.validationErrors[0].members).toEqual(["code"]);
      const byMember = await call(t.app, endpoints.bindDevice, {
        as: member,
        body: { familyId: homeId, code: "02AA00000001:secret-a" },
      });
      expect(byMember.status).toBe(403);
      const byStranger = await call(t.app, endpoints.bindDevice, {
        as: stranger,
        body: { familyId: homeId, code: "02AA00000001:secret-a" },
      });
      expect(byStranger.status).toBe(404);

      const ok = await call(t.app, endpoints.bindDevice, {
        as: owner,
        body: { familyId: homeId, code: "02:AA:00:00:00:01:secret-a", name: "Kitchen" },
      });
      expect(ok.status).toBe(200);
      expect(ok.result).toMatchObject({
        id: ids.a,
        familyId: homeId,
        name: "Kitchen",
        sort: 0,
        deviceModel: "AQ-S25",
      });
      const second = await call(t.app, endpoints.bindDevice, {
        as: owner,
        body: { familyId: homeId, mac: "02-AA-00-00-00-02", secret: "secret-b" },
      });
      expect(second.result).toMatchObject({ id: ids.b, sort: 1, name: "Softener b" });
      const again = await call(t.app, endpoints.bindDevice, {
        as: owner,
        body: { familyId: homeId, code: "02AA00000001:secret-a" },
      });
      expect(again.result).toMatchObject({ id: ids.a, sort: 0, alreadyInFamily: true });
      expect(ok.result.alreadyInFamily).toBeUndefined();
    });

    it("refuses binding a device of another household unless rebind is explicit with the secret", async () => {
      const refused = await call(t.app, endpoints.bindDevice, {
        as: stranger,
        body: { familyId: cabinId, code: "02AA00000001:secret-a" },
        lang: "zh-Hans",
      });
      expect(refused.status).toBe(409);
      expect(refused.body.error.message).toBe("该设备已属于另一个家庭。请先重置设备，再重新添加以将其移到本家庭。");
      const badRebind = await call(t.app, endpoints.bindDevice, {
        as: stranger,
        body: { familyId: cabinId, code: "02AA00000001:wrong", rebind: true },
      });
      expect(badRebind.status).toBe(400);
      expect(
        (await t.db.selectFrom("devices").select("family_id").where("id", "=", ids.a).executeTakeFirstOrThrow())
          .family_id,
      ).toBe(homeId);

      const moved = await call(t.app, endpoints.bindDevice, {
        as: stranger,
        body: { familyId: cabinId, code: "02AA00000001:secret-a", rebind: true },
      });
      expect(moved.status).toBe(200);
      expect(moved.result).toMatchObject({ id: ids.a, familyId: cabinId, sort: 0 });
      expect((await call(t.app, endpoints.getDeviceDetail, { as: owner, query: { deviceId: ids.a } })).status).toBe(
        404,
      );
      // Back home for the next tests.
      const back = await call(t.app, endpoints.bindDevice, {
        as: owner,
        body: { familyId: homeId, code: "02AA00000001:secret-a", rebind: true },
      });
      expect(back.result).toMatchObject({ familyId: homeId, sort: 2 });
    });
  });

  describeEndpoint(endpoints.getDeviceWithData, () => {
    it("shows a device with state, settings and model; renames and changes its image; strangers get 404", async () => {
      const detail = await call(t.app, endpoints.getDeviceWithData, { as: member, query: { deviceId: ids.b } });
      expect(detail.status).toBe(200);
      expect(detail.result).toMatchObject({
        id: ids.b,
        mac: "02AA00000002",
        online: false,
        settings: null,
        deviceModel: { deviceModel: "AQ-S15", mainImage: "/device-images/aq-s15.svg" },
      });
      const same = await call(t.app, endpoints.getDeviceDetail, { as: member, query: { deviceId: ids.b } });
      expect(same.result).toEqual(detail.result);
      expect(
        (await call(t.app, endpoints.getDeviceWithData, { as: stranger, query: { deviceId: ids.b } })).status,
      ).toBe(404);
      expect((await call(t.app, endpoints.getDeviceWithData, { as: owner, query: { deviceId: "nope" } })).status).toBe(
        404,
      );

      const renamed = await call(t.app, endpoints.updateDeviceName, {
        as: member,
        query: { deviceId: ids.b, name: "  Cellar " },
      });
      expect(renamed.result.name).toBe("Cellar");
      const tooLong = await call(t.app, endpoints.updateDeviceName, {
        as: member,
        query: { deviceId: ids.b, name: "x".repeat(33) },
      });
      expect(tooLong.status).toBe(400);
      expect(tooLong.body.error.validationErrors[0].members).toEqual(["name"]);
      expect(
        (await call(t.app, endpoints.updateDeviceName, { as: stranger, query: { deviceId: ids.b, name: "Mine" } }))
          .status,
      ).toBe(404);

      const image = await call(t.app, endpoints.updateDeviceImage, {
        as: owner,
        query: { deviceId: ids.b, image: "/device-images/aq-s15-valve.svg" },
      });
      expect(image.result.image).toBe("/device-images/aq-s15-valve.svg");
      const absolute = await call(t.app, endpoints.updateDeviceImage, {
        as: owner,
        query: { deviceId: ids.b, image: "https://evil.example/x.png" },
      });
      expect(absolute.status).toBe(400);
    });

    it("names the device's model in the caller's language (Accept-Language), on both device screens' calls", async () => {
      const modelName = async (endpoint: typeof endpoints.getDeviceWithData, lang: string | null) =>
        (await call(t.app, endpoint, { as: member, query: { deviceId: ids.b }, lang })).result.deviceModel?.name;
      for (const endpoint of [endpoints.getDeviceWithData, endpoints.getDeviceDetail]) {
        expect(await modelName(endpoint, "en")).toBe("AquaPilot S15 softener (15 L resin)");
        expect(await modelName(endpoint, "zh-CN,zh;q=0.9")).toBe("AquaPilot S15 软水机（树脂 15 升）");
        expect(await modelName(endpoint, "fr")).toBe("Adoucisseur AquaPilot S15 (15 L de résine)");
        expect(await modelName(endpoint, "es")).toBe("Descalcificador AquaPilot S15 (15 L de resina)");
        expect(await modelName(endpoint, "ru")).toBe("Умягчитель AquaPilot S15 (15 л смолы)");
        // No Accept-Language: the server's default language (spec §1 zh-Hans).
        expect(await modelName(endpoint, null)).toBe("AquaPilot S15 软水机（树脂 15 升）");
      }
    });
  });

  it("answers model images by model and by MAC (members only for a MAC)", async () => {
    const byModel = await call(t.app, endpoints.getImagesByDeviceModel, {
      as: member,
      query: { deviceModel: "AQ-S35" },
    });
    expect(byModel.result).toEqual(["/device-images/aq-s35.svg", "/device-images/aq-s35-valve.svg"]);
    const main = await call(t.app, endpoints.getMainImageByDeviceModel, {
      as: member,
      query: { deviceModel: "AQ-S25" },
    });
    expect(main.result).toBe("/device-images/aq-s25.svg");
    expect(
      (await call(t.app, endpoints.getMainImageByDeviceModel, { as: member, query: { deviceModel: "XX" } })).result,
    ).toBeNull();
    const byMac = await call(t.app, endpoints.getImagesByDeviceMac, {
      as: member,
      query: { mac: "02:aa:00:00:00:02" },
    });
    expect(byMac.result[0]).toBe("/device-images/aq-s15.svg");
    const mainByMac = await call(t.app, endpoints.getMainImageByDeviceMac, {
      as: owner,
      query: { mac: "02AA00000001" },
    });
    expect(mainByMac.result).toBe("/device-images/aq-s25.svg");
    expect(
      (await call(t.app, endpoints.getImagesByDeviceMac, { as: stranger, query: { mac: "02AA00000002" } })).status,
    ).toBe(404);
    expect(
      (await call(t.app, endpoints.getImagesByDeviceMac, { as: stranger, query: { mac: "02AA000000FF" } })).status,
    ).toBe(404);
    expect((await call(t.app, endpoints.getImagesByDeviceModel, { query: { deviceModel: "AQ-S15" } })).status).toBe(
      401,
    );
  });

  describeEndpoint(endpoints.updateDeviceSort, () => {
    it("reorders the household's devices in one go; a partial or foreign list changes nothing", async () => {
      const order = [ids.a, ids.b];
      const res = await call(t.app, endpoints.updateDeviceSort, {
        as: member,
        body: { familyId: homeId, deviceIds: order },
      });
      expect(res.status).toBe(200);
      expect(res.result.map((d: { id: string }) => d.id)).toEqual(order);
      const reversed = await call(t.app, endpoints.updateDeviceSort, {
        as: owner,
        body: { familyId: homeId, deviceIds: [ids.b, ids.a] },
      });
      expect(reversed.result.map((d: { sort: number }) => d.sort)).toEqual([0, 1]);
      for (const deviceIds of [[ids.a], [ids.a, ids.a], [ids.a, ids.b, ids.c]]) {
        const bad = await call(t.app, endpoints.updateDeviceSort, { as: owner, body: { familyId: homeId, deviceIds } });
        expect(bad.status).toBe(400);
        expect(bad.body.error.validationErrors[0].members).toEqual(["deviceIds"]);
      }
      const list = await call(t.app, endpoints.getFamilyDevices, { as: owner, query: { familyId: homeId } });
      expect(list.result.map((d: { id: string }) => d.id)).toEqual([ids.b, ids.a]);
      expect(
        (
          await call(t.app, endpoints.updateDeviceSort, {
            as: stranger,
            body: { familyId: homeId, deviceIds: [ids.b, ids.a] },
          })
        ).status,
      ).toBe(404);
    });
  });

  describeEndpoint(endpoints.getDeviceList, () => {
    it("lists the caller's devices paged, of one household or all", async () => {
      const all = await call(t.app, endpoints.getDeviceList, { as: owner, query: { maxResultCount: "1" } });
      expect(all.result).toMatchObject({ totalCount: 2, items: [{ id: ids.b }] });
      const page2 = await call(t.app, endpoints.getDeviceList, {
        as: owner,
        query: { skipCount: "1", maxResultCount: "1" },
      });
      expect(page2.result.items[0].id).toBe(ids.a);
      expect((await call(t.app, endpoints.getDeviceList, { as: stranger, query: { familyId: homeId } })).status).toBe(
        404,
      );
      expect((await call(t.app, endpoints.getDeviceList, { as: stranger })).result).toEqual({
        items: [],
        totalCount: 0,
      });
    });
  });

  describeEndpoint(endpoints.getDeviceModelSetting, () => {
    it("describes each model's advanced settings with units and bounds", async () => {
      const s25 = (await call(t.app, endpoints.getDeviceModelSetting, { as: member, query: { deviceModel: "AQ-S25" } }))
        .result;
      expect(s25.fields).toHaveLength(25);
      const byName = Object.fromEntries(s25.fields.map((f) => [f.name, f]));
      expect(byName.saltAddition).toMatchObject({ type: "number", unit: "kg" });
      expect(byName.rawWaterHardness).toMatchObject({ unit: "mg/L CaCO₃", min: 30, max: 2500 });
      expect(byName.backWashTime).toMatchObject({ picker: "Min/Second", unit: "min" });
      expect(byName.regeneratingTriggerTime).toMatchObject({ type: "time", picker: "Hr/Min" });
      expect(byName.workPattern.options!.map((o: { value: number }) => o.value)).toEqual([0, 1, 2, 3, 4, 5, 6]);
      expect(byName.outRelayMode).toBeUndefined();
      const s15 = (await call(t.app, endpoints.getDeviceModelSetting, { as: member, query: { deviceId: ids.b } }))
        .result;
      expect(s15).toMatchObject({ deviceModel: "AQ-S15" });
      expect(s15.fields).toHaveLength(22);
      expect(s15.sources.length).toBeGreaterThan(0);
      expect(
        (await call(t.app, endpoints.getDeviceModelSetting, { as: stranger, query: { deviceId: ids.b } })).status,
      ).toBe(404);
      expect((await call(t.app, endpoints.getDeviceModelSetting, { as: member })).status).toBe(400);
    });
  });

  describeEndpoint(endpoints.sendDeviceConfigChangeMessage, () => {
    it("records a change made at the valve only with the integration secret", async () => {
      const payload = {
        mac: "02AA00000002",
        settings: { saltAddition: 2.5, regeneratingTriggerTime: "03:00" },
        ts: "2026-01-02T03:04:05Z",
      };
      const CALLBACK = endpoints.sendDeviceConfigChangeMessage;
      const none = await call(t.app, CALLBACK, { body: payload });
      expect(none.status).toBe(401);
      const wrong = await call(t.app, CALLBACK, { body: payload, headers: { [EXTERNAL_CALLBACK_HEADER]: "guess" } });
      expect(wrong.status).toBe(401);
      const secret = externalCallbackSecret(t.config);
      expect(secret.length).toBeGreaterThanOrEqual(32);
      const headers = { [EXTERNAL_CALLBACK_HEADER]: secret };
      const ok = await call(t.app, CALLBACK, { body: payload, headers });
      expect(ok.status).toBe(200);
      expect(ok.result).toEqual({ deviceId: ids.b, settings: payload.settings });
      await call(t.app, CALLBACK, { body: payload, headers });
      const more = await call(t.app, CALLBACK, { body: { ...payload, settings: { washTime: 12 } }, headers });
      expect(more.result.settings).toEqual({ ...payload.settings, washTime: 12 });
      const rows = await t.db.selectFrom("device_events").selectAll().where("device_id", "=", ids.b).execute();
      expect(rows.filter((r) => r.type === "config-change")).toHaveLength(2);
      const detail = await call(t.app, endpoints.getDeviceWithData, { as: member, query: { deviceId: ids.b } });
      expect(detail.result.settings).toMatchObject({ saltAddition: 2.5, washTime: 12 });
      const unknown = await call(t.app, CALLBACK, { body: { ...payload, settings: { nonsense: 1 } }, headers });
      expect(unknown.status).toBe(400);
      expect(unknown.body.error.validationErrors[0].members).toEqual(["nonsense"]);
    });
  });

  describeEndpoint(endpoints.deleteDevice, () => {
    it("unbinds a device (administrator only); it stays provisioned and can be bound again", async () => {
      expect((await call(t.app, endpoints.deleteDevice, { as: member, query: { deviceId: ids.b } })).status).toBe(403);
      expect((await call(t.app, endpoints.deleteDevice, { as: stranger, query: { deviceId: ids.b } })).status).toBe(
        404,
      );
      const res = await call(t.app, endpoints.deleteDevice, { as: owner, query: { deviceId: ids.b } });
      expect(res.status).toBe(200);
      expect(res.result).toBeNull();
      const row = await t.db.selectFrom("devices").selectAll().where("id", "=", ids.b).executeTakeFirstOrThrow();
      expect(row.family_id).toBeNull();
      expect(row.secret_hash).not.toBe("");
      expect((await call(t.app, endpoints.getDeviceWithData, { as: owner, query: { deviceId: ids.b } })).status).toBe(
        404,
      );
      const rebound = await call(t.app, endpoints.bindDevice, {
        as: stranger,
        body: { familyId: cabinId, code: "02AA00000002:secret-b" },
      });
      expect(rebound.result).toMatchObject({ familyId: cabinId });
    });
  });
});
