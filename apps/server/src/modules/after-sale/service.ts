import { randomUUID } from "node:crypto";
import {
  MESSAGE_TYPES,
  type TAfterSale,
  type TDiagnostics,
  type TPaged,
  type TPagedQuery,
  type ZAfterSaleCreate,
  type ZAfterSaleUpdate,
} from "@aquapilot/contract";
import type { Kysely, Selectable, Transaction } from "kysely";
import type { z } from "zod";
import { requireAccess } from "../../auth/access.ts";
import { isPostgres } from "../../db/engine.ts";
import type { Database, Db } from "../../db/index.ts";
import type { AfterSaleRequestsTable } from "../../db/schema-after-sale.ts";
import { AppError, ErrorCode } from "../../http/errors.ts";
import { paged } from "../../http/paging.ts";
import { requireOwnUploads } from "../files/index.ts";
import { asLanguage, catalogueTexts, insertSourceMessages } from "../message/index.ts";
import { collectDiagnostics } from "./diagnostics.ts";

/** What the after-sales services need: the database and the clock. */
export interface AfterSaleDeps {
  db: Db;
  now: () => Date;
}

/** A validated body of `createAfterSale` (defaults applied). */
export type AfterSaleCreateInput = z.output<typeof ZAfterSaleCreate>;
/** A validated body of `updateAfterSale` (defaults applied). */
export type AfterSaleUpdateInput = z.output<typeof ZAfterSaleUpdate>;

type AfterSaleRow = Selectable<AfterSaleRequestsTable>;

function parseJson<T>(json: string | null, fallback: T): T {
  if (!json) return fallback;
  try {
    return JSON.parse(json) as T;
  } catch {
    return fallback;
  }
}

function toAfterSale(r: AfterSaleRow): TAfterSale {
  return {
    id: r.id,
    deviceId: r.device_id,
    deviceName: r.device_name,
    familyId: r.family_id,
    description: r.description,
    photos: parseJson<string[]>(r.photos_json, []),
    contactPhone: r.contact_phone,
    handled: Number(r.handled) === 1,
    handledTime: r.handled_time,
    reply: r.reply,
    diagnostics: parseJson<TDiagnostics | null>(r.diagnostics_json, null),
    creationTime: r.creation_time,
    lastModificationTime: r.last_modification_time,
  };
}

const notFound = () => new AppError(ErrorCode.NotFound, "afterSale.notFound");
const alreadyHandled = () => new AppError(ErrorCode.Conflict, "afterSale.handled");

/** One of `userId`'s requests, locked on PostgreSQL (SELECT … FOR UPDATE); strangers' requests look absent. */
async function ownRow(db: Kysely<Database>, userId: string, id: string, lock: boolean): Promise<AfterSaleRow> {
  let query = db.selectFrom("after_sale_requests").selectAll().where("id", "=", id).where("user_id", "=", userId);
  if (lock && isPostgres(db)) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/**
 * Files an after-sales request (spec §7, `createAfterSale`) for a device of a household `userId` belongs to,
 * in one transaction: checks the device, that every photo is the caller's own upload, copies the device's name and
 * household (so the request survives the device's or household's deletion) and, when `attachDiagnostics` is true
 * (the owner's consent), freezes a diagnostics snapshot ({@link collectDiagnostics}). Answers the stored request.
 * @throws AppError NotFound (device.notFound: unknown, or not in a household of the caller — the same answer),
 *   Validation (files.notOwned: a photo that is not the caller's upload).
 */
export async function createAfterSale(
  deps: AfterSaleDeps,
  userId: string,
  input: AfterSaleCreateInput,
): Promise<TAfterSale> {
  const now = deps.now();
  const row = await deps.db.transaction().execute(async (trx) => {
    const access = await requireAccess(trx, userId, { object: "device", role: "member", id: input.deviceId });
    await requireOwnUploads(trx, userId, input.photos);
    const device = await trx
      .selectFrom("devices")
      .select("name")
      .where("id", "=", access.deviceId)
      .executeTakeFirstOrThrow();
    const diagnostics = input.attachDiagnostics ? await collectDiagnostics(trx, access.deviceId, now) : null;
    const values: AfterSaleRow = {
      id: randomUUID(),
      user_id: userId,
      device_id: access.deviceId,
      device_name: device.name,
      family_id: access.familyId,
      description: input.description,
      photos_json: JSON.stringify(input.photos),
      contact_phone: input.contactPhone || null,
      handled: 0,
      handled_time: null,
      reply: null,
      diagnostics_json: diagnostics ? JSON.stringify(diagnostics) : null,
      creation_time: now.toISOString(),
      last_modification_time: null,
    };
    await trx.insertInto("after_sale_requests").values(values).execute();
    return values;
  });
  return toAfterSale(row);
}

/**
 * `userId`'s own after-sales requests, newest first, paged `{items, totalCount}` (spec §7, `getAfterSaleList`; §3 paged
 * list). `handled` true / false keeps only handled / unhandled ones; absent lists all. Other members of the same
 * household never see them.
 */
export async function listAfterSales(
  db: Db,
  userId: string,
  query: Partial<TPagedQuery> & { handled?: boolean },
): Promise<TPaged<TAfterSale>> {
  const base = () => {
    let q = db.selectFrom("after_sale_requests").where("user_id", "=", userId);
    if (query.handled !== undefined) q = q.where("handled", "=", query.handled ? 1 : 0);
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
    async (offset, limit) => {
      const rows = await base()
        .selectAll()
        .orderBy("creation_time", "desc")
        .orderBy("id", "desc")
        .offset(offset)
        .limit(limit)
        .execute();
      return rows.map(toAfterSale);
    },
  );
}

/**
 * One of `userId`'s requests (spec §7, `getAfterSale`).
 * @throws AppError NotFound (afterSale.notFound) when it does not exist or belongs to someone else (indistinguishable).
 */
export async function getAfterSale(db: Db, userId: string, id: string): Promise<TAfterSale> {
  return toAfterSale(await ownRow(db, userId, id, false));
}

/**
 * Edits one of `userId`'s unhandled requests (spec §7, `updateAfterSale`) in one transaction. The body replaces
 * description, photos (each the caller's own upload) and contact phone; `attachDiagnostics` true takes a fresh
 * diagnostics snapshot (the caller must still have access to the device), false withdraws the consent and removes
 * the attached snapshot. The device stays. Safe against the service team handling it meanwhile: the write only
 * applies to an unhandled row.
 * @throws AppError NotFound (afterSale.notFound), Conflict (afterSale.handled), Validation (files.notOwned),
 *   NotFound (device.notFound) when diagnostics are asked for a device the caller no longer reaches.
 */
export async function updateAfterSale(
  deps: AfterSaleDeps,
  userId: string,
  id: string,
  input: AfterSaleUpdateInput,
): Promise<TAfterSale> {
  const now = deps.now();
  const updated = await deps.db.transaction().execute(async (trx) => {
    const row = await ownRow(trx, userId, id, true);
    if (Number(row.handled) === 1) throw alreadyHandled();
    await requireOwnUploads(trx, userId, input.photos);
    let diagnostics: TDiagnostics | null = null;
    if (input.attachDiagnostics) {
      await requireAccess(trx, userId, { object: "device", role: "member", id: row.device_id });
      diagnostics = await collectDiagnostics(trx, row.device_id, now);
    }
    const set = {
      description: input.description,
      photos_json: JSON.stringify(input.photos),
      contact_phone: input.contactPhone || null,
      diagnostics_json: diagnostics ? JSON.stringify(diagnostics) : null,
      last_modification_time: now.toISOString(),
    };
    const res = await trx
      .updateTable("after_sale_requests")
      .set(set)
      .where("id", "=", id)
      .where("user_id", "=", userId)
      .where("handled", "=", 0)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw alreadyHandled();
    return { ...row, ...set };
  });
  return toAfterSale(updated);
}

/**
 * Withdraws one of `userId`'s unhandled requests (spec §7, `deleteAfterSale`): the row is deleted. Handled
 * requests stay as the record of the service given.
 * @throws AppError NotFound (afterSale.notFound), Conflict (afterSale.handled).
 */
export async function deleteAfterSale(deps: AfterSaleDeps, userId: string, id: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const row = await ownRow(trx, userId, id, true);
    if (Number(row.handled) === 1) throw alreadyHandled();
    const res = await trx
      .deleteFrom("after_sale_requests")
      .where("id", "=", id)
      .where("user_id", "=", userId)
      .where("handled", "=", 0)
      .executeTakeFirst();
    if (Number(res.numDeletedRows) !== 1) throw alreadyHandled();
  });
}

/** A request as the service team sees it: the request plus who filed it. */
export interface ServiceAfterSale extends TAfterSale {
  userId: string;
  userName: string;
  email: string | null;
  phoneNumber: string | null;
}

/**
 * The service team's view (operator CLI `npm run after-sale -- list`): every user's requests, oldest unhandled
 * first when `unhandled` is true, else newest first; at most `limit` (default 100).
 */
export async function listAfterSalesForService(
  db: Db,
  opts: { unhandled?: boolean; limit?: number } = {},
): Promise<ServiceAfterSale[]> {
  let q = db
    .selectFrom("after_sale_requests as a")
    .innerJoin("users as u", "u.id", "a.user_id")
    .selectAll("a")
    .select(["u.user_name", "u.email", "u.phone_number"]);
  if (opts.unhandled) q = q.where("a.handled", "=", 0).orderBy("a.creation_time", "asc");
  else q = q.orderBy("a.creation_time", "desc");
  const rows = await q
    .orderBy("a.id")
    .limit(opts.limit ?? 100)
    .execute();
  return rows.map((r) => ({
    ...toAfterSale(r),
    userId: r.user_id,
    userName: r.user_name,
    email: r.email,
    phoneNumber: r.phone_number,
  }));
}

/**
 * Marks request `id` handled with the service team's `reply` (operator CLI `npm run after-sale -- handle`), in one
 * conditional write: from then on the owner can read it but no longer edit or withdraw it.
 * Answers the handled request, "not-found", or "already-handled" (the earlier reply is kept).
 */
export async function handleAfterSale(
  deps: AfterSaleDeps,
  id: string,
  reply: string,
): Promise<TAfterSale | "not-found" | "already-handled"> {
  const text = reply.trim();
  if (!text) throw new Error("a reply is required");
  const now = deps.now().toISOString();
  return deps.db.transaction().execute(async (trx) => {
    const res = await trx
      .updateTable("after_sale_requests")
      .set({ handled: 1, handled_time: now, reply: text, last_modification_time: now })
      .where("id", "=", id)
      .where("handled", "=", 0)
      .executeTakeFirst();
    const row = await trx.selectFrom("after_sale_requests").selectAll().where("id", "=", id).executeTakeFirst();
    if (!row) return "not-found";
    if (Number(res.numUpdatedRows) !== 1) return "already-handled";
    await notifyAnswered(trx, row, now);
    return toAfterSale(row);
  });
}

/**
 * Tells the owner that the service team answered: one device notice "after-sale-answered"
 * in the owner's language with the reply, written in the handling transaction (source `after-sale:{id}`, so once)
 * and delivered by the running server's message worker (hub 2, push).
 */
async function notifyAnswered(
  trx: Transaction<Database>,
  row: Selectable<AfterSaleRequestsTable>,
  now: string,
): Promise<void> {
  const owner = await trx.selectFrom("users").select("language_type").where("id", "=", row.user_id).executeTakeFirst();
  const lang = asLanguage(owner?.language_type);
  const params = { device: row.device_name, reply: row.reply ?? "" };
  await insertSourceMessages(
    trx,
    { key: `after-sale:${row.id}`, kind: "after-sale", deviceId: row.device_id },
    async () => [
      {
        user_id: row.user_id,
        type: MESSAGE_TYPES.deviceNotice,
        event: "after-sale-answered",
        ...catalogueTexts(lang, "message.afterSaleAnswered.title", "message.afterSaleAnswered.content", params),
        device_id: row.device_id,
        device_name: row.device_name,
        family_id: row.family_id,
        close_reason: null,
      },
    ],
    now,
  );
}
