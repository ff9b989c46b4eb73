import { randomUUID } from "node:crypto";
import type { TFamilyShare, TPaged, TPagedQuery, TShareAnalysis, TShareCode } from "@aquapilot/contract";
import { lockFamily } from "../../auth/family-lock.ts";
import { AppError, ErrorCode } from "../../http/errors.ts";
import { paged } from "../../http/paging.ts";
import { type FamilyDeps, familyCountColumns } from "../family/index.ts";
import {
  SHARE_PURPOSE,
  type ShareClaims,
  shareClaimsOf,
  shareCodeExpiryMs,
  shareReuseCutoff,
  shareState,
  shareValidSeconds,
  signShareCode,
  verifyShareCode,
} from "./share-code-token.ts";

export { SHARE_CODE_SECONDS } from "./share-code-token.ts";

/** File in DATA_DIR holding the HMAC key of family share codes (mode 0600, auth/secrets.ts). */
export const SHARE_KEY_FILE = "family-share-key";
/** Share codes of spec §4 "Family QR code valid 15 minutes, refreshable": create, scan, list, revoke. */
export interface ShareCodes {
  /**
   * The administrator's code for `familyId`: their newest live one while it has SHARE_CODE_REUSE_MIN_SECONDS (share-code-token.ts)
   * left, else (or with `refresh`) a new one. @throws AppError NotFound (family.notFound) / Forbidden (family.notAdmin).
   */
  create(userId: string, familyId: string, refresh?: boolean): Promise<TShareCode>;
  /**
   * Checks a scanned code and, unless `preview`, joins `userId` to its family (joining twice is harmless).
   * @throws AppError InvalidCode (400) family.codeInvalid (tampered, foreign or malformed), family.codeExpired,
   *   family.codeRevoked (revoked, family deleted, or the inviter is no longer its administrator).
   */
  analyse(userId: string, code: string, preview: boolean): Promise<TShareAnalysis>;
  /** The codes `userId` created, newest first, paged ("my shares", FamilyShareList). */
  listMine(userId: string, query: Partial<TPagedQuery>): Promise<TPaged<TFamilyShare>>;
  /** Revokes one of `userId`'s codes. @throws AppError NotFound (family.shareNotFound) for anyone else's. */
  revoke(userId: string, shareId: string): Promise<void>;
  /** The signed text for claims (exposed for tests that forge or age codes). */
  sign(claims: ShareClaims): string;
}

/**
 * Creates the share code service. Codes are `AQF1.<base64url JSON claims>.<base64url HMAC-SHA256>` keyed with
 * `secret` (DATA_DIR/family-share-key), so they are short enough for a dense QR code, cannot be forged or
 * altered, and are single-purpose; each also has a family_share_codes row so it can be listed and revoked.
 */
export function createShareCodes(deps: FamilyDeps & { secret: Uint8Array }): ShareCodes {
  const { db, bus, now, secret } = deps;
  const sign = (claims: ShareClaims) => signShareCode(secret, claims);
  const verify = (code: string) => verifyShareCode(secret, code, now());
  const claimsOf = shareClaimsOf;

  return {
    sign,

    async create(userId, familyId, refresh = false) {
      const issued = now();
      if (!refresh) {
        const current = await db
          .selectFrom("family_share_codes")
          .select(["id", "family_id", "inviter_id", "expires_at"])
          .where("family_id", "=", familyId)
          .where("inviter_id", "=", userId)
          .where("purpose", "=", SHARE_PURPOSE)
          .where("revoked_at", "is", null)
          .where("expires_at", ">", shareReuseCutoff(issued))
          .orderBy("expires_at", "desc")
          .executeTakeFirst();
        if (current) {
          return {
            code: sign(claimsOf(current)),
            expiresAt: current.expires_at,
            validSeconds: shareValidSeconds(Date.parse(current.expires_at), issued),
          };
        }
      }
      // Rounded up to whole seconds, so the expiry in the code and in the row agree exactly.
      const expiresMs = shareCodeExpiryMs(issued);
      const row = {
        id: randomUUID(),
        family_id: familyId,
        inviter_id: userId,
        purpose: SHARE_PURPOSE,
        created_at: issued.toISOString(),
        expires_at: new Date(expiresMs).toISOString(),
        revoked_at: null,
      };
      await db.insertInto("family_share_codes").values(row).execute();
      return {
        code: sign(claimsOf(row)),
        expiresAt: row.expires_at,
        validSeconds: shareValidSeconds(expiresMs, issued),
      };
    },

    async analyse(userId, code, preview) {
      const claims = verify(code);
      const revoked = () => new AppError(ErrorCode.InvalidCode, "family.codeRevoked");
      const outcome = await db.transaction().execute(async (trx) => {
        if (!(await lockFamily(trx, claims.f))) throw revoked();
        const row = await trx
          .selectFrom("family_share_codes")
          .select(["id", "inviter_id", "revoked_at", "expires_at"])
          .where("id", "=", claims.j)
          .where("family_id", "=", claims.f)
          .where("purpose", "=", SHARE_PURPOSE)
          .executeTakeFirst();
        if (!row || row.revoked_at !== null || row.inviter_id !== claims.i) throw revoked();
        // The right to add members is the administrator's (spec §6): a code dies when its inviter stops being one.
        const inviter = await trx
          .selectFrom("family_members as m")
          .innerJoin("users as u", "u.id", "m.user_id")
          .select(["u.user_name", "u.name"])
          .where("m.family_id", "=", claims.f)
          .where("m.user_id", "=", claims.i)
          .where("m.is_admin", "=", 1)
          .executeTakeFirst();
        if (!inviter) throw revoked();
        const existing = await trx
          .selectFrom("family_members")
          .select("id")
          .where("family_id", "=", claims.f)
          .where("user_id", "=", userId)
          .executeTakeFirst();
        let joined = false;
        if (!existing && !preview) {
          const inserted = await trx
            .insertInto("family_members")
            .values({
              id: randomUUID(),
              family_id: claims.f,
              user_id: userId,
              is_admin: 0,
              creation_time: now().toISOString(),
            })
            .onConflict((oc) => oc.columns(["family_id", "user_id"]).doNothing())
            .executeTakeFirst();
          joined = Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
          if (joined) {
            await trx
              .updateTable("family_share_codes")
              .set((eb) => ({ join_count: eb("join_count", "+", 1) }))
              .where("id", "=", row.id)
              .execute();
          }
        }
        const family = await trx
          .selectFrom("families as f")
          .select((eb) => ["f.id", "f.name", "f.address", "f.avatar", ...familyCountColumns(eb)])
          .where("f.id", "=", claims.f)
          .executeTakeFirstOrThrow();
        return {
          familyId: family.id,
          familyName: family.name,
          address: family.address,
          avatar: family.avatar,
          memberCount: Number(family.member_count ?? 0),
          deviceCount: Number(family.device_count ?? 0),
          inviterName: inviter.name || inviter.user_name,
          expiresAt: row.expires_at,
          joined,
          alreadyMember: existing !== undefined,
        };
      });
      if (outcome.joined) bus.publish({ type: "family.members-changed", familyId: claims.f });
      return outcome;
    },

    async listMine(userId, query) {
      const at = now().getTime();
      return paged(
        query,
        async () => {
          const r = await db
            .selectFrom("family_share_codes")
            .select((eb) => eb.fn.countAll<number>().as("c"))
            .where("inviter_id", "=", userId)
            .executeTakeFirstOrThrow();
          return Number(r.c);
        },
        async (offset, limit) => {
          const rows = await db
            .selectFrom("family_share_codes as s")
            .innerJoin("families as f", "f.id", "s.family_id")
            .select([
              "s.id",
              "s.family_id",
              "s.inviter_id",
              "s.created_at",
              "s.expires_at",
              "s.revoked_at",
              "s.join_count",
              "f.name",
            ])
            .where("s.inviter_id", "=", userId)
            .orderBy("s.created_at", "desc")
            .orderBy("s.id")
            .offset(offset)
            .limit(limit)
            .execute();
          return rows.map((r) => {
            const { expired, revoked } = shareState(r, at);
            return {
              id: r.id,
              familyId: r.family_id,
              familyName: r.name,
              code: expired || revoked ? null : sign(claimsOf(r)),
              createdAt: r.created_at,
              expiresAt: r.expires_at,
              expired,
              revoked,
              joinCount: Number(r.join_count),
            };
          });
        },
      );
    },

    async revoke(userId, shareId) {
      const res = await db
        .updateTable("family_share_codes")
        .set({ revoked_at: now().toISOString() })
        .where("id", "=", shareId)
        .where("inviter_id", "=", userId)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) === 0) throw new AppError(ErrorCode.NotFound, "family.shareNotFound");
    },
  };
}
