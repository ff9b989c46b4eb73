import { endSessions } from "../../auth/sessions.ts";
import type { CoreServices } from "../../core-services.ts";
import type { Db } from "../../db/index.ts";
import { AppError, ErrorCode } from "../../http/errors.ts";
import { phoneTarget } from "../account/index.ts";

/** What happened to each family of a deleted account. */
export interface FamilyHandOver {
  familyId: string;
  /** "deleted": the user was the only member, the family is gone and its devices unbound; "left": others remain. */
  outcome: "deleted" | "left";
  /** The member who became administrator, when the deleted user was the administrator. */
  newAdminUserId: string | null;
}

/**
 * Removes `userId` from each of their families inside `trx` (spec §6): a family whose only
 * member the user is gets deleted, its devices unbound (devices.family_id NULL); otherwise the membership goes and,
 * if the family would be left without an administrator, administration passes to the longest-standing other member
 * (earliest membership, then id). Each family row is written first so concurrent membership changes of the same
 * family wait for this transaction (a row lock on PostgreSQL, the write lock on SQLite): a family never ends up
 * with no administrator.
 */
export async function leaveAllFamilies(trx: Db, userId: string): Promise<FamilyHandOver[]> {
  const memberships = await trx
    .selectFrom("family_members")
    .select("family_id")
    .where("user_id", "=", userId)
    .orderBy("family_id")
    .execute();
  const result: FamilyHandOver[] = [];
  for (const { family_id: familyId } of memberships) {
    await trx
      .updateTable("families")
      .set((eb) => ({ name: eb.ref("name") }))
      .where("id", "=", familyId)
      .execute();
    const members = await trx
      .selectFrom("family_members")
      .select(["id", "user_id", "is_admin"])
      .where("family_id", "=", familyId)
      .orderBy("creation_time")
      .orderBy("id")
      .execute();
    // Removed by someone else meanwhile: nothing left to do here.
    if (!members.some((m) => m.user_id === userId)) continue;
    const others = members.filter((m) => m.user_id !== userId);
    if (others.length === 0) {
      await trx.updateTable("devices").set({ family_id: null }).where("family_id", "=", familyId).execute();
      await trx.deleteFrom("family_members").where("family_id", "=", familyId).execute();
      await trx.deleteFrom("families").where("id", "=", familyId).execute();
      result.push({ familyId, outcome: "deleted", newAdminUserId: null });
      continue;
    }
    // Leave first, then promote: family_members_one_admin (migration 0003) allows one administrator at a time.
    await trx.deleteFrom("family_members").where("family_id", "=", familyId).where("user_id", "=", userId).execute();
    let newAdminUserId: string | null = null;
    if (!others.some((m) => m.is_admin === 1)) {
      const heir = others[0];
      await trx.updateTable("family_members").set({ is_admin: 1 }).where("id", "=", heir.id).execute();
      newAdminUserId = heir.user_id;
    }
    result.push({ familyId, outcome: "left", newAdminUserId });
  }
  return result;
}

/**
 * Deletes the caller's account with the delete-account code (spec §7 POST /profile/log-off Q code; §5 "security
 * code verification first"). The code must be the newest live one sent to the account's own e-mail or phone.
 * In ONE transaction: the code is spent, families handed on or deleted ({@link leaveAllFamilies}), the user's family
 * share codes revoked, the user row
 * anonymised (user name "deleted-<id>", e-mail, phone, name, avatar cleared, password hash emptied so no password
 * matches, is_deleted 1, is_master 0), the security stamp changed and every refresh token revoked. Then bus
 * `user.revoked` closes the hub connections and `family.members-changed` is published for each family: REST refuses
 * the old tokens on the next call (per-request stamp check), the hubs drop the sockets at once.
 * @throws AppError InvalidCode (wrong, expired, reused or dead code); NotFound when the user is already gone.
 */
export async function deleteAccount(ctx: CoreServices, userId: string, code: string): Promise<FamilyHandOver[]> {
  const user = await ctx.db
    .selectFrom("users")
    .select(["id", "email", "phone_number", "country_code"])
    .where("id", "=", userId)
    .where("is_deleted", "=", 0)
    .executeTakeFirst();
  if (!user) throw new AppError(ErrorCode.NotFound, "user.notFound");
  const targets = [
    ...(user.email ? [user.email] : []),
    ...(user.phone_number && user.country_code ? [phoneTarget(user.phone_number, user.country_code)] : []),
  ];
  const codeId = await ctx.codes.check("delete-account", targets, code);
  const families = await ctx.db.transaction().execute(async (trx) => {
    await ctx.codes.consume(trx, codeId);
    const handOver = await leaveAllFamilies(trx, userId);
    // Share codes the user handed out must not let anyone join after the inviter is gone.
    await trx
      .updateTable("family_share_codes")
      .set({ revoked_at: ctx.now().toISOString() })
      .where("inviter_id", "=", userId)
      .where("revoked_at", "is", null)
      .execute();
    await trx
      .updateTable("users")
      .set({
        user_name: `deleted-${userId}`,
        name: null,
        email: null,
        phone_number: null,
        country_code: null,
        avatar: null,
        password_hash: "",
        is_deleted: 1,
        is_master: 0,
      })
      .where("id", "=", userId)
      .execute();
    await endSessions(trx, userId, ctx.now(), "account-deleted");
    return handOver;
  });
  ctx.bus.publish({ type: "user.revoked", userId });
  for (const f of families) ctx.bus.publish({ type: "family.members-changed", familyId: f.familyId });
  return families;
}
