import { randomUUID } from "node:crypto";
import { endpoints } from "@aquapilot/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, openTestDatabase, type TestDatabase } from "../../../test/databases.ts";
import { requireAccess } from "../../auth/access.ts";
import { type BusEvent, InProcessBus } from "../../bus.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import type { Db } from "../../db/index.ts";
import { AppError } from "../../http/errors.ts";
import { createFamily, deleteFamily, type FamilyDeps, withdrawFromFamily } from "../family/service.ts";
import { countAdministrators, listFamilyUsers, removeFamilyUser, transferAdministrator } from "./service.ts";
import { createShareCodes, SHARE_CODE_SECONDS } from "./share-codes.ts";

async function insertUser(db: Db, name: string): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto("users")
    .values({
      id,
      user_name: `${name}-${id.slice(0, 8)}`,
      name,
      email: null,
      phone_number: null,
      country_code: null,
      password_hash: "x",
      service_region: 1,
      language_type: "en",
      avatar: null,
      security_stamp: randomUUID(),
      is_deleted: 0,
      creation_time: new Date().toISOString(),
    })
    .execute();
  return id;
}

const ADDRESS = { address: "Bund, Shanghai", longitude: 121.491, latitude: 31.233 };

describe.each(ENGINES)("households on %s (spec §6)", (engine) => {
  let tdb: TestDatabase;
  let deps: FamilyDeps;
  let clock: Date;
  const events: BusEvent[] = [];

  beforeAll(async () => {
    tdb = await openTestDatabase(engine);
    clock = new Date("2026-01-01T00:00:00Z");
    const bus = new InProcessBus();
    bus.subscribe((e) => events.push(e));
    deps = { db: tdb.db, bus, now: () => clock };
  });
  afterAll(() => tdb?.close());

  /** A family of an administrator and `members` joined members; answers the ids. */
  async function familyWith(members: number) {
    const admin = await insertUser(tdb.db, "admin");
    const family = await createFamily(deps, admin, { name: "Home", ...ADDRESS });
    const memberIds: string[] = [];
    for (let i = 0; i < members; i++) {
      const userId = await insertUser(tdb.db, `member${i}`);
      clock = new Date(clock.getTime() + 1000);
      await tdb.db
        .insertInto("family_members")
        .values({
          id: randomUUID(),
          family_id: family.id,
          user_id: userId,
          is_admin: 0,
          creation_time: clock.toISOString(),
        })
        .execute();
      memberIds.push(userId);
    }
    return { admin, familyId: family.id, memberIds };
  }

  const removalNotices = (userId: string) =>
    tdb.db
      .selectFrom("messages")
      .selectAll()
      .where("user_id", "=", userId)
      .where("event", "=", "household-removed")
      .execute();
  const adminOf = async (familyId: string) =>
    (
      await tdb.db
        .selectFrom("family_members")
        .select("user_id")
        .where("family_id", "=", familyId)
        .where("is_admin", "=", 1)
        .execute()
    ).map((r) => r.user_id);

  it("creates a family with its creator as the one administrator; the address is required (§5)", async () => {
    const user = await insertUser(tdb.db, "creator");
    const family = await createFamily(deps, user, { name: "Flat", ...ADDRESS, province: "上海市", city: "上海市" });
    expect(family).toMatchObject({ name: "Flat", isAdmin: true, memberCount: 1, deviceCount: 0, province: "上海市" });
    expect(await countAdministrators(deps, family.id)).toBe(1);
    const refused = await createFamily(deps, user, { name: "No address", longitude: 1, latitude: 2 }).catch((e) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).messageKey).toBe("family.addressRequired");
    expect((refused as AppError).status).toBe(400);
  });

  it("refuses a second administrator at the database level (partial unique index)", async () => {
    const { familyId, memberIds } = await familyWith(1);
    const err = await tdb.db
      .updateTable("family_members")
      .set({ is_admin: 1 })
      .where("family_id", "=", familyId)
      .where("user_id", "=", memberIds[0])
      .execute()
      .catch((e) => e);
    expect(isUniqueViolation(err)).toBe(true);
    expect(await countAdministrators(deps, familyId)).toBe(1);
  });

  it("the administrator cannot leave; a member can, and loses access at once with an event", async () => {
    const { admin, familyId, memberIds } = await familyWith(1);
    const err = await withdrawFromFamily(deps, admin, familyId).catch((e) => e);
    expect((err as AppError).messageKey).toBe("family.adminCannotLeave");
    events.length = 0;
    await withdrawFromFamily(deps, memberIds[0], familyId);
    expect(events).toEqual([{ type: "family.members-changed", familyId }]);
    await expect(
      requireAccess(tdb.db, memberIds[0], { object: "family", role: "member", id: familyId }),
    ).rejects.toMatchObject({ status: 404, messageKey: "family.notFound" });
    // Leaving by oneself writes no notice; being removed does (below).
    expect(await removalNotices(memberIds[0])).toHaveLength(0);
  });

  it("a removed member is told once, in their language, naming the household", async () => {
    const { admin, familyId, memberIds } = await familyWith(1);
    await tdb.db.updateTable("users").set({ language_type: "fr" }).where("id", "=", memberIds[0]).execute();
    const membership = (await listFamilyUsers(deps, familyId)).find((m) => m.userId === memberIds[0])!;
    await removeFamilyUser(deps, admin, membership.id);
    await expect(removeFamilyUser(deps, admin, membership.id)).rejects.toMatchObject({ status: 404 });
    const notices = await removalNotices(memberIds[0]);
    expect(notices).toHaveLength(1);
    const family = await tdb.db
      .selectFrom("families")
      .select("name")
      .where("id", "=", familyId)
      .executeTakeFirstOrThrow();
    expect(family.name).toBe("Home");
    // Who removed them, by name ("admin" is the administrator's display name here).
    expect(notices[0]).toMatchObject({
      type: 3,
      family_id: familyId,
      title: "Retiré d'un foyer",
      content: "admin vous a retiré du foyer Home. Ses appareils n'apparaissent plus dans votre application.",
    });
    expect(await removalNotices(admin)).toHaveLength(0);
  });

  it("transfers the administrator role and lists members administrator first", async () => {
    const { admin, familyId, memberIds } = await familyWith(2);
    await transferAdministrator(deps, admin, { familyId, userId: memberIds[1] });
    expect(await adminOf(familyId)).toEqual([memberIds[1]]);
    // Both sides are told; the other member is not.
    const transferNotices = await tdb.db
      .selectFrom("messages")
      .select(["user_id", "title", "content"])
      .where("family_id", "=", familyId)
      .where("event", "=", "administrator-transferred")
      .orderBy("title")
      .execute();
    expect(transferNotices).toEqual(
      [
        {
          user_id: memberIds[1],
          title: "You are now the administrator",
          content: "admin made you the administrator of Home.",
        },
        { user_id: admin, title: "Administrator changed", content: "You made member1 the administrator of Home." },
      ].sort((a, b) => a.title.localeCompare(b.title)),
    );
    const list = await listFamilyUsers(deps, familyId);
    expect(list.map((m) => [m.userId, m.isAdmin])).toEqual([
      [memberIds[1], true],
      [admin, false],
      [memberIds[0], false],
    ]);
    // The old administrator no longer may transfer or remove.
    await expect(transferAdministrator(deps, admin, { familyId, userId: memberIds[0] })).rejects.toMatchObject({
      messageKey: "family.notAdmin",
    });
    const self = list.find((m) => m.userId === memberIds[1])!;
    await expect(removeFamilyUser(deps, memberIds[1], self.id)).rejects.toMatchObject({
      messageKey: "family.cannotRemoveSelf",
    });
  });

  it("concurrent transfers, removals and leaves always leave exactly one administrator", async () => {
    for (let round = 0; round < 8; round++) {
      const { admin, familyId, memberIds } = await familyWith(4);
      const [b, c, d, e] = memberIds;
      const ids = Object.fromEntries((await listFamilyUsers(deps, familyId)).map((m) => [m.userId, m.id] as const));
      const ops: Array<() => Promise<unknown>> = [
        () => transferAdministrator(deps, admin, { familyId, userId: b }),
        () => transferAdministrator(deps, admin, { familyId, familyUserId: ids[c] }),
        () => transferAdministrator(deps, b, { familyId, userId: d }),
        () => transferAdministrator(deps, c, { familyId, userId: admin }),
        () => removeFamilyUser(deps, admin, ids[b]),
        () => removeFamilyUser(deps, admin, ids[c]),
        () => removeFamilyUser(deps, b, ids[admin]),
        () => withdrawFromFamily(deps, b, familyId),
        () => withdrawFromFamily(deps, c, familyId),
        () => withdrawFromFamily(deps, d, familyId),
        () => withdrawFromFamily(deps, admin, familyId),
        () => removeFamilyUser(deps, d, ids[e]),
      ];
      // A different interleaving each round.
      const order = ops.map((op, i) => ({ op, k: (i * 7 + round * 5) % ops.length })).sort((x, y) => x.k - y.k);
      const results = await Promise.allSettled(order.map(({ op }) => op()));
      for (const r of results) {
        if (r.status === "rejected") expect(r.reason).toBeInstanceOf(AppError);
      }
      const admins = await adminOf(familyId);
      expect(admins).toHaveLength(1);
      const members = await tdb.db
        .selectFrom("family_members")
        .select("user_id")
        .where("family_id", "=", familyId)
        .execute();
      expect(members.map((m) => m.user_id)).toContain(admins[0]);
    }
  });

  it("share codes: join once, harmless twice, expired, tampered, revoked, inviter no longer admin", async () => {
    const shares = createShareCodes({ ...deps, secret: new Uint8Array(32).fill(3) });
    const { admin, familyId, memberIds } = await familyWith(1);
    const guest = await insertUser(tdb.db, "guest");
    // Only the administrator may create one: the endpoint's declared rule, on this household.
    expect(endpoints.getShareCode.access.object).toMatchObject({ object: "family", role: "admin" });
    await expect(
      requireAccess(tdb.db, memberIds[0], { object: "family", role: "admin", id: familyId }),
    ).rejects.toMatchObject({ messageKey: "family.notAdmin" });
    const share = await shares.create(admin, familyId);
    expect(share.validSeconds).toBe(SHARE_CODE_SECONDS);

    const preview = await shares.analyse(guest, share.code, true);
    expect(preview).toMatchObject({
      familyId,
      joined: false,
      alreadyMember: false,
      memberCount: 2,
      inviterName: "admin",
    });
    await expect(
      requireAccess(tdb.db, guest, { object: "family", role: "member", id: familyId }),
    ).rejects.toMatchObject({ status: 404, messageKey: "family.notFound" });

    events.length = 0;
    const joined = await shares.analyse(guest, share.code, false);
    expect(joined).toMatchObject({ joined: true, alreadyMember: false, memberCount: 3 });
    expect(events).toEqual([{ type: "family.members-changed", familyId }]);
    const again = await shares.analyse(guest, share.code, false);
    expect(again).toMatchObject({ joined: false, alreadyMember: true, memberCount: 3 });
    expect(await countAdministrators(deps, familyId)).toBe(1);

    // Tampered: another family id under the same signature.
    const [v, body, sig] = share.code.split(".");
    const claims = JSON.parse(Buffer.from(body, "base64url").toString());
    const forged = `${v}.${Buffer.from(JSON.stringify({ ...claims, f: "other" })).toString("base64url")}.${sig}`;
    await expect(shares.analyse(guest, forged, false)).rejects.toMatchObject({ messageKey: "family.codeInvalid" });
    await expect(shares.analyse(guest, `${share.code}x`, false)).rejects.toMatchObject({ status: 400 });
    // Signed by another key.
    const foreign = createShareCodes({ ...deps, secret: new Uint8Array(32).fill(4) }).sign(claims);
    await expect(shares.analyse(guest, foreign, false)).rejects.toMatchObject({ messageKey: "family.codeInvalid" });
    // Signed for another purpose.
    await expect(shares.analyse(guest, shares.sign({ ...claims, p: "login" }), false)).rejects.toMatchObject({
      messageKey: "family.codeInvalid",
    });

    // My shares lists it with the code while valid; revoked → refused and listed without code.
    const mine = await shares.listMine(admin, {});
    expect(mine.items[0]).toMatchObject({ familyId, code: share.code, expired: false, revoked: false, joinCount: 1 });
    clock = new Date(clock.getTime() + 1000);
    const second = await shares.create(admin, familyId);
    const newest = (await shares.listMine(admin, {})).items[0];
    expect(newest.code).toBe(second.code);
    await shares.revoke(admin, newest.id);
    const other = await insertUser(tdb.db, "other");
    await expect(shares.analyse(other, second.code, false)).rejects.toMatchObject({ messageKey: "family.codeRevoked" });
    await expect(shares.revoke(guest, newest.id)).rejects.toMatchObject({ status: 404 });
    expect((await shares.listMine(admin, {})).items[0]).toMatchObject({ id: newest.id, code: null, revoked: true });

    // Expired after 15 minutes.
    const third = await shares.create(admin, familyId);
    clock = new Date(clock.getTime() + SHARE_CODE_SECONDS * 1000);
    await expect(shares.analyse(other, third.code, false)).rejects.toMatchObject({ messageKey: "family.codeExpired" });
    clock = new Date(clock.getTime() - SHARE_CODE_SECONDS * 1000);

    // A code dies when its inviter stops being the administrator.
    const fourth = await shares.create(admin, familyId);
    await transferAdministrator(deps, admin, { familyId, userId: memberIds[0] });
    await expect(shares.analyse(other, fourth.code, false)).rejects.toMatchObject({ messageKey: "family.codeRevoked" });
  });

  it("deleting a family unbinds its devices and removes members and codes in one go", async () => {
    const { admin, familyId, memberIds } = await familyWith(1);
    const deviceId = randomUUID();
    await tdb.db
      .insertInto("devices")
      .values({
        id: deviceId,
        mac: `AABBCC${deviceId.slice(0, 6).toUpperCase()}`,
        secret_hash: "x",
        name: "Softener",
        family_id: familyId,
        sort: 3,
        creation_time: clock.toISOString(),
      })
      .execute();
    const shares = createShareCodes({ ...deps, secret: new Uint8Array(32).fill(3) });
    await shares.create(admin, familyId);
    await expect(deleteFamily(deps, memberIds[0], familyId)).rejects.toMatchObject({ messageKey: "family.notAdmin" });
    events.length = 0;
    await deleteFamily(deps, admin, familyId);
    expect(events).toEqual([{ type: "family.members-changed", familyId }]);
    // Every member but the administrator is told who deleted it.
    const deletionNotices = await tdb.db
      .selectFrom("messages")
      .select(["user_id", "content"])
      .where("family_id", "=", familyId)
      .where("event", "=", "household-deleted")
      .execute();
    expect(deletionNotices.map((n) => n.user_id).sort()).toEqual([...memberIds].sort());
    expect(deletionNotices[0].content).toBe(
      "admin deleted the household Home. Its devices no longer appear in your app.",
    );
    const device = await tdb.db
      .selectFrom("devices")
      .select(["family_id", "sort"])
      .where("id", "=", deviceId)
      .executeTakeFirstOrThrow();
    expect(device).toEqual({ family_id: null, sort: 0 });
    expect(await tdb.db.selectFrom("family_members").select("id").where("family_id", "=", familyId).execute()).toEqual(
      [],
    );
    expect(
      await tdb.db.selectFrom("family_share_codes").select("id").where("family_id", "=", familyId).execute(),
    ).toEqual([]);
    expect(await tdb.db.selectFrom("families").select("id").where("id", "=", familyId).execute()).toEqual([]);
  });
});
