import { MESSAGE_TYPES, type TMessageEvent } from "@aquapilot/contract";
import type { Transaction } from "kysely";
import type { Database } from "../../db/index.ts";
import { insertSourceMessages } from "./delivery.ts";
import { asLanguage, catalogueTexts } from "./presenter.ts";

/** One notice of a household change to one user: who, which event, and the catalogue texts with their values. */
interface FamilyNotice {
  userId: string;
  event: TMessageEvent;
  /** Catalogue key prefix (messages.ts: `<prefix>.title`, `<prefix>.content`). */
  text: string;
  params: Record<string, string>;
}

/** The name a member is shown by in notices: their display name, else their user name. */
async function displayName(trx: Transaction<Database>, userId: string): Promise<string> {
  const row = await trx.selectFrom("users").select(["name", "user_name"]).where("id", "=", userId).executeTakeFirst();
  return row?.name?.trim() || row?.user_name || "";
}

/**
 * Stores announcement-type messages about a household inside the caller's transaction (so they commit with the
 * change they tell of), each in its recipient's language, once per `sourceKey`; the message worker delivers them over
 * hub 2 and push within seconds.
 */
async function storeNotices(
  trx: Transaction<Database>,
  sourceKey: string,
  familyId: string,
  notices: FamilyNotice[],
  now: string,
): Promise<void> {
  if (notices.length === 0) return;
  const languages = new Map<string, string | null>();
  const rows = await trx
    .selectFrom("users")
    .select(["id", "language_type"])
    .where(
      "id",
      "in",
      notices.map((n) => n.userId),
    )
    .execute();
  for (const r of rows) languages.set(r.id, r.language_type);
  await insertSourceMessages(
    trx,
    { key: sourceKey, kind: "family", deviceId: null },
    async () =>
      notices.map((n) => ({
        user_id: n.userId,
        type: MESSAGE_TYPES.announcement,
        event: n.event,
        ...catalogueTexts(asLanguage(languages.get(n.userId)), `${n.text}.title`, `${n.text}.content`, n.params),
        device_id: null,
        device_name: null,
        family_id: familyId,
        close_reason: null,
      })),
    now,
  );
}

/**
 * Tells a member the administrator removed them (spec §6; "household-removed"): "You were removed from {family} by
 * {administrator}". Written in the removal's transaction, once per membership (`household-removed:{membershipId}`).
 */
export async function noticeMemberRemoved(
  trx: Transaction<Database>,
  removed: { userId: string; membershipId: string },
  familyId: string,
  administratorId: string,
  now: string,
): Promise<void> {
  const family = await trx.selectFrom("families").select("name").where("id", "=", familyId).executeTakeFirstOrThrow();
  const administrator = await displayName(trx, administratorId);
  await storeNotices(
    trx,
    `household-removed:${removed.membershipId}`,
    familyId,
    [
      {
        userId: removed.userId,
        event: "household-removed",
        text: "message.familyRemovedBy",
        params: { family: family.name, administrator },
      },
    ],
    now,
  );
}

/**
 * Tells every member but the administrator that the administrator deleted the household (spec §6;
 * "household-deleted"). Call inside the deletion's transaction before the rows go (it reads the members and the name).
 */
export async function noticeFamilyDeleted(
  trx: Transaction<Database>,
  familyId: string,
  administratorId: string,
  now: string,
): Promise<void> {
  const family = await trx.selectFrom("families").select("name").where("id", "=", familyId).executeTakeFirstOrThrow();
  const members = await trx
    .selectFrom("family_members")
    .select("user_id")
    .where("family_id", "=", familyId)
    .where("user_id", "!=", administratorId)
    .execute();
  const administrator = await displayName(trx, administratorId);
  await storeNotices(
    trx,
    `household-deleted:${familyId}`,
    familyId,
    members.map((m) => ({
      userId: m.user_id,
      event: "household-deleted" as const,
      text: "message.familyDeleted",
      params: { family: family.name, administrator },
    })),
    now,
  );
}

/**
 * Tells both sides of an administrator transfer (spec §6; "administrator-transferred"): the new administrator
 * "{administrator} made you the administrator of {family}", the former one "You made {member} the administrator of
 * {family}". One source per transfer (`administrator-transferred:{familyId}:{now}:{newAdminId}`).
 */
export async function noticeAdministratorTransferred(
  trx: Transaction<Database>,
  familyId: string,
  formerId: string,
  newId: string,
  now: string,
): Promise<void> {
  const family = await trx.selectFrom("families").select("name").where("id", "=", familyId).executeTakeFirstOrThrow();
  const former = await displayName(trx, formerId);
  const member = await displayName(trx, newId);
  await storeNotices(
    trx,
    `administrator-transferred:${familyId}:${now}:${newId}`,
    familyId,
    [
      {
        userId: newId,
        event: "administrator-transferred",
        text: "message.administratorReceived",
        params: { family: family.name, administrator: former },
      },
      {
        userId: formerId,
        event: "administrator-transferred",
        text: "message.administratorHandedOver",
        params: { family: family.name, member },
      },
    ],
    now,
  );
}
