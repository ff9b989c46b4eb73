import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createTestApp, registerByEmail, type TestApp } from "../../../test/helpers.ts";
import { provisionDevice } from "../devices/provision.ts";

const BASE = "/api/run-lucky/device/app";
const ADDRESS = { address: "Bund, Shanghai", longitude: 121.491, latitude: 31.233 };

describe("households over HTTP (spec §5, §6, §7)", () => {
  let t: TestApp;
  let clock = Date.now();
  let owner: string;
  let guest: string;
  let familyId: string;

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
    t = await createTestApp({ now: () => new Date(clock) });
    await registerByEmail(t.app, "owner@home.test", "pass-word-1");
    await registerByEmail(t.app, "guest@home.test", "pass-word-1");
    owner = await bearer(t.app, "owner@home.test", "pass-word-1");
    guest = await bearer(t.app, "guest@home.test", "pass-word-1");
  });
  afterAll(() => t.close());

  it("refuses a family without an address with the spec's text in the caller's language", async () => {
    for (const [lang, text] of [
      ["en", "Select household address"],
      ["zh-CN", "请选择家庭地址"],
      ["fr", "Sélectionnez l'adresse du foyer"],
    ] as const) {
      const res = await call("POST", "/family/", owner, { payload: { name: "Home" }, lang });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        success: false,
        result: null,
        error: { message: text, validationErrors: [{ message: text, members: ["address"] }] },
      });
    }
    const long = await call("POST", "/family/", owner, { payload: { name: "x".repeat(33), ...ADDRESS } });
    expect(long.statusCode).toBe(400);
    expect(long.json().error.validationErrors[0].members).toEqual(["name"]);
  });

  it("creates a family, reads it by id, and validates the path value", async () => {
    const res = await call("POST", "/family/", owner, {
      payload: { name: "  Home  ", ...ADDRESS, province: "上海市", city: "上海市", district: "黄浦区" },
    });
    expect(res.statusCode).toBe(200);
    const family = res.json().result;
    expect(family).toMatchObject({ name: "Home", isAdmin: true, memberCount: 1, district: "黄浦区" });
    familyId = family.id;
    const one = await call("GET", `/family/${familyId}`, owner);
    expect(one.json().result).toMatchObject({ id: familyId, address: ADDRESS.address, longitude: 121.491 });
    // The region path is read in the reader's language where the region data has the names (issue 10).
    const inRussian = await call("GET", `/family/${familyId}`, owner, { lang: "ru" });
    expect(inRussian.json().result).toMatchObject({ province: "Шанхай", city: "Шанхай", district: "район Хуанпу" });
    const listed = await call("GET", "/family/", owner, { lang: "es" });
    expect(listed.json().result.items[0]).toMatchObject({ province: "Shanghái" });
    const bad = await call("GET", `/family/${"x".repeat(65)}`, owner);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.validationErrors[0].members).toEqual(["id"]);
    const renamed = await call("PUT", "/family/update-family-name", owner, { query: { familyId, name: "Flat" } });
    expect(renamed.json().result.name).toBe("Flat");
    const moved = await call("PUT", "/family/update-family-address", owner, { query: { familyId, address: "Paris" } });
    expect(moved.statusCode).toBe(400);
    expect(moved.json().error.message).toBe("Select household address");
  });

  it("invites by QR code: preview, join, see the devices; a tampered or expired code is refused clearly", async () => {
    const device = await provisionDevice(t.db, { mac: "A1B2C3D4E5F0", secret: "s", name: "Kitchen" });
    await t.db.updateTable("devices").set({ family_id: familyId }).where("id", "=", device.id).execute();

    const share = (
      await call("GET", "/family-user/trans-to-other-member-qr-code", owner, { query: { familyId } })
    ).json().result;
    expect(share.validSeconds).toBe(900);
    expect(Date.parse(share.expiresAt) - clock).toBeLessThan(901_000);

    const tampered = await call("POST", "/family-user/analysis-code", guest, {
      query: { code: `${share.code.slice(0, -2)}AA` },
      lang: "fr",
    });
    expect(tampered.statusCode).toBe(400);
    expect(tampered.json()).toMatchObject({
      result: null,
      error: { code: "InvalidCode", message: "Ce code QR n'est pas une invitation valide à un foyer." },
    });

    const preview = await call("POST", "/family-user/analysis-code", guest, {
      query: { code: share.code, preview: "true" },
    });
    expect(preview.json().result).toMatchObject({ familyName: "Flat", joined: false, deviceCount: 1 });
    expect((await call("GET", "/family-device/get-list-by-family-id", guest, { query: { familyId } })).statusCode).toBe(
      403,
    );

    const joined = await call("POST", "/family-user/analysis-code", guest, { query: { code: share.code } });
    expect(joined.json().result).toMatchObject({ familyId, joined: true, memberCount: 2 });
    const devices = await call("GET", "/family-device/get-list-by-family-id", guest, { query: { familyId } });
    expect(devices.json().result.map((d: { name: string }) => d.name)).toEqual(["Kitchen"]);

    const mine = (await call("GET", "/family-user/my-share-list", owner)).json().result;
    expect(mine.items[0]).toMatchObject({ familyId, familyName: "Flat", joinCount: 1, expired: false });

    // Another visit to the share screen shows the same code (one entry in "my shares"); the refresh button makes a new
    // one; with under three minutes left a visit gets a new one too (issue 10).
    const again = (
      await call("GET", "/family-user/trans-to-other-member-qr-code", owner, { query: { familyId } })
    ).json().result;
    expect(again.code).toBe(share.code);
    expect((await call("GET", "/family-user/my-share-list", owner)).json().result.totalCount).toBe(mine.totalCount);
    const refreshed = (
      await call("GET", "/family-user/trans-to-other-member-qr-code", owner, { query: { familyId, refresh: "true" } })
    ).json().result;
    expect(refreshed.code).not.toBe(share.code);
    clock += 13 * 60_000;
    const late = (
      await call("GET", "/family-user/trans-to-other-member-qr-code", owner, { query: { familyId } })
    ).json().result;
    expect(late.code).not.toBe(refreshed.code);
    expect(late.validSeconds).toBe(900);
    clock -= 13 * 60_000;

    clock += 901_000;
    const expired = await call("POST", "/family-user/analysis-code", guest, {
      query: { code: share.code },
      lang: "zh",
    });
    expect(expired.statusCode).toBe(400);
    expect(expired.json().error.message).toBe("该二维码已过期，请让管理员重新生成。");
    const later = (await call("GET", "/family-user/my-share-list", owner)).json().result;
    expect(later.items.at(-1)).toMatchObject({ expired: true, code: null }); // the first code, oldest
  });

  it("transfers the administrator, the old one leaves and loses the devices at once", async () => {
    const members = (await call("GET", "/family-user/get-list-by-family-id", guest, { query: { familyId } })).json()
      .result;
    expect(members.map((m: { isAdmin: boolean }) => m.isAdmin)).toEqual([true, false]);
    const guestMember = members[1];
    expect(members[0]).toHaveProperty("userName");
    expect(members[0]).not.toHaveProperty("email");

    const leave = await call("POST", "/family/withdraw-from-family", owner, { query: { familyId } });
    expect(leave.statusCode).toBe(409);
    expect(leave.json().error.message).toMatch(/Transfer the administrator role/);

    const transfer = await call("DELETE", "/family-user/transfer-administrator", owner, {
      query: { familyId, familyUserId: guestMember.id },
    });
    expect(transfer.statusCode).toBe(200);
    const after = (await call("GET", "/family-user/get-list-by-family-id", owner, { query: { familyId } })).json()
      .result;
    expect(after.filter((m: { isAdmin: boolean }) => m.isAdmin).map((m: { id: string }) => m.id)).toEqual([
      guestMember.id,
    ]);

    expect((await call("POST", "/family/withdraw-from-family", owner, { query: { familyId } })).statusCode).toBe(200);
    const gone = await call("GET", "/family-device/get-list-by-family-id", owner, { query: { familyId } });
    expect(gone.statusCode).toBe(403);
    expect(gone.body).not.toContain("Kitchen");
  });

  it("the administrator removes a member (not himself) and deletes the family", async () => {
    const share = (
      await call("GET", "/family-user/trans-to-other-member-qr-code", guest, { query: { familyId } })
    ).json().result;
    await call("POST", "/family-user/analysis-code", owner, { query: { code: share.code } });
    const members = (await call("GET", "/family-user/get-list-by-family-id", guest, { query: { familyId } })).json()
      .result;
    const [admin, member] = members;
    const self = await call("DELETE", `/family-user/${admin.id}`, guest);
    expect(self.statusCode).toBe(400);
    expect((await call("DELETE", `/family-user/${member.id}`, guest)).statusCode).toBe(200);
    expect((await call("GET", `/family/${familyId}`, owner)).statusCode).toBe(403);
    const devices = await call("GET", "/family-device/get-list-by-family-id", owner, { query: { familyId } });
    expect(devices.statusCode).toBe(403);
    expect(devices.body).not.toContain("Kitchen");

    expect((await call("DELETE", `/family/${familyId}`, guest)).statusCode).toBe(200);
    expect((await call("GET", "/family/", guest)).json().result).toEqual({ items: [], totalCount: 0 });
    const device = await t.db
      .selectFrom("devices")
      .select("family_id")
      .where("mac", "=", "A1B2C3D4E5F0")
      .executeTakeFirst();
    expect(device?.family_id).toBeNull();
  });
});
