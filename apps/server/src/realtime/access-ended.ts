/**
 * Closing the connections whose access ended (docs/architecture.md "Endings"; spec §7 hubs): every connection of a
 * revoked user, the connections of an ended session, and the hub-1 connections of a user who left a household. The
 * Close message names why (protocol.ts `HubCloseReason`) and whether the client may come back. What keeps a revoked
 * token from attaching later is revocations.ts.
 */
import type { FastifyBaseLogger } from "fastify";
import type { HubClient, Negotiations } from "./connection.ts";
import type { MembershipCache } from "./membership-cache.ts";
import { HubCloseReason } from "./protocol.ts";

/** The membership the closings read: the user's connections. */
export type ClosingMembership = Pick<MembershipCache<HubClient>, "connectionsOf">;

/**
 * Bus `user.revoked` (password changed or reset, account deleted): drops the user's pending negotiations and closes
 * every connection of the user on both hubs with `AccessEnded`, allowReconnect: false (the app then asks why and goes
 * to Login).
 */
export function endUserAccess(
  membership: ClosingMembership,
  negotiations: Pick<Negotiations, "idsOf" | "drop">,
  userId: string,
): void {
  for (const id of negotiations.idsOf(userId)) negotiations.drop(id);
  for (const client of [...membership.connectionsOf(userId)]) client.close(HubCloseReason.AccessEnded, false);
}

/**
 * Bus `session.ended` (logout, replayed refresh token): drops that session's pending negotiations and closes its
 * connections with `SessionEnded`, allowReconnect: false; the user's other sessions keep theirs.
 */
export function endSessionAccess(
  membership: ClosingMembership,
  negotiations: Pick<Negotiations, "idsOf" | "get" | "drop">,
  userId: string,
  sessionId: string,
): void {
  for (const id of negotiations.idsOf(userId)) {
    if (negotiations.get(id)?.sessionId === sessionId) negotiations.drop(id);
  }
  for (const client of [...membership.connectionsOf(userId)]) {
    if (client.sessionId === sessionId) client.close(HubCloseReason.SessionEnded, false);
  }
}

/**
 * The membership cache's `onLost`: a connected user no longer belongs to `familyIds` (removed, left, household
 * deleted; every process sees it in its own membership reload after `family.members-changed`). Their hub-1
 * connections close with `FamilyAccessEnded` and allowReconnect: true, so the app notices at once and its
 * reconnect carries the user's remaining households. Hub 2 stays: it carries the user's own messages (the removal
 * notice). Never throws: a failure is logged.
 */
export function endFamilyAccess(
  membership: ClosingMembership,
  log: Pick<FastifyBaseLogger, "debug" | "error">,
  userId: string,
  familyIds: string[],
): void {
  try {
    let closed = 0;
    for (const client of [...membership.connectionsOf(userId)]) {
      if (client.hub !== "deviceChange" || client.closed) continue;
      client.close(HubCloseReason.FamilyAccessEnded, true);
      closed++;
    }
    if (closed > 0) log.debug({ userId, familyIds, closed }, "realtime: household access ended");
  } catch (error) {
    // Runs inside the membership cache's reload: a failed close must not stop the membership from being applied.
    log.error({ err: error, userId }, "realtime: closing a former member's connections failed");
  }
}
