import { randomUUID } from "node:crypto";
import type { Language, TFamily, TFamilyCreate, TPaged, TPagedQuery } from "@aquapilot/contract";
import type { ExpressionBuilder } from "kysely";
import { requireAccess } from "../../auth/access.ts";
import { lockFamily } from "../../auth/family-lock.ts";
import type { Bus } from "../../bus.ts";
import type { Database, Db } from "../../db/index.ts";
import type { FamiliesTable } from "../../db/schema.ts";
import { AppError, ErrorCode } from "../../http/errors.ts";
import { paged } from "../../http/paging.ts";
import { localizeAddress } from "../location/index.ts";
import { noticeFamilyDeleted } from "../message/index.ts";

/** What the household services need: the database, the bus (membership events) and the clock. */
export interface FamilyDeps {
  db: Db;
  bus: Bus;
  now: () => Date;
}

/** The household address of spec §5: text plus its coordinates (WGS-84 or the map's system, degrees). */
export interface FamilyAddress {
  address?: string | null;
  longitude?: number | null;
  latitude?: number | null;
  province?: string | null;
  city?: string | null;
  district?: string | null;
}

function familyRows(db: Db, userId: string) {
  return db
    .selectFrom("family_members as me")
    .innerJoin("families as f", "f.id", "me.family_id")
    .select((eb) => [
      "f.id",
      "f.name",
      "f.address",
      "f.longitude",
      "f.latitude",
      "f.province",
      "f.city",
      "f.district",
      "f.avatar",
      "f.creation_time",
      "me.is_admin",
      ...familyCountColumns(eb),
    ])
    .where("me.user_id", "=", userId);
}

/**
 * The member and device counts of the household aliased `f`, as two sub-selects `member_count` and `device_count`
 * (FamilyList, FamilyDetails, a share code's preview).
 */
export function familyCountColumns<DB extends Database & { f: FamiliesTable }, TB extends keyof DB & "f">(
  eb: ExpressionBuilder<DB, TB>,
) {
  const e = eb as unknown as ExpressionBuilder<Database & { f: FamiliesTable }, "f">;
  return [
    e
      .selectFrom("family_members as m")
      .select((x) => x.fn.countAll<number>().as("c"))
      .whereRef("m.family_id", "=", "f.id")
      .as("member_count"),
    e
      .selectFrom("devices as d")
      .select((x) => x.fn.countAll<number>().as("c"))
      .whereRef("d.family_id", "=", "f.id")
      .as("device_count"),
  ] as const;
}

type FamilyRow = Awaited<ReturnType<ReturnType<typeof familyRows>["execute"]>>[number];

/** The wire shape of a family row; with `lang`, its address and region names in that language where known. */
function toFamily(r: FamilyRow, lang?: Language): TFamily {
  const stored = {
    address: r.address,
    province: r.province ?? null,
    city: r.city ?? null,
    district: r.district ?? null,
  };
  const place = lang ? localizeAddress(stored, lang) : stored;
  return {
    id: r.id,
    name: r.name,
    address: place.address,
    longitude: r.longitude === null ? null : Number(r.longitude),
    latitude: r.latitude === null ? null : Number(r.latitude),
    province: place.province,
    city: place.city,
    district: place.district,
    avatar: r.avatar,
    isAdmin: r.is_admin === 1,
    memberCount: Number(r.member_count ?? 0),
    deviceCount: Number(r.device_count ?? 0),
    creationTime: r.creation_time,
  };
}

/**
 * The families `userId` belongs to, oldest first, paged (spec §7 GET /api/run-lucky/device/app/family/), each with
 * the caller's admin flag and the member and device counts; with `lang`, addresses in that language where the region
 * data knows them.
 */
export async function listFamilies(
  db: Db,
  userId: string,
  query: Partial<TPagedQuery>,
  lang?: Language,
): Promise<TPaged<TFamily>> {
  return paged(
    query,
    async () => {
      const row = await db
        .selectFrom("family_members")
        .select((eb) => eb.fn.countAll<number>().as("count"))
        .where("user_id", "=", userId)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },
    async (offset, limit) => {
      const rows = await familyRows(db, userId)
        .orderBy("f.creation_time")
        .orderBy("f.id")
        .offset(offset)
        .limit(limit)
        .execute();
      return rows.map((r) => toFamily(r, lang));
    },
  );
}

/**
 * One family as `userId` sees it (spec §7 GET family/{id}).
 * @throws AppError NotFound (family.notFound) when the family does not exist or the caller is not a member: the same
 *   answer, so a stranger learns nothing (docs/security.md "No existence oracles").
 */
export async function getFamily(db: Db, userId: string, familyId: string, lang?: Language): Promise<TFamily> {
  const row = await familyRows(db, userId).where("f.id", "=", familyId).executeTakeFirst();
  if (!row) throw new AppError(ErrorCode.NotFound, "family.notFound");
  return toFamily(row, lang);
}

/**
 * Checks the household address rule of spec §5 ("Create family: address required" → "Select household address"):
 * non-blank address text and both coordinates.
 * @throws AppError Validation (family.addressRequired, validationErrors members ["address"]).
 */
export function requireAddress(input: FamilyAddress): {
  address: string;
  longitude: number;
  latitude: number;
} {
  const address = input.address?.trim();
  if (!address || typeof input.longitude !== "number" || typeof input.latitude !== "number") {
    throw new AppError(ErrorCode.Validation, "family.addressRequired", {}, [
      { message: "family.addressRequired", members: ["address"] },
    ]);
  }
  return { address, longitude: input.longitude, latitude: input.latitude };
}

/**
 * The region columns of a household (spec §5 household address): province, city and district, each with its
 * surrounding blanks removed; null when absent or blank.
 */
export function regionColumns(input: Pick<FamilyAddress, "province" | "city" | "district">): {
  province: string | null;
  city: string | null;
  district: string | null;
} {
  return {
    province: input.province?.trim() || null,
    city: input.city?.trim() || null,
    district: input.district?.trim() || null,
  };
}

/**
 * Creates a family with `userId` as its administrator (spec §6), in one transaction, and answers it as the creator
 * sees it. Publishes `family.members-changed`.
 * @throws AppError Validation (family.addressRequired) when the address or its coordinates are missing (spec §5).
 */
export async function createFamily(deps: FamilyDeps, userId: string, input: TFamilyCreate): Promise<TFamily> {
  const where = requireAddress(input);
  const now = deps.now().toISOString();
  const familyId = randomUUID();
  await deps.db.transaction().execute(async (trx) => {
    await trx
      .insertInto("families")
      .values({
        id: familyId,
        name: input.name,
        ...where,
        ...regionColumns(input),
        avatar: input.avatar ?? null,
        creator_id: userId,
        creation_time: now,
      })
      .execute();
    await trx
      .insertInto("family_members")
      .values({ id: randomUUID(), family_id: familyId, user_id: userId, is_admin: 1, creation_time: now })
      .execute();
  });
  deps.bus.publish({ type: "family.members-changed", familyId });
  return getFamily(deps.db, userId, familyId);
}

/**
 * Deletes a family (spec §6 "Administrator: … delete household"): its devices are unbound (family_id null, sort 0),
 * its share codes and members removed, the family row deleted — one transaction, under the family lock, with the
 * administrator re-checked inside it. The other members are told by a message ("household-deleted") written in the
 * same transaction. Publishes `family.members-changed` so the hubs stop delivering its devices.
 * @throws AppError NotFound (family.notFound: no such family, or the caller is not a member); Forbidden
 *   (family.notAdmin).
 */
export async function deleteFamily(deps: FamilyDeps, userId: string, familyId: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    if (!(await lockFamily(trx, familyId))) throw new AppError(ErrorCode.NotFound, "family.notFound");
    await requireAccess(trx, userId, { object: "family", role: "admin", id: familyId });
    await noticeFamilyDeleted(trx, familyId, userId, deps.now().toISOString());
    await trx.updateTable("devices").set({ family_id: null, sort: 0 }).where("family_id", "=", familyId).execute();
    await trx.deleteFrom("family_share_codes").where("family_id", "=", familyId).execute();
    await trx.deleteFrom("family_members").where("family_id", "=", familyId).execute();
    await trx.deleteFrom("families").where("id", "=", familyId).execute();
  });
  deps.bus.publish({ type: "family.members-changed", familyId });
}

/**
 * Checks that a member may leave its household (spec §6 "Member: … may leave a household"): any member but the
 * administrator, who must transfer the role or delete the family first (a family always has exactly one administrator).
 * @throws AppError Conflict (family.adminCannotLeave) for the administrator.
 */
export function requireMayLeave(member: { isAdmin: boolean }): void {
  if (member.isAdmin) throw new AppError(ErrorCode.Conflict, "family.adminCannotLeave");
}

/**
 * `userId` leaves family `familyId` (spec §6 "Member: … may leave a household, losing access to its devices"):
 * the membership row is deleted under the family lock; REST access to the family's devices ends with it (every
 * device call checks membership) and `family.members-changed` makes the hubs drop its device events at once.
 * @throws AppError NotFound (family.notFound: no such family, or the caller is not a member); Conflict
 *   (family.adminCannotLeave) for the administrator, who must
 *   transfer the role or delete the family first (a family always has exactly one administrator).
 */
export async function withdrawFromFamily(deps: FamilyDeps, userId: string, familyId: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    if (!(await lockFamily(trx, familyId))) throw new AppError(ErrorCode.NotFound, "family.notFound");
    const me = await requireAccess(trx, userId, { object: "family", role: "member", id: familyId });
    requireMayLeave(me);
    await trx.deleteFrom("family_members").where("family_id", "=", familyId).where("user_id", "=", userId).execute();
  });
  deps.bus.publish({ type: "family.members-changed", familyId });
}

/**
 * The columns a household change sets (spec §7 update-family-name / -avatar / -address): the new name, the new
 * avatar, or the address with its coordinates (required, spec §5: {@link requireAddress}) and its region names
 * ({@link regionColumns}, so a region left out is cleared).
 * @throws AppError Validation (family.addressRequired) for an address without text or coordinates.
 */
export function familyUpdateColumns(
  change: { name: string } | { avatar: string } | { address: FamilyAddress },
): Record<string, string | number | null> {
  if ("name" in change) return { name: change.name };
  if ("avatar" in change) return { avatar: change.avatar };
  return { ...requireAddress(change.address), ...regionColumns(change.address) };
}

/**
 * Changes a family's name, avatar or address (spec §7 update-family-name / -avatar / -address; administrator only)
 * and answers the family. An address change must carry address, longitude and latitude (spec §5).
 * @throws AppError NotFound (family.notFound: no such family, or the caller is not a member); Forbidden
 *   (family.notAdmin); Validation (family.addressRequired).
 */
export async function updateFamily(
  deps: FamilyDeps,
  userId: string,
  familyId: string,
  change: { name: string } | { avatar: string } | { address: FamilyAddress },
): Promise<TFamily> {
  const set = familyUpdateColumns(change);
  await deps.db.updateTable("families").set(set).where("id", "=", familyId).execute();
  return getFamily(deps.db, userId, familyId);
}
