import type { Db } from "../db/index.ts";

/**
 * Reads `userId`'s membership of household `familyId`: whether they administer it, or null for a stranger. By default
 * the object check (access.ts `requireAccess`) reads it with one query ({@link membershipOn}); route checks pass the
 * per-process cache's `read` (membership-cache.ts).
 */
export type MembershipReader = (userId: string, familyId: string) => Promise<{ isAdmin: boolean } | null>;

/**
 * The {@link MembershipReader} of one database (or transaction): one indexed query on `family_members` per call
 * (spec §6: a member or the household's one administrator). Answers `{isAdmin}` for a member, null for a stranger.
 * @throws the driver's error when the query fails.
 */
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
