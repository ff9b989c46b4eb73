import { type Kysely, PostgresAdapter, type Transaction } from "kysely";
import type { Database, Db } from "../db/index.ts";
import { AppError, ErrorCode } from "../http/errors.ts";

/**
 * Checks that `userId` belongs to family `familyId` (spec §6 "Member: use household and devices") and answers the
 * membership. A stranger — or a family that does not exist — gets 403; nothing about the family is revealed.
 * @throws AppError Forbidden (family.notMember).
 */
export async function requireFamilyMember(
  db: Db,
  userId: string,
  familyId: string,
): Promise<{ familyId: string; isAdmin: boolean }> {
  const member = await db
    .selectFrom("family_members")
    .select(["family_id", "is_admin"])
    .where("family_id", "=", familyId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!member) throw new AppError(ErrorCode.Forbidden, "family.notMember");
  return { familyId: member.family_id, isAdmin: member.is_admin === 1 };
}

/**
 * Checks that `userId` is the administrator of `familyId` (spec §6 "Household Administrator").
 * @throws AppError Forbidden (family.notMember or family.notAdmin).
 */
export async function requireFamilyAdmin(db: Db, userId: string, familyId: string): Promise<void> {
  const member = await requireFamilyMember(db, userId, familyId);
  if (!member.isAdmin) throw new AppError(ErrorCode.Forbidden, "family.notAdmin");
}

/**
 * Checks that `userId` may use device `deviceId`: the device is bound to a family the user belongs to (spec §6).
 * Answers the device's id, MAC and family.
 * @throws AppError NotFound (device.notFound) when the device does not exist; Forbidden (family.notMember) when it
 *   is unbound or bound to a family the user is not a member of.
 */
export async function requireDeviceAccess(
  db: Db,
  userId: string,
  deviceId: string,
): Promise<{ deviceId: string; mac: string; familyId: string }> {
  const device = await db
    .selectFrom("devices")
    .select(["id", "mac", "family_id"])
    .where("id", "=", deviceId)
    .executeTakeFirst();
  if (!device) throw new AppError(ErrorCode.NotFound, "device.notFound");
  if (device.family_id === null) throw new AppError(ErrorCode.Forbidden, "family.notMember");
  await requireFamilyMember(db, userId, device.family_id);
  return { deviceId: device.id, mac: device.mac, familyId: device.family_id };
}

/** True when `db` runs on PostgreSQL (else SQLite): the few statements that differ branch on it. */
export function isPostgres(db: Kysely<Database>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * Inside a transaction, locks family `familyId` against concurrent membership changes and answers whether it
 * exists (spec §6 "a household always has exactly one administrator"). On PostgreSQL this is
 * `SELECT … FOR UPDATE` on the families row, so transfers, removals, leaves, joins and deletion of one family run
 * one after the other and each re-checks the state the previous one left. On SQLite (which has no FOR UPDATE)
 * a plain read suffices: the embedded driver runs one transaction at a time on its single connection, and the
 * database file's write lock serialises writers across processes.
 */
export async function lockFamily(trx: Transaction<Database>, familyId: string): Promise<boolean> {
  let query = trx.selectFrom("families").select("id").where("id", "=", familyId);
  if (isPostgres(trx)) query = query.forUpdate();
  return (await query.executeTakeFirst()) !== undefined;
}
