/**
 * Who hears what (spec §7 "Real-time hub 1/2"): the server → client invocations of the two hubs, sent to the
 * connections of a user or of a household's members. Each message is serialised and UTF-8 encoded once for all its
 * receivers, and only connections past their handshake receive it.
 */
import { HUB_METHODS, type TDomainEvent } from "@aquapilot/contract";
import type { BusEvent } from "../bus.ts";
import type { HubClient, HubName } from "./connection.ts";
import { writeRecord } from "./framing.ts";
import type { MembershipCache } from "./membership-cache.ts";
import { invocationMessage } from "./protocol.ts";

/** The membership the deliveries read: connected users, their connections and their households. */
export type DeliveryMembership = Pick<MembershipCache<HubClient>, "connectionsOf" | "membersOf" | "whenKnown">;

/**
 * Sends `method(...args)` to every connection of `userId` on `hub` (hub 2's `ReceiveMessage`, docs/messages-push.md).
 * Answers how many connections took it (0 when the user has none here).
 */
export function sendToUser(
  membership: DeliveryMembership,
  hub: HubName,
  userId: string,
  method: string,
  args: unknown[],
): number {
  const connections = membership.connectionsOf(userId);
  if (connections.size === 0) return 0;
  const text = Buffer.from(writeRecord(invocationMessage(method, args)));
  let sent = 0;
  for (const client of connections) {
    if (client.hub === hub && client.handshakeDone && client.sendText(text)) sent++;
  }
  return sent;
}

/**
 * Bus `device.changed` → `DeviceChangContentTypeMessage(JSON.stringify(message))` on every hub-1 connection of the
 * members of the device's household (spec §7: one argument, the message as a JSON string). A device in no household
 * is heard by nobody. While the household's membership reloads, the delivery waits in order
 * (MembershipCache `whenKnown`), so it never reaches a removed member and does reach an added one.
 */
export function deliverDeviceChange(
  membership: DeliveryMembership,
  event: Extract<BusEvent, { type: "device.changed" }>,
): void {
  const familyId = event.familyId;
  if (familyId === null) return;
  membership.whenKnown(familyId, () => {
    const members = membership.membersOf(familyId);
    if (members.size === 0) return;
    // Spec §7: one argument, the message as a JSON string. Serialised and UTF-8 encoded once for every receiver.
    const text = Buffer.from(writeRecord(invocationMessage(HUB_METHODS.deviceChange, [JSON.stringify(event.message)])));
    for (const userId of members) sendToHub1(membership, userId, text);
  });
}

/**
 * A domain event (contract ZDomainEvent; docs/messages-push.md "Domain events") → `DomainEvent(event)` on every hub-1
 * connection of its user and of every member of its household, each connection once. The user hears it at once: a
 * household deleted or left is no longer theirs once its membership reloads, which closes their hub-1 connections
 * (FamilyAccessEnded), and the event must come before that close. The members hear it once the household's
 * membership is known again (as device changes wait), so a member who just joined hears the event of their joining.
 */
export function deliverDomainEvent(membership: DeliveryMembership, event: TDomainEvent): void {
  const text = Buffer.from(writeRecord(invocationMessage(HUB_METHODS.domainEvent, [event])));
  if (event.userId !== null) sendToHub1(membership, event.userId, text);
  const familyId = event.familyId;
  if (familyId === null) return;
  membership.whenKnown(familyId, () => {
    for (const userId of membership.membersOf(familyId)) {
      if (userId !== event.userId) sendToHub1(membership, userId, text);
    }
  });
}

/** Sends the encoded records `text` to every hub-1 connection of `userId` past its handshake. */
function sendToHub1(membership: DeliveryMembership, userId: string, text: Buffer): void {
  for (const client of membership.connectionsOf(userId)) {
    if (client.hub === "deviceChange" && client.handshakeDone) client.sendText(text);
  }
}
