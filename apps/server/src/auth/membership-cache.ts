import type { Bus, BusEvent } from "../bus.ts";
import type { Db } from "../db/index.ts";
import { type MembershipReader, membershipOn } from "./membership.ts";
import { DEFAULT_AUTH_CACHE_MS, familyTag, InvalidatedCache, userTag } from "./request-cache.ts";

/** A per-process cache of household memberships for the route checks; see {@link createMembershipCache}. */
export interface MembershipCache {
  /** The {@link MembershipReader} to hand access.ts `requireAccess`: cached members, strangers always read again. */
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
 * leaves, transfers, deletion) and `user.revoked` (the user's: account deletion, password change), so a change of
 * spec §6 roles is seen by the very next request in this process. Strangers are not kept: a refusal is read again each
 * time, so joining is seen at once and probing cannot fill the cache (request-cache.ts). `clock` is the monotonic
 * clock in ms (default `performance.now`). Its `read` rejects with the driver's error when the query fails.
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
