import { type AccessRole, normaliseMac, type ObjectRule } from "@aquapilot/contract";
import { type Kysely, PostgresAdapter, type Transaction } from "kysely";
import type { Bus, BusEvent } from "../bus.ts";
import type { Database, Db } from "../db/index.ts";
import { AppError, ErrorCode } from "../http/errors.ts";
import type { MessageKey } from "../http/messages.ts";
import { DEFAULT_AUTH_CACHE_MS, familyTag, InvalidatedCache, userTag } from "./request-cache.ts";

/** What {@link requireAccess} found: the household the object belongs to (null for a user's own object). */
export interface AccessGrant {
  familyId: string | null;
  /** Whether the caller administers that household. */
  isAdmin: boolean;
  /** The device, for `device`, `deviceMac` and `command` targets. */
  deviceId?: string;
  mac?: string;
}

/** What {@link requireAccess} found for a household target: the household, never null. */
export type FamilyGrant = AccessGrant & { familyId: string };
/** What {@link requireAccess} found for a device target (`device`, `deviceMac`, `command`). */
export type DeviceGrant = FamilyGrant & { deviceId: string; mac: string };

/** One object-level check: the contract's {@link ObjectRule} without its reference, with the object's id. */
export type AccessTarget = Pick<ObjectRule, "object" | "role"> & { id: string };

/** The NotFound key of each object kind (literal types, so docs/errors.md lists each key this check throws). */
const NOT_FOUND = {
  device: "device.notFound",
  deviceMac: "device.notFound",
  familyMember: "family.memberNotFound",
  command: "deviceControl.commandNotFound",
  shareCode: "family.shareNotFound",
  message: "message.notFound",
  afterSale: "afterSale.notFound",
} as const satisfies Record<
  "device" | "deviceMac" | "familyMember" | "command" | "shareCode" | "message" | "afterSale",
  MessageKey
>;

/**
 * Reads `userId`'s membership of household `familyId`: whether they administer it, or null for a stranger. By default
 * one query on the database {@link requireAccess} is given; route checks pass a {@link MembershipCache}'s `read`.
 */
export type MembershipReader = (userId: string, familyId: string) => Promise<{ isAdmin: boolean } | null>;

/** The {@link MembershipReader} of one database (or transaction): one indexed query per call. */
export function membershipOn(db: Db): MembershipReader {
  return async (userId, familyId) => {
    const member = await db
      .selectFrom("family_members")
      .select("is_admin")
      .where("family_id", "=", familyId)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    return member ? { isAdmin: member.is_admin === 1 } : null;
  };
}

/** The caller's membership of `familyId`. @throws AppError Forbidden (family.notMember) for a stranger. */
async function membership(
  read: MembershipReader,
  userId: string,
  familyId: string,
  role: AccessRole,
): Promise<FamilyGrant> {
  const member = await read(userId, familyId);
  if (!member) throw new AppError(ErrorCode.Forbidden, "family.notMember");
  if (role === "admin" && !member.isAdmin) throw new AppError(ErrorCode.Forbidden, "family.notAdmin");
  return { familyId, isAdmin: member.isAdmin };
}

/** The household of a device (by id or MAC) and the caller's part in it. */
async function deviceAccess(
  read: MembershipReader,
  userId: string,
  row: DeviceRef | undefined,
  role: AccessRole,
): Promise<DeviceGrant> {
  if (!row) throw new AppError(ErrorCode.NotFound, "device.notFound");
  if (row.family_id === null) throw new AppError(ErrorCode.Forbidden, "family.notMember");
  const grant = await membership(read, userId, row.family_id, role);
  return { ...grant, deviceId: row.id, mac: row.mac };
}

type DeviceRef = { id: string; mac: string; family_id: string | null };

/**
 * The one object-level authorization check of the server (one place, so no handler can forget it; spec §6): may
 * `userId` act as `role` on the object `target.object` with id `target.id`? Route registration calls it with what an
 * endpoint's contract entry declares ({@link ObjectRule}); a service calls it again inside its transaction where a
 * concurrent change could alter the answer. Answers the household found and whether the caller administers it.
 * - `family`: the household itself; `device` / `deviceMac`: the household the device is bound to; `familyMember`:
 *   the household of that membership row; `command`: the household of the commanded device.
 * - `shareCode`, `message`, `afterSale`: the object must be the caller's own (answers familyId null).
 *
 * `readMembership` is where the caller's part in a household is read: by default one query on `db`. The route-level
 * check passes the per-process {@link MembershipCache}, sparing every request that read; services re-checking inside a
 * transaction keep the default, so what they decide on is read under their lock. Objects (devices, members, commands,
 * own objects) are always read from `db`.
 * @throws AppError NotFound (device.notFound, family.memberNotFound, deviceControl.commandNotFound,
 *   family.shareNotFound, message.notFound, afterSale.notFound) for an unknown object or another user's own object;
 *   Forbidden (family.notMember) when the caller has no part in the household, or (family.notAdmin) when `role` is
 *   admin and the caller is a plain member.
 */
export async function requireAccess(
  db: Db,
  userId: string,
  target: AccessTarget & { object: "device" | "deviceMac" | "command" },
  readMembership?: MembershipReader,
): Promise<DeviceGrant>;
export async function requireAccess(
  db: Db,
  userId: string,
  target: AccessTarget & { object: "family" | "familyMember" },
  readMembership?: MembershipReader,
): Promise<FamilyGrant>;
export async function requireAccess(
  db: Db,
  userId: string,
  target: AccessTarget,
  readMembership?: MembershipReader,
): Promise<AccessGrant>;
export async function requireAccess(
  db: Db,
  userId: string,
  target: AccessTarget,
  readMembership: MembershipReader = membershipOn(db),
): Promise<AccessGrant> {
  const read = readMembership;
  const { object, role, id } = target;
  const missing = () => new AppError(ErrorCode.NotFound, NOT_FOUND[object as keyof typeof NOT_FOUND]);
  const devices = () => db.selectFrom("devices").select(["id", "mac", "family_id"]);
  switch (object) {
    case "family":
      return membership(read, userId, id, role);
    case "device":
      return deviceAccess(read, userId, await devices().where("id", "=", id).executeTakeFirst(), role);
    case "deviceMac":
      return deviceAccess(read, userId, await devices().where("mac", "=", normaliseMac(id)).executeTakeFirst(), role);
    case "familyMember": {
      const row = await db.selectFrom("family_members").select("family_id").where("id", "=", id).executeTakeFirst();
      if (!row) throw missing();
      return membership(read, userId, row.family_id, role);
    }
    case "command": {
      const row = await db.selectFrom("device_commands").select("device_id").where("id", "=", id).executeTakeFirst();
      if (!row) throw missing();
      return deviceAccess(read, userId, await devices().where("id", "=", row.device_id).executeTakeFirst(), role);
    }
    case "shareCode":
    case "message":
    case "afterSale": {
      const table = OWN_TABLES[object];
      const row = await db
        .selectFrom(table)
        .select("id")
        .where("id", "=", id)
        .where(OWNER_COLUMN[object], "=", userId)
        .executeTakeFirst();
      if (!row) throw missing();
      return { familyId: null, isAdmin: false };
    }
  }
}

/** A per-process cache of household memberships for the route checks; see {@link createMembershipCache}. */
export interface MembershipCache {
  /** The {@link MembershipReader} to hand {@link requireAccess}: cached members, strangers always read again. */
  read: MembershipReader;
  /** Memberships held now (for tests and diagnostics). */
  readonly size: number;
  /** Empties the cache (every membership is read again): for when bus events may have been missed (system.ts). */
  clear(): void;
  /** Stops following the bus and empties the cache. Call once, at shutdown. */
  close(): void;
}

/**
 * Caches the members found by {@link membershipOn}(`db`) per user and household for `ttlMs` (AUTH_CACHE_MS, default
 * 5,000 ms; 0 turns it off), dropped at once by bus `family.members-changed` (the household's: joins, removals,
 * leaves, transfers, deletion) and `user.revoked` (the user's: account deletion, password change). Strangers are not
 * kept: a refusal is read again each time, so joining is seen at once and probing cannot fill the cache
 * (auth/request-cache.ts). `clock` is the monotonic clock in ms (default `performance.now`).
 */
export function createMembershipCache(opts: {
  db: Db;
  bus: Pick<Bus, "subscribe">;
  ttlMs?: number;
  clock?: () => number;
}): MembershipCache {
  const direct = membershipOn(opts.db);
  const cache = new InvalidatedCache<{ isAdmin: boolean } | null>({
    ttlMs: opts.ttlMs ?? DEFAULT_AUTH_CACHE_MS,
    clock: opts.clock,
  });
  cache.follow(opts.bus, (event: BusEvent) =>
    event.type === "family.members-changed"
      ? [familyTag(event.familyId)]
      : event.type === "user.revoked"
        ? [userTag(event.userId)]
        : [],
  );
  // The cache itself is the MembershipCache's size, clear and close.
  return Object.assign(cache, {
    read: (userId: string, familyId: string) =>
      cache.getOrLoad(
        `${userId}\n${familyId}`,
        () => direct(userId, familyId),
        (member) => member && [userTag(userId), familyTag(familyId)],
      ),
  });
}

const OWN_TABLES = { shareCode: "family_share_codes", message: "messages", afterSale: "after_sale_requests" } as const;
const OWNER_COLUMN = { shareCode: "inviter_id", message: "user_id", afterSale: "user_id" } as const;

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
