import { randomUUID } from "node:crypto";
import { hashPassword } from "../src/auth/passwords.ts";
import type { Db } from "../src/db/index.ts";

/**
 * Test factories for data-layer tests (rows as the services would leave them, on either engine). Times are ISO 8601
 * UTC text (docs/adr/0005-one-query-layer-over-two-engines.md).
 */

/**
 * Inserts a user `userName` (language en, region 2 Europe, no phone, `opts.email` or no e-mail, a password hash nobody
 * can match).
 * @returns the user's id.
 */
export async function insertUser(
  db: Db,
  userName: string,
  now = new Date().toISOString(),
  opts: { email?: string } = {},
): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto("users")
    .values({
      id,
      user_name: userName,
      name: userName,
      email: opts.email ?? null,
      phone_number: null,
      country_code: null,
      password_hash: "x",
      service_region: 2,
      language_type: "en",
      avatar: null,
      security_stamp: "s",
      is_deleted: 0,
      creation_time: now,
    })
    .execute();
  return id;
}

/**
 * Inserts the household "<name>'s" without an address, with `adminId` as its administrator (spec §6).
 * @returns the household's id.
 */
export async function insertFamily(
  db: Db,
  name: string,
  adminId: string,
  now = new Date().toISOString(),
): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto("families")
    .values({
      id,
      name: `${name}'s`,
      address: null,
      longitude: null,
      latitude: null,
      avatar: null,
      creator_id: adminId,
      creation_time: now,
      province: null,
      city: null,
      district: null,
    })
    .execute();
  await insertMember(db, id, adminId, true, now);
  return id;
}

/** Adds `userId` to household `familyId`, as its administrator or as a member. */
export async function insertMember(
  db: Db,
  familyId: string,
  userId: string,
  isAdmin: boolean,
  now = new Date().toISOString(),
): Promise<void> {
  await db
    .insertInto("family_members")
    .values({ id: randomUUID(), family_id: familyId, user_id: userId, is_admin: isAdmin ? 1 : 0, creation_time: now })
    .execute();
}

/**
 * Inserts a user `name` with `email` who signs in with `password` (argon2id hash, as registration stores it) and adds
 * them to household `familyId` as a member (not its administrator); answers the user's id.
 */
export async function insertMemberWithPassword(
  db: Db,
  familyId: string,
  user: { name: string; email: string; password: string },
): Promise<string> {
  const userId = await insertUser(db, user.name, new Date().toISOString(), { email: user.email });
  await db
    .updateTable("users")
    .set({ password_hash: await hashPassword(user.password) })
    .where("id", "=", userId)
    .execute();
  await insertMember(db, familyId, userId, false);
  return userId;
}
