import type { TFamilyUser } from "@aquapilot/contract";
import { requireAccess } from "../../auth/access.ts";
import { lockFamily } from "../../auth/family-lock.ts";
import { AppError, ErrorCode } from "../../http/errors.ts";
import type { FamilyDeps } from "../family/index.ts";
import { noticeAdministratorTransferred, noticeMemberRemoved } from "../message/index.ts";

/**
 * The members of a family (spec §7 family-user/get-list-by-family-id; any member may read): administrator first,
 * then by join time, with user name, display name and avatar. No e-mail or phone number is shown to other members.
 * Checks no caller: the route's object rule refuses a stranger (404 family.notFound, as for an unknown family).
 */
export async function listFamilyUsers(deps: FamilyDeps, familyId: string): Promise<TFamilyUser[]> {
  const rows = await deps.db
    .selectFrom("family_members as m")
    .innerJoin("users as u", "u.id", "m.user_id")
    .select(["m.id", "m.family_id", "m.user_id", "m.is_admin", "m.creation_time", "u.user_name", "u.name", "u.avatar"])
    .where("m.family_id", "=", familyId)
    .orderBy("m.is_admin", "desc")
    .orderBy("m.creation_time")
    .orderBy("m.id")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    familyId: r.family_id,
    userId: r.user_id,
    userName: r.user_name,
    name: r.name,
    avatar: r.avatar,
    isAdmin: r.is_admin === 1,
    joinTime: r.creation_time,
  }));
}

/**
 * Checks that the administrator `callerId` may remove `member` (spec §6 "add and remove members"): not themselves,
 * and never the administrator (a family keeps exactly one; the role is transferred, not removed).
 * @throws AppError Validation (family.cannotRemoveSelf).
 */
export function requireRemovable(callerId: string, member: { user_id: string; is_admin: number }): void {
  if (member.user_id === callerId || member.is_admin === 1)
    throw new AppError(ErrorCode.Validation, "family.cannotRemoveSelf");
}

/**
 * Checks that an administrator transfer names its target (spec §6 "transfer admin"): by family-user id or user id.
 * @throws AppError Validation (family.transferTargetRequired) when it names neither.
 */
export function requireTransferTarget(input: { familyUserId?: string; userId?: string }): void {
  if (!input.familyUserId && !input.userId) throw new AppError(ErrorCode.Validation, "family.transferTargetRequired");
}

/**
 * The member the administrator `callerId` hands the role to (spec §6 "transfer admin"): `target`, the family's member
 * the transfer named.
 * @throws AppError NotFound (family.memberNotFound) when the family has no such member; Validation
 *   (family.transferToSelf) when it is the administrator themselves.
 */
export function transferTarget<T extends { user_id: string }>(callerId: string, target: T | undefined): T {
  if (!target) throw new AppError(ErrorCode.NotFound, "family.memberNotFound");
  if (target.user_id === callerId) throw new AppError(ErrorCode.Validation, "family.transferToSelf");
  return target;
}

/**
 * Checks that a transfer of family `familyId` cleared exactly one administrator flag and set exactly one, so the
 * family ends with exactly one administrator (spec §6). Unreachable under the family lock.
 * @throws Error otherwise: thrown inside the transaction, it rolls the transfer back.
 */
export function requireOneAdministratorSwapped(
  familyId: string,
  cleared: { numUpdatedRows: bigint | number },
  set: { numUpdatedRows: bigint | number },
): void {
  if (Number(cleared.numUpdatedRows) !== 1 || Number(set.numUpdatedRows) !== 1) {
    throw new Error(`transferAdministrator: family ${familyId} changed during the transfer`);
  }
}

/**
 * The administrator removes member `familyUserId` (spec §6 "add and remove members"), under the family lock with
 * the administrator re-checked inside the transaction. The removed user's REST access to the family's devices ends
 * with the row; `family.members-changed` makes the hubs stop delivering its device events. The removed user is told
 * by a message ("household-removed", in their language) written in the same transaction; the caller publishes it
 * (or the message worker does within seconds).
 * @throws AppError NotFound (family.memberNotFound) for an unknown member id or one of a household the caller is
 *   not in (the same answer, docs/security.md "No existence oracles"); Forbidden (family.notAdmin) for a plain member
 *   of that household; Validation (family.cannotRemoveSelf).
 */
export async function removeFamilyUser(deps: FamilyDeps, userId: string, familyUserId: string): Promise<void> {
  const target = await deps.db
    .selectFrom("family_members")
    .select(["family_id"])
    .where("id", "=", familyUserId)
    .executeTakeFirst();
  if (!target) throw new AppError(ErrorCode.NotFound, "family.memberNotFound");
  const familyId = target.family_id;
  await deps.db.transaction().execute(async (trx) => {
    if (!(await lockFamily(trx, familyId))) throw new AppError(ErrorCode.NotFound, "family.memberNotFound");
    await requireAccess(trx, userId, { object: "familyMember", role: "admin", id: familyUserId });
    const row = await trx
      .selectFrom("family_members")
      .select(["user_id", "is_admin"])
      .where("id", "=", familyUserId)
      .where("family_id", "=", familyId)
      .executeTakeFirst();
    if (!row) throw new AppError(ErrorCode.NotFound, "family.memberNotFound");
    requireRemovable(userId, row);
    await trx.deleteFrom("family_members").where("id", "=", familyUserId).execute();
    await noticeMemberRemoved(
      trx,
      { userId: row.user_id, membershipId: familyUserId },
      familyId,
      userId,
      deps.now().toISOString(),
    );
  });
  deps.bus.publish({ type: "family.members-changed", familyId });
}

/**
 * The administrator hands the role to another member, chosen by family-user id or user id (spec §6 "transfer
 * admin"). Both are told by a message ("administrator-transferred"). One transaction under the family lock: the caller is re-checked as administrator, the target as a
 * member, then the caller's flag is cleared before the target's is set (the partial unique index
 * family_members_one_admin refuses two administrators), and each update must touch exactly one row — so however
 * transfers, removals and leaves interleave, the family ends with exactly one administrator.
 * @throws AppError Validation (family.transferTargetRequired / family.transferToSelf); NotFound (family.notFound:
 *   no such family, or the caller is not a member); Forbidden (family.notAdmin); NotFound (family.memberNotFound).
 */
export async function transferAdministrator(
  deps: FamilyDeps,
  userId: string,
  input: { familyId: string; familyUserId?: string; userId?: string },
): Promise<void> {
  const { familyId } = input;
  requireTransferTarget(input);
  await deps.db.transaction().execute(async (trx) => {
    if (!(await lockFamily(trx, familyId))) throw new AppError(ErrorCode.NotFound, "family.notFound");
    await requireAccess(trx, userId, { object: "family", role: "admin", id: familyId });
    let query = trx.selectFrom("family_members").select(["id", "user_id"]).where("family_id", "=", familyId);
    if (input.familyUserId) query = query.where("id", "=", input.familyUserId);
    if (input.userId) query = query.where("user_id", "=", input.userId);
    const target = transferTarget(userId, await query.executeTakeFirst());
    const cleared = await trx
      .updateTable("family_members")
      .set({ is_admin: 0 })
      .where("family_id", "=", familyId)
      .where("user_id", "=", userId)
      .where("is_admin", "=", 1)
      .executeTakeFirst();
    const set = await trx
      .updateTable("family_members")
      .set({ is_admin: 1 })
      .where("id", "=", target.id)
      .where("family_id", "=", familyId)
      .executeTakeFirst();
    requireOneAdministratorSwapped(familyId, cleared, set);
    await noticeAdministratorTransferred(trx, familyId, userId, target.user_id, deps.now().toISOString());
  });
  deps.bus.publish({ type: "family.members-changed", familyId });
}

/** Number of administrators of a family (0 or 1 when the rules hold); for checks and tests. */
export async function countAdministrators(deps: Pick<FamilyDeps, "db">, familyId: string): Promise<number> {
  const row = await deps.db
    .selectFrom("family_members")
    .select((eb) => eb.fn.countAll<number>().as("c"))
    .where("family_id", "=", familyId)
    .where("is_admin", "=", 1)
    .executeTakeFirstOrThrow();
  return Number(row.c);
}
