import {
  ErrorCode,
  type Language,
  MESSAGE_TYPES,
  type TMessage,
  type TMessageType,
  type TMessageTypeValue,
  type TPaged,
  type ZMessageListQuery,
} from "@aquapilot/contract";
import type { z } from "zod";
import type { Db } from "../../db/index.ts";
import { AppError } from "../../http/errors.ts";
import { translate } from "../../http/messages.ts";
import { paged } from "../../http/paging.ts";
import { presentMessage } from "./presenter.ts";

/** get-message-type-list (spec §7): the three message types with their names in `lang`. */
export function messageTypeList(lang: Language): TMessageType[] {
  return (Object.values(MESSAGE_TYPES) as TMessageTypeValue[]).map((value) => ({
    value,
    name: translate(lang, `message.type.${value}`),
  }));
}

/**
 * get-user-message-list (spec §7, §2 "filter all, read, unread"): the caller's messages, newest first, paged with
 * skipCount / maxResultCount (default 15), optionally only read (`isRead` true) or unread (false) and of one type.
 */
export async function listMessages(
  db: Db,
  userId: string,
  query: z.output<typeof ZMessageListQuery>,
  lang?: Language,
): Promise<TPaged<TMessage>> {
  const base = () => {
    let q = db.selectFrom("messages").where("user_id", "=", userId);
    if (query.isRead !== undefined) q = q.where("is_read", "=", query.isRead ? 1 : 0);
    if (query.type !== undefined) q = q.where("type", "=", query.type);
    return q;
  };
  return paged(
    query,
    async () =>
      Number(
        (
          await base()
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    async (offset, limit) =>
      (
        await base()
          .selectAll()
          .orderBy("creation_time", "desc")
          .orderBy("id", "desc")
          .offset(offset)
          .limit(limit)
          .execute()
      ).map((row) => presentMessage(row, lang)),
  );
}

/**
 * get-message-detail (spec §7): one of the caller's messages.
 * @throws AppError NotFound (message.notFound) for an unknown id and for another user's message alike.
 */
export async function getMessage(db: Db, userId: string, id: string, lang?: Language): Promise<TMessage> {
  const row = await db
    .selectFrom("messages")
    .selectAll()
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!row) throw new AppError(ErrorCode.NotFound, "message.notFound");
  return presentMessage(row, lang);
}

/**
 * set-message-read (spec §7): marks the caller's messages `ids` read (read time `now`); all or nothing.
 * Answers how many were unread before.
 * @throws AppError NotFound (message.notFound) when any id is unknown or another user's — and then nothing changes.
 */
export async function setMessagesRead(db: Db, userId: string, ids: string[], now: Date): Promise<{ updated: number }> {
  const unique = [...new Set(ids)];
  return db.transaction().execute(async (trx) => {
    const own = await trx
      .selectFrom("messages")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("user_id", "=", userId)
      .where("id", "in", unique)
      .executeTakeFirstOrThrow();
    if (Number(own.n) !== unique.length) throw new AppError(ErrorCode.NotFound, "message.notFound");
    const r = await trx
      .updateTable("messages")
      .set({ is_read: 1, read_time: now.toISOString() })
      .where("user_id", "=", userId)
      .where("id", "in", unique)
      .where("is_read", "=", 0)
      .executeTakeFirst();
    return { updated: Number(r.numUpdatedRows) };
  });
}

/** set-message-all-read (spec §2 mark-all-read, §7): every unread message of the caller; answers how many. */
export async function setAllMessagesRead(db: Db, userId: string, now: Date): Promise<{ updated: number }> {
  const r = await db
    .updateTable("messages")
    .set({ is_read: 1, read_time: now.toISOString() })
    .where("user_id", "=", userId)
    .where("is_read", "=", 0)
    .executeTakeFirst();
  return { updated: Number(r.numUpdatedRows) };
}
