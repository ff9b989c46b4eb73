import { createHash } from "node:crypto";
import { type AccessRole, normaliseMac, type ObjectRule } from "@aquapilot/contract";
import type { Db } from "../db/index.ts";
import { AppError, ErrorCode } from "../http/errors.ts";
import type { MessageKey } from "../http/messages.ts";
import { type MembershipReader, membershipOn } from "./membership.ts";

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

/**
 * The NotFound key of each object kind (literal types, so docs/errors.md lists each key this check throws). A caller
 * with no part in an object gets its kind's key exactly as for an id nothing has (docs/security.md "No existence
 * oracles"): a household, device, membership row or command of a household the caller is not in, like another user's
 * own object, looks absent.
 */
const NOT_FOUND = {
  family: "family.notFound",
  device: "device.notFound",
  deviceMac: "device.notFound",
  familyMember: "family.memberNotFound",
  command: "deviceControl.commandNotFound",
  shareCode: "family.shareNotFound",
  message: "message.notFound",
  afterSale: "afterSale.notFound",
  setupTicket: "setupTicket.notFound",
} as const satisfies Record<AccessTarget["object"], MessageKey>;

/** A NotFound key of {@link NOT_FOUND}. */
type HiddenKey = (typeof NOT_FOUND)[keyof typeof NOT_FOUND];

/**
 * The caller's membership of `familyId`. @throws AppError NotFound (`hidden`, the key of the object asked for) for a
 * stranger, as for an unknown object; Forbidden (family.notAdmin) for a plain member when `role` is admin.
 */
async function membership(
  read: MembershipReader,
  userId: string,
  familyId: string,
  role: AccessRole,
  hidden: HiddenKey,
): Promise<FamilyGrant> {
  const member = await read(userId, familyId);
  if (!member) throw new AppError(ErrorCode.NotFound, hidden);
  if (role === "admin" && !member.isAdmin) throw new AppError(ErrorCode.Forbidden, "family.notAdmin");
  return { familyId, isAdmin: member.isAdmin };
}

/**
 * The household of a device (by id or MAC) and the caller's part in it. A device that does not exist, is bound to no
 * household, or is bound to one the caller is not in answers the same NotFound (`hidden`).
 */
async function deviceAccess(
  read: MembershipReader,
  userId: string,
  row: DeviceRef | undefined,
  role: AccessRole,
  hidden: HiddenKey,
): Promise<DeviceGrant> {
  if (!row?.family_id) throw new AppError(ErrorCode.NotFound, hidden);
  const grant = await membership(read, userId, row.family_id, role, hidden);
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
 * - `setupTicket`: the id is the ticket itself, looked up by its SHA-256 (the only form `setup_tickets` stores); it
 *   must be one the caller created (answers familyId null).
 *
 * `readMembership` is where the caller's part in a household is read: by default one query on `db`
 * ({@link membershipOn}). The route-level check passes the per-process cache's `read` (membership-cache.ts
 * `createMembershipCache`), sparing every request that read; services re-checking inside a
 * transaction keep the default, so what they decide on is read under their lock. Objects (devices, members, commands,
 * own objects) are always read from `db`.
 * A caller with no part in the object (not a member of its household, a device bound to no household, another user's
 * own object) is answered exactly as for an unknown id, so no id or MAC can be probed for existence; Forbidden is
 * left for a member of the household whose role lacks the right (docs/security.md "No existence oracles").
 * @throws AppError NotFound (family.notFound, device.notFound, family.memberNotFound, deviceControl.commandNotFound,
 *   family.shareNotFound, message.notFound, afterSale.notFound, setupTicket.notFound: the object kind's key) for an
 *   unknown object or one the caller has no part in; Forbidden (family.notAdmin) when `role` is admin and the caller
 *   is a plain member.
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
  const hidden = NOT_FOUND[object];
  const missing = () => new AppError(ErrorCode.NotFound, hidden);
  const devices = () => db.selectFrom("devices").select(["id", "mac", "family_id"]);
  switch (object) {
    case "family":
      return membership(read, userId, id, role, hidden);
    case "device":
      return deviceAccess(read, userId, await devices().where("id", "=", id).executeTakeFirst(), role, hidden);
    case "deviceMac": {
      const row = await devices().where("mac", "=", normaliseMac(id)).executeTakeFirst();
      return deviceAccess(read, userId, row, role, hidden);
    }
    case "familyMember": {
      const row = await db.selectFrom("family_members").select("family_id").where("id", "=", id).executeTakeFirst();
      if (!row) throw missing();
      return membership(read, userId, row.family_id, role, hidden);
    }
    case "command": {
      const row = await db.selectFrom("device_commands").select("device_id").where("id", "=", id).executeTakeFirst();
      if (!row) throw missing();
      return deviceAccess(
        read,
        userId,
        await devices().where("id", "=", row.device_id).executeTakeFirst(),
        role,
        hidden,
      );
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
    case "setupTicket": {
      const row = await db
        .selectFrom("setup_tickets")
        .select("id")
        .where("ticket_hash", "=", createHash("sha256").update(id).digest("hex"))
        .where("created_by", "=", userId)
        .executeTakeFirst();
      if (!row) throw missing();
      return { familyId: null, isAdmin: false };
    }
  }
}

const OWN_TABLES = { shareCode: "family_share_codes", message: "messages", afterSale: "after_sale_requests" } as const;
const OWNER_COLUMN = { shareCode: "inviter_id", message: "user_id", afterSale: "user_id" } as const;
