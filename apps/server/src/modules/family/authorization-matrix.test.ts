import { randomUUID } from "node:crypto";
import { familyEndpoints } from "@aquapilot/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createTestApp, registerByEmail, type TestApp } from "../../../test/helpers.ts";

/**
 * The authorization matrix of spec §6, generated from the route table: every household and member call of the
 * contract (paths under /api/run-lucky/device/app/family…) × {anonymous, stranger, member, administrator} → the
 * expected status. A refusal must carry no data (result null, none of the family's names in the body). Adding a
 * household call to the contract without a row here fails the first test.
 */

type Role = "anonymous" | "stranger" | "member" | "admin";
const ROLES: Role[] = ["anonymous", "stranger", "member", "admin"];

/** One fresh household per case: its administrator, one member, one bound device and one share code. */
interface Fixture {
  familyId: string;
  familyName: string;
  deviceName: string;
  memberFamilyUserId: string;
  memberUserId: string;
  shareCode: string;
  shareId: string;
}

interface Row {
  request: (fx: Fixture) => { query?: Record<string, string>; body?: unknown; params?: Record<string, string> };
  /** Status per signed-in role (anonymous is always 401). */
  stranger: number;
  member: number;
  admin: number;
  /** The stranger's successful answer legitimately shows the family (analysis-code: he holds its code). */
  strangerSeesFamily?: boolean;
}

const ADDRESS = { address: "Bund, Shanghai", longitude: 121.491, latitude: 31.233 };

const MATRIX: Record<string, Row> = {
  getFamilies: { request: () => ({}), stranger: 200, member: 200, admin: 200 },
  createFamily: { request: () => ({ body: { name: "New home", ...ADDRESS } }), stranger: 200, member: 200, admin: 200 },
  getFamily: { request: (f) => ({ params: { id: f.familyId } }), stranger: 403, member: 200, admin: 200 },
  deleteFamily: { request: (f) => ({ params: { id: f.familyId } }), stranger: 403, member: 403, admin: 200 },
  // The administrator cannot leave: he must transfer or delete first (409 with a clear message).
  withdrawFromFamily: { request: (f) => ({ query: { familyId: f.familyId } }), stranger: 403, member: 200, admin: 409 },
  updateFamilyAvatar: {
    request: (f) => ({ query: { familyId: f.familyId, avatar: "/files/a.png" } }),
    stranger: 403,
    member: 403,
    admin: 200,
  },
  updateFamilyName: {
    request: (f) => ({ query: { familyId: f.familyId, name: "Renamed" } }),
    stranger: 403,
    member: 403,
    admin: 200,
  },
  updateFamilyAddress: {
    request: (f) => ({
      query: { familyId: f.familyId, address: "Paris", longitude: "2.35", latitude: "48.85", city: "Paris" },
    }),
    stranger: 403,
    member: 403,
    admin: 200,
  },
  getFamilyDevices: { request: (f) => ({ query: { familyId: f.familyId } }), stranger: 403, member: 200, admin: 200 },
  getFamilyDashboard: { request: (f) => ({ query: { familyId: f.familyId } }), stranger: 403, member: 200, admin: 200 },
  getFamilyUsers: { request: (f) => ({ query: { familyId: f.familyId } }), stranger: 403, member: 200, admin: 200 },
  removeFamilyUser: {
    request: (f) => ({ params: { id: f.memberFamilyUserId } }),
    stranger: 403,
    member: 403,
    admin: 200,
  },
  transferAdministrator: {
    request: (f) => ({ query: { familyId: f.familyId, userId: f.memberUserId } }),
    stranger: 403,
    member: 403,
    admin: 200,
  },
  getShareCode: { request: (f) => ({ query: { familyId: f.familyId } }), stranger: 403, member: 403, admin: 200 },
  // Anyone signed in who holds a valid code may join; members and the administrator join harmlessly again.
  analysisCode: {
    request: (f) => ({ query: { code: f.shareCode } }),
    stranger: 200,
    member: 200,
    admin: 200,
    strangerSeesFamily: true,
  },
  getMyShares: { request: () => ({}), stranger: 200, member: 200, admin: 200 },
  revokeShareCode: { request: (f) => ({ query: { id: f.shareId } }), stranger: 404, member: 404, admin: 200 },
};

const HOUSEHOLD_CALLS = Object.entries(familyEndpoints).filter(([, e]) =>
  e.path.startsWith("/api/run-lucky/device/app/family"),
);

describe("authorization matrix of the household calls (spec §6)", () => {
  let t: TestApp;
  const tokens: Partial<Record<Role, string>> = {};
  const userIds: Partial<Record<Role, string>> = {};
  const userNames: Partial<Record<Role, string>> = {};

  beforeAll(async () => {
    t = await createTestApp();
    for (const role of ["stranger", "member", "admin"] as const) {
      const email = `${role}@matrix.test`;
      userIds[role] = await registerByEmail(t.app, email, "pass-word-1");
      tokens[role] = await bearer(t.app, email, "pass-word-1");
      const row = await t.db
        .selectFrom("users")
        .select("user_name")
        .where("id", "=", userIds[role]!)
        .executeTakeFirstOrThrow();
      userNames[role] = row.user_name;
    }
  });
  afterAll(() => t.close());

  async function fixture(): Promise<Fixture> {
    const familyId = randomUUID();
    const familyName = `Household-${randomUUID().slice(0, 8)}`;
    const deviceName = `Softener-${randomUUID().slice(0, 8)}`;
    const now = new Date().toISOString();
    const memberFamilyUserId = randomUUID();
    await t.db
      .insertInto("families")
      .values({
        id: familyId,
        name: familyName,
        ...ADDRESS,
        avatar: null,
        creator_id: userIds.admin!,
        creation_time: now,
      })
      .execute();
    await t.db
      .insertInto("family_members")
      .values([
        { id: randomUUID(), family_id: familyId, user_id: userIds.admin!, is_admin: 1, creation_time: now },
        { id: memberFamilyUserId, family_id: familyId, user_id: userIds.member!, is_admin: 0, creation_time: now },
      ])
      .execute();
    await t.db
      .insertInto("devices")
      .values({
        id: randomUUID(),
        mac: randomUUID().replace(/-/g, "").slice(0, 12).toUpperCase(),
        secret_hash: "x",
        name: deviceName,
        family_id: familyId,
        sort: 0,
        creation_time: now,
      })
      .execute();
    const share = await t.app.inject({
      method: "GET",
      url: "/api/run-lucky/device/app/family-user/trans-to-other-member-qr-code",
      query: { familyId },
      headers: { authorization: tokens.admin! },
    });
    expect(share.statusCode).toBe(200);
    const shareCode = share.json().result.code as string;
    const row = await t.db
      .selectFrom("family_share_codes")
      .select("id")
      .where("family_id", "=", familyId)
      .executeTakeFirstOrThrow();
    return {
      familyId,
      familyName,
      deviceName,
      memberFamilyUserId,
      memberUserId: userIds.member!,
      shareCode,
      shareId: row.id,
    };
  }

  it("has an expectation for every household call, and none for a call that does not exist", () => {
    expect(HOUSEHOLD_CALLS.length).toBeGreaterThanOrEqual(16);
    expect(Object.keys(MATRIX).sort()).toEqual(HOUSEHOLD_CALLS.map(([name]) => name).sort());
  });

  for (const [name, ep] of HOUSEHOLD_CALLS) {
    for (const role of ROLES) {
      it(`${ep.method} ${ep.path.replace("/api/run-lucky/device/app/", "")} as ${role}`, async () => {
        const row = MATRIX[name];
        if (!row) throw new Error(`no expectation for household call ${name}: add it to MATRIX`);
        const fx = await fixture();
        const req = row.request(fx);
        let url = ep.path;
        for (const [k, v] of Object.entries(req.params ?? {})) url = url.replace(`{${k}}`, encodeURIComponent(v));
        const res = await t.app.inject({
          method: ep.method,
          url,
          query: req.query,
          ...(req.body ? { payload: req.body as object } : {}),
          headers: { ...(role === "anonymous" ? {} : { authorization: tokens[role]! }), "accept-language": "en" },
        });
        const expected = role === "anonymous" ? 401 : row[role];
        expect(res.statusCode, res.body).toBe(expected);
        const body = res.json();
        const secrets = [fx.familyName, fx.deviceName, fx.shareCode, userNames.member!, userNames.admin!];
        if (expected >= 400) {
          expect(body).toMatchObject({ success: false, result: null, unAuthorizedRequest: expected === 401 });
          for (const s of secrets) expect(res.body).not.toContain(s);
        } else {
          expect(body).toMatchObject({ success: true, error: null });
          if (role === "stranger" && !row.strangerSeesFamily) {
            for (const s of secrets) expect(res.body).not.toContain(s);
          }
        }
      });
    }
  }
});
