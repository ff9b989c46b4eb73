import { createHash, randomUUID } from "node:crypto";
import type { Db } from "../../db/index.ts";

/**
 * Queries of `setup_tickets` (migration 0024; docs/device-protocol.md §13.4 "Setup tickets"). Every function takes a
 * `Db` or a transaction. Times are ISO 8601 UTC text, compared as text (text order is time order on both engines).
 */

/**
 * SHA-256 of a setup ticket as 64 lower-case hex digits: the only form in which a ticket is stored (the object-level
 * check of auth/access.ts looks a ticket up the same way).
 */
export function hashSetupTicket(ticket: string): string {
  return createHash("sha256").update(ticket, "utf8").digest("hex");
}

/**
 * Stores a new setup ticket (only its hash) of user `createdBy` for household `familyId`, first deleting that user's
 * tickets that expired at `createdAt` (a user keeps only the tickets of their last 10 minutes).
 */
export async function insertSetupTicket(
  db: Db,
  input: { ticketHash: string; familyId: string; createdBy: string; createdAt: string; expiresAt: string },
): Promise<void> {
  await db
    .deleteFrom("setup_tickets")
    .where("created_by", "=", input.createdBy)
    .where("expires_at", "<=", input.createdAt)
    .execute();
  await db
    .insertInto("setup_tickets")
    .values({
      id: randomUUID(),
      ticket_hash: input.ticketHash,
      family_id: input.familyId,
      created_by: input.createdBy,
      created_at: input.createdAt,
      expires_at: input.expiresAt,
      device_id: null,
      activated_at: null,
    })
    .execute();
}

/**
 * Marks setup ticket `ticket` as taken by device `deviceId` at `now` — only while it is unexpired and not yet taken
 * (one conditional UPDATE, so of two modules activating with one ticket exactly one takes it, and a later one never
 * takes it over). An unknown, expired or taken ticket changes nothing.
 * @returns true when this call took it.
 */
export async function linkSetupTicket(db: Db, ticket: string, deviceId: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable("setup_tickets")
    .set({ device_id: deviceId, activated_at: now })
    .where("ticket_hash", "=", hashSetupTicket(ticket))
    .where("device_id", "is", null)
    .where("expires_at", ">", now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Setup ticket `ticket` of user `userId` with the id and MAC of the device that took it (null while none did), or
 * undefined for an unknown ticket or another user's alike.
 */
export async function findOwnSetupTicket(
  db: Db,
  userId: string,
  ticket: string,
): Promise<{ expiresAt: string; deviceId: string | null; mac: string | null } | undefined> {
  const row = await db
    .selectFrom("setup_tickets")
    .leftJoin("devices", "devices.id", "setup_tickets.device_id")
    .select(["setup_tickets.expires_at", "setup_tickets.device_id", "devices.mac"])
    .where("setup_tickets.ticket_hash", "=", hashSetupTicket(ticket))
    .where("setup_tickets.created_by", "=", userId)
    .executeTakeFirst();
  return row && { expiresAt: row.expires_at, deviceId: row.device_id, mac: row.mac };
}
