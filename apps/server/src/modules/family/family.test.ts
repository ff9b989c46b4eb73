import { endpoints } from "@aquapilot/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADDRESS, signUpOwner, signUpUser, type TestUser } from "../../../test/api-factories.ts";
import { call, describeEndpoint } from "../../../test/call.ts";
import { createTestApp, type TestApp } from "../../../test/helpers.ts";
import { provisionDevice } from "../devices/provision.ts";

describe("households over HTTP (spec §5, §6, §7)", () => {
  let t: TestApp;
  let clock = Date.now();
  let owner: TestUser;
  let guest: TestUser;
  let familyId: string;

  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date(clock) });
    owner = await signUpOwner(t.app, "owner@home.test");
    guest = await signUpUser(t.app, "guest@home.test");
  });
  afterAll(() => t.close());

  describeEndpoint(endpoints.createFamily, () => {
    it("refuses a family without an address with the spec's text in the caller's language", async () => {
      for (const [lang, text] of [
        ["en", "Select household address"],
        ["zh-CN", "请选择家庭地址"],
        ["fr", "Sélectionnez l'adresse du foyer"],
      ] as const) {
        const res = await call(t.app, endpoints.createFamily, { as: owner, body: { name: "Home" }, lang });
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({
          success: false,
          result: null,
          error: { message: text, validationErrors: [{ message: text, members: ["address"] }] },
        });
      }
      const long = await call(t.app, endpoints.createFamily, { as: owner, body: { name: "x".repeat(33), ...ADDRESS } });
      expect(long.status).toBe(400);
      expect(long.body.error.validationErrors[0].members).toEqual(["name"]);
    });
  });

  describeEndpoint(endpoints.getFamily, () => {
    it("creates a family, reads it by id, and validates the path value", async () => {
      const res = await call(t.app, endpoints.createFamily, {
        as: owner,
        body: { name: "  Home  ", ...ADDRESS, province: "上海市", city: "上海市", district: "黄浦区" },
      });
      expect(res.status).toBe(200);
      const family = res.result;
      expect(family).toMatchObject({ name: "Home", isAdmin: true, memberCount: 1, district: "黄浦区" });
      familyId = family.id;
      const one = await call(t.app, endpoints.getFamily, { as: owner, params: { id: familyId } });
      expect(one.result).toMatchObject({ id: familyId, address: ADDRESS.address, longitude: 121.491 });
      // The region path is read in the reader's language where the region data has the names.
      const inRussian = await call(t.app, endpoints.getFamily, { as: owner, params: { id: familyId }, lang: "ru" });
      expect(inRussian.result).toMatchObject({ province: "Шанхай", city: "Шанхай", district: "район Хуанпу" });
      const listed = await call(t.app, endpoints.getFamilies, { as: owner, lang: "es" });
      expect(listed.result.items[0]).toMatchObject({ province: "Shanghái" });
      const bad = await call(t.app, endpoints.getFamily, { as: owner, params: { id: "x".repeat(65) } });
      expect(bad.status).toBe(400);
      expect(bad.body.error.validationErrors[0].members).toEqual(["id"]);
      const renamed = await call(t.app, endpoints.updateFamilyName, { as: owner, query: { familyId, name: "Flat" } });
      expect(renamed.result.name).toBe("Flat");
      const moved = await call(t.app, endpoints.updateFamilyAddress, {
        as: owner,
        query: { familyId, address: "Paris" },
      });
      expect(moved.status).toBe(400);
      expect(moved.body.error.message).toBe("Select household address");
    });
  });

  describeEndpoint(endpoints.analysisCode, () => {
    it("invites by QR code: preview, join, see the devices; a tampered or expired code is refused clearly", async () => {
      const device = await provisionDevice(t.db, { mac: "A1B2C3D4E5F0", secret: "s", name: "Kitchen" });
      await t.db.updateTable("devices").set({ family_id: familyId }).where("id", "=", device.id).execute();

      const share = (await call(t.app, endpoints.getShareCode, { as: owner, query: { familyId } })).result;
      expect(share.validSeconds).toBe(900);
      expect(Date.parse(share.expiresAt) - clock).toBeLessThan(901_000);

      const tampered = await call(t.app, endpoints.analysisCode, {
        as: guest,
        query: { code: `${share.code.slice(0, -2)}AA` },
        lang: "fr",
      });
      expect(tampered.status).toBe(400);
      expect(tampered.body).toMatchObject({
        result: null,
        error: { code: "InvalidCode", message: "Ce code QR n'est pas une invitation valide à un foyer." },
      });

      const preview = await call(t.app, endpoints.analysisCode, {
        as: guest,
        query: { code: share.code, preview: "true" },
      });
      expect(preview.result).toMatchObject({ familyName: "Flat", joined: false, deviceCount: 1 });
      expect((await call(t.app, endpoints.getFamilyDevices, { as: guest, query: { familyId } })).status).toBe(404);

      const joined = await call(t.app, endpoints.analysisCode, { as: guest, query: { code: share.code } });
      expect(joined.result).toMatchObject({ familyId, joined: true, memberCount: 2 });
      const devices = await call(t.app, endpoints.getFamilyDevices, { as: guest, query: { familyId } });
      expect(devices.result.map((d: { name: string }) => d.name)).toEqual(["Kitchen"]);

      const mine = (await call(t.app, endpoints.getMyShares, { as: owner })).result;
      expect(mine.items[0]).toMatchObject({ familyId, familyName: "Flat", joinCount: 1, expired: false });

      // Another visit to the share screen shows the same code (one entry in "my shares"); the refresh button makes a new
      // one; with under three minutes left a visit gets a new one too.
      const again = (await call(t.app, endpoints.getShareCode, { as: owner, query: { familyId } })).result;
      expect(again.code).toBe(share.code);
      expect((await call(t.app, endpoints.getMyShares, { as: owner })).result.totalCount).toBe(mine.totalCount);
      const refreshed = (await call(t.app, endpoints.getShareCode, { as: owner, query: { familyId, refresh: "true" } }))
        .result;
      expect(refreshed.code).not.toBe(share.code);
      clock += 13 * 60_000;
      const late = (await call(t.app, endpoints.getShareCode, { as: owner, query: { familyId } })).result;
      expect(late.code).not.toBe(refreshed.code);
      expect(late.validSeconds).toBe(900);
      clock -= 13 * 60_000;

      clock += 901_000;
      const expired = await call(t.app, endpoints.analysisCode, { as: guest, query: { code: share.code }, lang: "zh" });
      expect(expired.status).toBe(400);
      expect(expired.body.error.message).toBe("该二维码已过期，请让管理员重新生成。");
      const later = (await call(t.app, endpoints.getMyShares, { as: owner })).result;
      expect(later.items.at(-1)).toMatchObject({ expired: true, code: null }); // the first code, oldest
    });
  });

  describeEndpoint(endpoints.transferAdministrator, () => {
    it("transfers the administrator, the old one leaves and loses the devices at once", async () => {
      const members = (await call(t.app, endpoints.getFamilyUsers, { as: guest, query: { familyId } })).result;
      expect(members.map((m: { isAdmin: boolean }) => m.isAdmin)).toEqual([true, false]);
      const guestMember = members[1];
      expect(members[0]).toHaveProperty("userName");
      expect(members[0]).not.toHaveProperty("email");

      const leave = await call(t.app, endpoints.withdrawFromFamily, { as: owner, query: { familyId } });
      expect(leave.status).toBe(409);
      expect(leave.body.error.message).toMatch(/Transfer the administrator role/);

      const transfer = await call(t.app, endpoints.transferAdministrator, {
        as: owner,
        query: { familyId, familyUserId: guestMember.id },
      });
      expect(transfer.status).toBe(200);
      const after = (await call(t.app, endpoints.getFamilyUsers, { as: owner, query: { familyId } })).result;
      expect(after.filter((m: { isAdmin: boolean }) => m.isAdmin).map((m: { id: string }) => m.id)).toEqual([
        guestMember.id,
      ]);

      expect((await call(t.app, endpoints.withdrawFromFamily, { as: owner, query: { familyId } })).status).toBe(200);
      const gone = await call(t.app, endpoints.getFamilyDevices, { as: owner, query: { familyId } });
      expect(gone.status).toBe(404);
      expect(gone.text).not.toContain("Kitchen");
    });
  });

  describeEndpoint(endpoints.removeFamilyUser, () => {
    it("the administrator removes a member (not himself) and deletes the family", async () => {
      const share = (await call(t.app, endpoints.getShareCode, { as: guest, query: { familyId } })).result;
      await call(t.app, endpoints.analysisCode, { as: owner, query: { code: share.code } });
      const members = (await call(t.app, endpoints.getFamilyUsers, { as: guest, query: { familyId } })).result;
      const [admin, member] = members;
      const self = await call(t.app, endpoints.removeFamilyUser, { as: guest, params: { id: admin.id } });
      expect(self.status).toBe(400);
      expect((await call(t.app, endpoints.removeFamilyUser, { as: guest, params: { id: member.id } })).status).toBe(
        200,
      );
      expect((await call(t.app, endpoints.getFamily, { as: owner, params: { id: familyId } })).status).toBe(404);
      const devices = await call(t.app, endpoints.getFamilyDevices, { as: owner, query: { familyId } });
      expect(devices.status).toBe(404);
      expect(devices.text).not.toContain("Kitchen");

      expect((await call(t.app, endpoints.deleteFamily, { as: guest, params: { id: familyId } })).status).toBe(200);
      expect((await call(t.app, endpoints.getFamilies, { as: guest })).result).toEqual({ items: [], totalCount: 0 });
      const device = await t.db
        .selectFrom("devices")
        .select("family_id")
        .where("mac", "=", "A1B2C3D4E5F0")
        .executeTakeFirst();
      expect(device?.family_id).toBeNull();
    });
  });
});
