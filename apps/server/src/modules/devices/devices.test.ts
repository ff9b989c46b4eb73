import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createTestApp, registerByEmail, type TestApp } from "../../../test/helpers.ts";
import { provisionDevice } from "./provision.ts";
import { EXTERNAL_CALLBACK_HEADER, externalCallbackSecret } from "./routes.ts";

const BASE = "/api/run-lucky/device/app";
const CALLBACK = "/api/run-lucky/Iot/app/external-callback/send-device-config-change-message";
const ADDRESS = { address: "Bund, Shanghai", longitude: 121.491, latitude: 31.233 };

describe("devices over HTTP: binding, device screens, models, settings, external callback (spec §7, issue 4)", () => {
  let t: TestApp;
  let owner: string;
  let member: string;
  let stranger: string;
  let homeId: string;
  let cabinId: string;
  const ids: Record<string, string> = {};

  const call = (
    method: "GET" | "POST" | "PUT" | "DELETE",
    url: string,
    auth: string,
    opts: { query?: Record<string, string>; payload?: object; lang?: string } = {},
  ) =>
    t.app.inject({
      method,
      url: `${BASE}${url}`,
      query: opts.query,
      ...(opts.payload ? { payload: opts.payload } : {}),
      headers: { authorization: auth, "accept-language": opts.lang ?? "en" },
    });

  beforeAll(async () => {
    t = await createTestApp();
    for (const [mail] of [["owner@dev.test"], ["member@dev.test"], ["stranger@dev.test"]]) {
      await registerByEmail(t.app, mail, "pass-word-1");
    }
    owner = await bearer(t.app, "owner@dev.test", "pass-word-1");
    member = await bearer(t.app, "member@dev.test", "pass-word-1");
    stranger = await bearer(t.app, "stranger@dev.test", "pass-word-1");
    homeId = (await call("POST", "/family/", owner, { payload: { name: "Home", ...ADDRESS } })).json().result.id;
    cabinId = (await call("POST", "/family/", stranger, { payload: { name: "Cabin", ...ADDRESS } })).json().result.id;
    const share = (
      await call("GET", "/family-user/trans-to-other-member-qr-code", owner, { query: { familyId: homeId } })
    ).json().result;
    expect((await call("POST", "/family-user/analysis-code", member, { query: { code: share.code } })).statusCode).toBe(
      200,
    );
    for (const [name, mac, model] of [
      ["a", "02AA00000001", "AQ-S25"],
      ["b", "02AA00000002", "AQ-S15"],
      ["c", "02AA00000003", "AQ-S35"],
    ]) {
      ids[name] = (await provisionDevice(t.db, { mac, secret: `secret-${name}`, name: `Softener ${name}`, model })).id;
    }
  });
  afterAll(() => t.close());

  it("binds with the right secret, refuses a wrong one, a non-administrator and a stranger", async () => {
    const wrong = await call("POST", "/device", owner, {
      payload: { familyId: homeId, code: "02:AA:00:00:00:01:nope" },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toMatchObject({
      code: "InvalidCode",
      message: "The pairing code is not valid for any device.",
    });
    const unknown = await call("POST", "/device", owner, {
      payload: { familyId: homeId, code: "02AA000000FF:secret-a" },
    });
    expect(unknown.json().error.message).toBe("The pairing code is not valid for any device.");
    const empty = await call("POST", "/device", owner, { payload: { familyId: homeId } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.validationErrors[0].members).toEqual(["code"]);
    const byMember = await call("POST", "/device", member, {
      payload: { familyId: homeId, code: "02AA00000001:secret-a" },
    });
    expect(byMember.statusCode).toBe(403);
    const byStranger = await call("POST", "/device", stranger, {
      payload: { familyId: homeId, code: "02AA00000001:secret-a" },
    });
    expect(byStranger.statusCode).toBe(403);

    const ok = await call("POST", "/device", owner, {
      payload: { familyId: homeId, code: "02:AA:00:00:00:01:secret-a", name: "Kitchen" },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().result).toMatchObject({
      id: ids.a,
      familyId: homeId,
      name: "Kitchen",
      sort: 0,
      deviceModel: "AQ-S25",
    });
    const second = await call("POST", "/device", owner, {
      payload: { familyId: homeId, mac: "02-AA-00-00-00-02", secret: "secret-b" },
    });
    expect(second.json().result).toMatchObject({ id: ids.b, sort: 1, name: "Softener b" });
    const again = await call("POST", "/device", owner, {
      payload: { familyId: homeId, code: "02AA00000001:secret-a" },
    });
    expect(again.json().result).toMatchObject({ id: ids.a, sort: 0, alreadyInFamily: true });
    expect(ok.json().result.alreadyInFamily).toBeUndefined();
  });

  it("refuses binding a device of another household unless rebind is explicit with the secret", async () => {
    const refused = await call("POST", "/device", stranger, {
      payload: { familyId: cabinId, code: "02AA00000001:secret-a" },
      lang: "zh-Hans",
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe("该设备已属于另一个家庭。请先重置设备，再重新添加以将其移到本家庭。");
    const badRebind = await call("POST", "/device", stranger, {
      payload: { familyId: cabinId, code: "02AA00000001:wrong", rebind: true },
    });
    expect(badRebind.statusCode).toBe(400);
    expect(
      (await t.db.selectFrom("devices").select("family_id").where("id", "=", ids.a).executeTakeFirstOrThrow())
        .family_id,
    ).toBe(homeId);

    const moved = await call("POST", "/device", stranger, {
      payload: { familyId: cabinId, code: "02AA00000001:secret-a", rebind: true },
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().result).toMatchObject({ id: ids.a, familyId: cabinId, sort: 0 });
    expect(
      (await call("GET", "/family-device/get-device-detail", owner, { query: { deviceId: ids.a } })).statusCode,
    ).toBe(403);
    // Back home for the next tests.
    const back = await call("POST", "/device", owner, {
      payload: { familyId: homeId, code: "02AA00000001:secret-a", rebind: true },
    });
    expect(back.json().result).toMatchObject({ familyId: homeId, sort: 2 });
  });

  it("shows a device with state, settings and model; renames and changes its image; strangers get 403/404", async () => {
    const detail = await call("GET", "/device/get-device-with--data", member, { query: { deviceId: ids.b } });
    expect(detail.statusCode).toBe(200);
    expect(detail.json().result).toMatchObject({
      id: ids.b,
      mac: "02AA00000002",
      online: false,
      settings: null,
      deviceModel: { deviceModel: "AQ-S15", mainImage: "/device-images/aq-s15.svg" },
    });
    const same = await call("GET", "/family-device/get-device-detail", member, { query: { deviceId: ids.b } });
    expect(same.json().result).toEqual(detail.json().result);
    expect(
      (await call("GET", "/device/get-device-with--data", stranger, { query: { deviceId: ids.b } })).statusCode,
    ).toBe(403);
    expect(
      (await call("GET", "/device/get-device-with--data", owner, { query: { deviceId: "nope" } })).statusCode,
    ).toBe(404);

    const renamed = await call("POST", "/device/update-device-name", member, {
      query: { deviceId: ids.b, name: "  Cellar " },
    });
    expect(renamed.json().result.name).toBe("Cellar");
    const tooLong = await call("POST", "/device/update-device-name", member, {
      query: { deviceId: ids.b, name: "x".repeat(33) },
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error.validationErrors[0].members).toEqual(["name"]);
    expect(
      (await call("POST", "/device/update-device-name", stranger, { query: { deviceId: ids.b, name: "Mine" } }))
        .statusCode,
    ).toBe(403);

    const image = await call("POST", "/device/update-device-image", owner, {
      query: { deviceId: ids.b, image: "/device-images/aq-s15-valve.svg" },
    });
    expect(image.json().result.image).toBe("/device-images/aq-s15-valve.svg");
    const absolute = await call("POST", "/device/update-device-image", owner, {
      query: { deviceId: ids.b, image: "https://evil.example/x.png" },
    });
    expect(absolute.statusCode).toBe(400);
  });

  it("answers model images by model and by MAC (members only for a MAC)", async () => {
    const byModel = await call("GET", "/device-model/get-images-by-device-model", member, {
      query: { deviceModel: "AQ-S35" },
    });
    expect(byModel.json().result).toEqual(["/device-images/aq-s35.svg", "/device-images/aq-s35-valve.svg"]);
    const main = await call("GET", "/device-model/get-main-image-by-device-model", member, {
      query: { deviceModel: "AQ-S25" },
    });
    expect(main.json().result).toBe("/device-images/aq-s25.svg");
    expect(
      (
        await call("GET", "/device-model/get-main-image-by-device-model", member, { query: { deviceModel: "XX" } })
      ).json().result,
    ).toBeNull();
    const byMac = await call("GET", "/device-model/get-images-by-device-mac", member, {
      query: { mac: "02:aa:00:00:00:02" },
    });
    expect(byMac.json().result[0]).toBe("/device-images/aq-s15.svg");
    const mainByMac = await call("GET", "/device-model/get-main-image-by-device-mac", owner, {
      query: { mac: "02AA00000001" },
    });
    expect(mainByMac.json().result).toBe("/device-images/aq-s25.svg");
    expect(
      (await call("GET", "/device-model/get-images-by-device-mac", stranger, { query: { mac: "02AA00000002" } }))
        .statusCode,
    ).toBe(403);
    expect(
      (await call("GET", "/device-model/get-images-by-device-mac", stranger, { query: { mac: "02AA000000FF" } }))
        .statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ method: "GET", url: `${BASE}/device-model/get-images-by-device-model?deviceModel=AQ-S15` }))
        .statusCode,
    ).toBe(401);
  });

  it("reorders the household's devices in one go; a partial or foreign list changes nothing", async () => {
    const order = [ids.a, ids.b];
    const res = await call("PUT", "/family-device/update-device-sort", member, {
      payload: { familyId: homeId, deviceIds: order },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().result.map((d: { id: string }) => d.id)).toEqual(order);
    const reversed = await call("PUT", "/family-device/update-device-sort", owner, {
      payload: { familyId: homeId, deviceIds: [ids.b, ids.a] },
    });
    expect(reversed.json().result.map((d: { sort: number }) => d.sort)).toEqual([0, 1]);
    for (const deviceIds of [[ids.a], [ids.a, ids.a], [ids.a, ids.b, ids.c]]) {
      const bad = await call("PUT", "/family-device/update-device-sort", owner, {
        payload: { familyId: homeId, deviceIds },
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.validationErrors[0].members).toEqual(["deviceIds"]);
    }
    const list = await call("GET", "/family-device/get-list-by-family-id", owner, { query: { familyId: homeId } });
    expect(list.json().result.map((d: { id: string }) => d.id)).toEqual([ids.b, ids.a]);
    expect(
      (
        await call("PUT", "/family-device/update-device-sort", stranger, {
          payload: { familyId: homeId, deviceIds: [ids.b, ids.a] },
        })
      ).statusCode,
    ).toBe(403);
  });

  it("lists the caller's devices paged, of one household or all", async () => {
    const all = await call("GET", "/device-lookup/get-device-list", owner, { query: { maxResultCount: "1" } });
    expect(all.json().result).toMatchObject({ totalCount: 2, items: [{ id: ids.b }] });
    const page2 = await call("GET", "/device-lookup/get-device-list", owner, {
      query: { skipCount: "1", maxResultCount: "1" },
    });
    expect(page2.json().result.items[0].id).toBe(ids.a);
    expect(
      (await call("GET", "/device-lookup/get-device-list", stranger, { query: { familyId: homeId } })).statusCode,
    ).toBe(403);
    expect((await call("GET", "/device-lookup/get-device-list", stranger)).json().result).toEqual({
      items: [],
      totalCount: 0,
    });
  });

  it("describes each model's advanced settings with units and bounds", async () => {
    const s25 = (
      await call("GET", "/device-lookup/get-device-model-setting", member, { query: { deviceModel: "AQ-S25" } })
    ).json().result;
    expect(s25.fields).toHaveLength(25);
    const byName = Object.fromEntries(s25.fields.map((f: { name: string }) => [f.name, f]));
    expect(byName.saltAddition).toMatchObject({ type: "number", unit: "kg" });
    expect(byName.rawWaterHardness).toMatchObject({ unit: "mg/L CaCO₃", min: 30, max: 2500 });
    expect(byName.backWashTime).toMatchObject({ picker: "Min/Second", unit: "min" });
    expect(byName.regeneratingTriggerTime).toMatchObject({ type: "time", picker: "Hr/Min" });
    expect(byName.workPattern.options.map((o: { value: number }) => o.value)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(byName.outRelayMode).toBeUndefined();
    const s15 = (
      await call("GET", "/device-lookup/get-device-model-setting", member, { query: { deviceId: ids.b } })
    ).json().result;
    expect(s15).toMatchObject({ deviceModel: "AQ-S15" });
    expect(s15.fields).toHaveLength(22);
    expect(s15.sources.length).toBeGreaterThan(0);
    expect(
      (await call("GET", "/device-lookup/get-device-model-setting", stranger, { query: { deviceId: ids.b } }))
        .statusCode,
    ).toBe(403);
    expect((await call("GET", "/device-lookup/get-device-model-setting", member)).statusCode).toBe(400);
  });

  it("records a change made at the valve only with the integration secret", async () => {
    const payload = {
      mac: "02AA00000002",
      settings: { saltAddition: 2.5, regeneratingTriggerTime: "03:00" },
      ts: "2026-01-02T03:04:05Z",
    };
    const none = await t.app.inject({ method: "POST", url: CALLBACK, payload });
    expect(none.statusCode).toBe(401);
    const wrong = await t.app.inject({
      method: "POST",
      url: CALLBACK,
      payload,
      headers: { [EXTERNAL_CALLBACK_HEADER]: "guess" },
    });
    expect(wrong.statusCode).toBe(401);
    const secret = externalCallbackSecret(t.config);
    expect(secret.length).toBeGreaterThanOrEqual(32);
    const headers = { [EXTERNAL_CALLBACK_HEADER]: secret };
    const ok = await t.app.inject({ method: "POST", url: CALLBACK, payload, headers });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().result).toEqual({ deviceId: ids.b, settings: payload.settings });
    await t.app.inject({ method: "POST", url: CALLBACK, payload, headers });
    const more = await t.app.inject({
      method: "POST",
      url: CALLBACK,
      payload: { ...payload, settings: { washTime: 12 } },
      headers,
    });
    expect(more.json().result.settings).toEqual({ ...payload.settings, washTime: 12 });
    const rows = await t.db.selectFrom("device_events").selectAll().where("device_id", "=", ids.b).execute();
    expect(rows.filter((r) => r.type === "config-change")).toHaveLength(2);
    const detail = await call("GET", "/device/get-device-with--data", member, { query: { deviceId: ids.b } });
    expect(detail.json().result.settings).toMatchObject({ saltAddition: 2.5, washTime: 12 });
    const unknown = await t.app.inject({
      method: "POST",
      url: CALLBACK,
      payload: { ...payload, settings: { nonsense: 1 } },
      headers,
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.validationErrors[0].members).toEqual(["nonsense"]);
  });

  it("unbinds a device (administrator only); it stays provisioned and can be bound again", async () => {
    expect(
      (await call("DELETE", "/family-device/delete-device", member, { query: { deviceId: ids.b } })).statusCode,
    ).toBe(403);
    expect(
      (await call("DELETE", "/family-device/delete-device", stranger, { query: { deviceId: ids.b } })).statusCode,
    ).toBe(403);
    const res = await call("DELETE", "/family-device/delete-device", owner, { query: { deviceId: ids.b } });
    expect(res.statusCode).toBe(200);
    expect(res.json().result).toBeNull();
    const row = await t.db.selectFrom("devices").selectAll().where("id", "=", ids.b).executeTakeFirstOrThrow();
    expect(row.family_id).toBeNull();
    expect(row.secret_hash).not.toBe("");
    expect((await call("GET", "/device/get-device-with--data", owner, { query: { deviceId: ids.b } })).statusCode).toBe(
      403,
    );
    const rebound = await call("POST", "/device", stranger, {
      payload: { familyId: cabinId, code: "02AA00000002:secret-b" },
    });
    expect(rebound.json().result).toMatchObject({ familyId: cabinId });
  });
});
