import type { AuthService } from "../auth/auth-service.ts";
import type { Db } from "../db/index.ts";

/** The seam between the hubs and the account system: who a bearer token belongs to, and their families. */
export interface HubAuth {
  /**
   * null when the token is invalid or the user's access has ended; `sessionId` is the token's session (sign-in), so
   * bus `session.ended` can close that session's connections alone
   */
  authenticate(accessToken: string): Promise<{ userId: string; sessionId?: string | null } | null>;
  /** ids of the families the user currently belongs to */
  familyIdsOf(userId: string): Promise<string[]>;
  /**
   * Optional: ids of the users who currently belong to the family. When present, a `family.members-changed` event
   * costs one query instead of one `familyIdsOf` per connected user.
   */
  memberIdsOf?(familyId: string): Promise<string[]>;
}

/**
 * The hubs' view of the account system (spec §7 hubs): a bearer token is checked like on every REST call
 * (signature, expiry, security stamp, live session) and answers the user and the session, so a logout closes that
 * session's connections (bus `session.ended`); families and members come from `family_members`.
 */
export function accountHubAuth(auth: Pick<AuthService, "verifyAccessToken">, db: Db): HubAuth {
  return {
    authenticate: async (token) => {
      const user = await auth.verifyAccessToken(token);
      return user ? { userId: user.userId, sessionId: user.sessionId } : null;
    },
    familyIdsOf: async (userId) =>
      (await db.selectFrom("family_members").select("family_id").where("user_id", "=", userId).execute()).map(
        (r) => r.family_id,
      ),
    memberIdsOf: async (familyId) =>
      (await db.selectFrom("family_members").select("user_id").where("family_id", "=", familyId).execute()).map(
        (r) => r.user_id,
      ),
  };
}
