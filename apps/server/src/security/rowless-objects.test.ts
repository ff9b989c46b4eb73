import { endpoints } from "@aquapilot/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { familyWithDevices, signUpUser, type TestFamily, type TestUser } from "../../test/api-factories.ts";
import { call, okResult } from "../../test/call.ts";
import { bearer, createTestApp, latestCode, type TestApp } from "../../test/helpers.ts";
import { EXTERNAL_CALLBACK_HEADER } from "../modules/devices/routes.ts";

/**
 * Calls that reach their object without an object rule of the contract (no id of a row the route could check: a
 * share code's signed text, a device's MAC, the caller's own account, a batch of message ids), so the authorization
 * matrix cannot place them by its declarations. Each gets here a hand-written expectation from spec §6 and §4:
 * the one the object is for may act on it, a stranger may not, and the stranger's refusal is the very answer a
 * missing object gets (same status, same error code and message, no data), with the object left as it was.
 */

const CALLBACK_SECRET = "rowless-objects-callback-secret-0123456789";

/** Status, error code and message of a refusal: what must be identical for a hidden object and a missing one. */
function refusal(res: { status: number; body: { error: { code: string | null; message: string | null } | null } }) {
  return { status: res.status, code: res.body.error?.code, message: res.body.error?.message };
}

describe("objects reached without a row of their own (spec §6, written by hand)", () => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;
  let home: TestFamily;

  beforeAll(async () => {
    t = await createTestApp({ env: { EXTERNAL_CALLBACK_SECRET: CALLBACK_SECRET } });
    owner = await signUpUser(t.app);
    stranger = await signUpUser(t.app);
    home = await familyWithDevices(t, owner, 1, { name: "Owner-Household-7f3a" });
  });
  afterAll(() => t.close());

  describe("analysis-code: a share code stands for the household its administrator shared (spec §4, §6)", () => {
    it("the invitee holding the live code sees and joins the household", async () => {
      const invitee = await signUpUser(t.app);
      const share = await okResult(call(t, endpoints.getShareCode, { as: owner, query: { familyId: home.id } }));
      const preview = await call(t, endpoints.analysisCode, {
        as: invitee,
        query: { code: share.code, preview: "true" },
      });
      expect(preview.status).toBe(200);
      expect(preview.result).toMatchObject({ familyId: home.id, familyName: "Owner-Household-7f3a", joined: false });
      const joined = await call(t, endpoints.analysisCode, { as: invitee, query: { code: share.code } });
      expect(joined.status).toBe(200);
      expect(joined.result.joined).toBe(true);
    });

    it("a code altered to name the owner's household is refused exactly like one naming no household", async () => {
      const own = await familyWithDevices(t, stranger, 0, { name: "Stranger-Household" });
      const share = await okResult(call(t, endpoints.getShareCode, { as: stranger, query: { familyId: own.id } }));
      const [version, claims, signature] = share.code.split(".") as [string, string, string];
      const retarget = (familyId: string) => {
        const altered = { ...JSON.parse(Buffer.from(claims, "base64url").toString("utf8")), f: familyId };
        return `${version}.${Buffer.from(JSON.stringify(altered)).toString("base64url")}.${signature}`;
      };
      const toOwner = await call(t, endpoints.analysisCode, { as: stranger, query: { code: retarget(home.id) } });
      const toNobody = await call(t, endpoints.analysisCode, {
        as: stranger,
        query: { code: retarget("00000000-0000-4000-8000-000000000000") },
      });
      expect(refusal(toOwner)).toEqual({ status: 400, code: "InvalidCode", message: expect.any(String) });
      expect(refusal(toOwner)).toEqual(refusal(toNobody));
      expect(toOwner.body.result).toBeNull();
      expect(toOwner.text).not.toContain("Owner-Household-7f3a");
      const members = await t.db
        .selectFrom("family_members")
        .select("id")
        .where("family_id", "=", home.id)
        .where("user_id", "=", stranger.userId)
        .execute();
      expect(members).toEqual([]);
    });

    it("a code its maker revoked lets nobody in and names nothing", async () => {
      const share = await okResult(
        call(t, endpoints.getShareCode, { as: owner, query: { familyId: home.id, refresh: "true" } }),
      );
      const mine = await okResult(call(t, endpoints.getMyShares, { as: owner }));
      const row = mine.items.find((s) => s.code === share.code);
      expect(row).toBeDefined();
      expect((await call(t, endpoints.revokeShareCode, { as: owner, query: { id: row!.id } })).status).toBe(200);
      const late = await call(t, endpoints.analysisCode, {
        as: stranger,
        query: { code: share.code, preview: "true" },
      });
      expect(refusal(late)).toMatchObject({ status: 400, code: "InvalidCode" });
      expect(late.text).not.toContain("Owner-Household-7f3a");
    });
  });

  describe("send-device-config-change-message: a device by its MAC, for the integration alone (spec §7)", () => {
    const settings = { washTime: 11 };

    it("the integration holding the secret records the change on the device of that MAC", async () => {
      const res = await call(t, endpoints.sendDeviceConfigChangeMessage, {
        body: { mac: home.devices[0]!.mac, settings },
        headers: { [EXTERNAL_CALLBACK_HEADER]: CALLBACK_SECRET },
      });
      expect(res.status).toBe(200);
      expect(res.result).toEqual({ deviceId: home.devices[0]!.id, settings });
    });

    it("anyone else — even the device's own administrator — is refused as for an unknown MAC, nothing recorded", async () => {
      const before = await t.db
        .selectFrom("device_state")
        .select("settings_json")
        .where("device_id", "=", home.devices[0]!.id)
        .executeTakeFirst();
      // Each caller from an address of its own: wrong secrets are counted per address (and limited), and the known
      // and the unknown MAC are asked under the same count.
      let address = 0;
      const send = (as: TestUser | null, mac: string, from: string, secret?: string) =>
        call(t, endpoints.sendDeviceConfigChangeMessage, {
          as,
          body: { mac, settings: { washTime: 99 } },
          headers: secret ? { [EXTERNAL_CALLBACK_HEADER]: secret } : {},
          remoteAddress: from,
        });
      for (const as of [null, stranger, owner]) {
        for (const secret of [undefined, "not-the-secret"]) {
          const from = `192.0.2.${++address}`;
          const known = await send(as, home.devices[0]!.mac, from, secret);
          const unknown = await send(as, "0E0E0E0E0E0E", from, secret);
          expect(refusal(known)).toMatchObject({ status: 401 });
          expect(refusal(known)).toEqual(refusal(unknown));
          expect(known.body.result).toBeNull();
          expect(known.text).not.toContain(home.devices[0]!.id);
        }
      }
      const after = await t.db
        .selectFrom("device_state")
        .select("settings_json")
        .where("device_id", "=", home.devices[0]!.id)
        .executeTakeFirst();
      expect(after).toEqual(before);
    });
  });

  describe("log-off: the account of the one holding its delete-account code (spec §5 Delete account)", () => {
    it("a stranger sending the owner's code is refused as with a wrong code; the owner then deletes it", async () => {
      const leaving = await signUpUser(t.app);
      const other = await signUpUser(t.app);
      const sent = await call(t, endpoints.sendUserIdentityVerification, {
        as: leaving,
        query: { purpose: "delete-account" },
      });
      expect(sent.status).toBe(200);
      const code = await latestCode(t.app, leaving.email);
      const wrong = code === "000000" ? "000001" : "000000";
      const stolen = await call(t, endpoints.logOff, { as: other, query: { code } });
      const guessed = await call(t, endpoints.logOff, { as: other, query: { code: wrong } });
      expect(refusal(stolen)).toMatchObject({ status: 400, code: "InvalidCode" });
      expect(refusal(stolen)).toEqual(refusal(guessed));
      expect(stolen.text).not.toContain(leaving.email);
      // Neither account was touched: both still sign in.
      expect(await bearer(t.app, leaving.email, leaving.password)).toMatch(/^Bearer /);
      expect(await bearer(t.app, other.email, other.password)).toMatch(/^Bearer /);

      const own = await call(t, endpoints.logOff, { as: leaving, query: { code } });
      expect(own.status).toBe(200);
      expect((await call(t, endpoints.getProfile, { as: leaving })).status).toBe(401);
      expect((await call(t, endpoints.getProfile, { as: other })).status).toBe(200);
    });
  });

  describe("set-message-read: a batch of ids, each the caller's own message (spec §1, §2 Message tab)", () => {
    it("the recipient marks it read; a stranger naming it is refused as for an unknown id and it stays unread", async () => {
      const message = await okResult(call(t, endpoints.testSendMessage, { as: owner }));
      const hidden = await call(t, endpoints.setMessageRead, { as: stranger, body: { ids: [message.id] } });
      const missing = await call(t, endpoints.setMessageRead, {
        as: stranger,
        body: { ids: ["00000000-0000-4000-8000-000000000000"] },
      });
      expect(refusal(hidden)).toMatchObject({ status: 404, code: "NotFound" });
      expect(refusal(hidden)).toEqual(refusal(missing));
      expect(hidden.body.result).toBeNull();
      // One foreign id in a batch with the stranger's own refuses the whole batch.
      const theirs = await okResult(call(t, endpoints.testSendMessage, { as: stranger }));
      const mixed = await call(t, endpoints.setMessageRead, { as: stranger, body: { ids: [theirs.id, message.id] } });
      expect(refusal(mixed)).toEqual(refusal(missing));
      const unread = await okResult(call(t, endpoints.getMessageDetail, { as: owner, query: { id: message.id } }));
      expect(unread.isRead).toBe(false);

      const own = await call(t, endpoints.setMessageRead, { as: owner, body: { ids: [message.id] } });
      expect(own.status).toBe(200);
      expect(own.result).toEqual({ updated: 1 });
      const read = await okResult(call(t, endpoints.getMessageDetail, { as: owner, query: { id: message.id } }));
      expect(read.isRead).toBe(true);
    });
  });
});
