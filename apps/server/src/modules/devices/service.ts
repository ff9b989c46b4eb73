import { createHash } from "node:crypto";
import {
  ADVANCED_SETTING_NAMES,
  type Language,
  normaliseMac,
  type TDeviceBind,
  type TDeviceChangeMessage,
  type TDeviceSettings,
  type TDeviceWithData,
  type TFamilyDevice,
  type TPaged,
} from "@aquapilot/contract";
import { type DeviceGrant, requireAccess } from "../../auth/access.ts";
import { verifyPassword } from "../../auth/passwords.ts";
import type { Bus } from "../../bus.ts";
import { isPostgres } from "../../db/engine.ts";
import type { Db } from "../../db/index.ts";
import { AppError, ErrorCode } from "../../http/errors.ts";
import { presentChange, readChangeRow } from "../../iot/change-message.ts";
import { linkOnline, presentLink } from "../../iot/live-state.ts";
import { consumeActivation, findUsableActivation, revokeUnusedActivations } from "../activation/index.ts";
import { readDeviceRow } from "../device-control/index.ts";
import { findDeviceModel } from "../device-model/index.ts";
import { isUploadPath, requireOwnUploads } from "../files/index.ts";

/** What the device services need. */
export interface DeviceDeps {
  db: Db;
  bus: Bus;
  now: () => Date;
}

const PAIRING_CODE = /^((?:[0-9a-f]{2}[:-]?){5}[0-9a-f]{2}):(.+)$/i;

/**
 * The MAC (12 upper-case hex digits) and secret of a bind request: the pairing code "MAC:SECRET" the device prints
 * or "MAC:TOKEN" from activation (docs/device-protocol.md §13.4; the MAC may carry ":" or "-" separators), or `mac`
 * and `secret` given apart. Which kind of secret it is, {@link bindDevice} finds out.
 * @throws AppError Validation (device.pairingRequired, members ["code"]) when neither form is complete.
 */
export function parsePairing(input: Pick<TDeviceBind, "code" | "mac" | "secret">): { mac: string; secret: string } {
  const match = input.code ? PAIRING_CODE.exec(input.code.trim()) : null;
  const mac = normaliseMac(match?.[1] ?? input.mac ?? "");
  const secret = match?.[2] ?? input.secret ?? "";
  if (mac.length !== 12 || secret.length === 0) {
    throw new AppError(ErrorCode.Validation, "device.pairingRequired", {}, [
      { message: "device.pairingRequired", members: ["code"] },
    ]);
  }
  return { mac, secret };
}

/** Devices left-joined with their live state, selecting what a household list shows (spec §3 Device). */
export function familyDeviceQuery(db: Db) {
  return db
    .selectFrom("devices as d")
    .leftJoin("device_state as s", "s.device_id", "d.id")
    .select([
      "d.id",
      "d.family_id",
      "d.name",
      "d.image",
      "d.sort",
      "d.mac",
      "d.model",
      "s.online",
      "s.station",
      "s.last_report_time",
      "s.reported_at",
      "s.last_heard_at",
      "s.status_at",
      "s.reports_refused_since",
      "s.reports_refused_reason",
    ]);
}

/** One row of {@link familyDeviceQuery}. */
export type FamilyDeviceRow = Awaited<ReturnType<ReturnType<typeof familyDeviceQuery>["execute"]>>[number];

/**
 * Maps a {@link familyDeviceQuery} row to the wire shape (an unbound device gets familyId ""); `lastReportTime` is the
 * real time the server received the last report, which the home list shows in the phone's local time; `online` and
 * the link fields (`lastHeardAt`, `reportsRefusedSince`, `reportsRefusedReason`) as live-state.ts presents them, at
 * the current time.
 */
export function toFamilyDevice(r: FamilyDeviceRow): TFamilyDevice {
  return {
    id: r.id,
    familyId: r.family_id ?? "",
    name: r.name,
    image: r.image,
    // Online only while heard within the report interval plus margin (docs/device-protocol.md §5.2).
    online: linkOnline(r),
    station: r.station ?? null,
    sort: r.sort,
    mac: r.mac,
    deviceModel: r.model,
    // Real time of the last report, not the drifting device clock (still read for rows from before migration 0013).
    lastReportTime: r.reported_at ?? r.last_report_time ?? null,
    ...presentLink(r),
  };
}

/** One device as the household lists show it (spec §3 Device). @throws AppError NotFound when it does not exist. */
export async function getFamilyDevice(db: Db, deviceId: string): Promise<TFamilyDevice> {
  const row = await familyDeviceQuery(db).where("d.id", "=", deviceId).executeTakeFirst();
  if (!row) throw new AppError(ErrorCode.NotFound, "device.notFound");
  return toFamilyDevice(row);
}

/**
 * The hub-1 message (contract ZDeviceChangeMessage, spec §7) announcing the current state of `deviceId` to the members
 * of `familyId` (kind "state"; the household it is addressed to, which after a move or an unbind is not the device's
 * own). Built from the stored rows by the one presentation of change messages, {@link presentChange} (iot).
 * @throws AppError NotFound (device.notFound) when the device does not exist.
 */
export async function stateMessage(db: Db, deviceId: string, familyId: string | null): Promise<TDeviceChangeMessage> {
  const row = await readChangeRow(db, deviceId);
  if (!row) throw new AppError(ErrorCode.NotFound, "device.notFound");
  return presentChange({ ...row, family_id: familyId }, "state");
}

async function publishChanged(deps: DeviceDeps, deviceId: string, familyIds: Array<string | null>): Promise<void> {
  for (const familyId of new Set(familyIds)) {
    if (familyId === null) continue;
    deps.bus.publish({
      type: "device.changed",
      familyId,
      deviceId,
      message: await stateMessage(deps.db, deviceId, familyId),
    });
  }
}

/**
 * Binds a provisioned device to household `input.familyId` (spec §7 device POST /;
 * docs/device-protocol.md §13.4): only the family's administrator. The secret part of the pairing code
 * "MAC:SECRET" is either
 * - a pairing code from activation (modules/activation): valid when an unused, unexpired `device_activations` row of
 *   that device has its SHA-256; it is consumed (used_at, used_by) inside the binding transaction with a conditional
 *   update, so of two concurrent binds with one code exactly one succeeds; or
 * - the factory secret, checked against devices.secret_hash (argon2), reusable as before.
 * A device belongs to at most one household: one bound elsewhere is refused unless `rebind` is true (the device was
 * reset and the caller proves its secret or holds a fresh code), then it moves and the old household loses it; a
 * refusal leaves the code unused. The device goes last in the household's order and takes `input.name` when given.
 * Binding again to the same household answers the device unchanged with `alreadyInFamily: true` (and still consumes
 * a code from activation), so the app can say so instead of "Device added".
 * Publishes `device.changed` for the new and the old household.
 * @throws AppError Forbidden (not the administrator), Validation (device.pairingRequired), InvalidCode
 *   (device.pairingInvalid: unknown MAC, wrong secret, or a code that is unknown, used or expired — indistinguishable,
 *   also for the loser of a concurrent bind with one code), Conflict (device.boundElsewhere).
 */
export async function bindDevice(
  deps: DeviceDeps,
  userId: string,
  input: TDeviceBind,
): Promise<TFamilyDevice & { alreadyInFamily?: boolean }> {
  const { mac, secret } = parsePairing(input);
  const now = deps.now().toISOString();
  const device = await deps.db
    .selectFrom("devices")
    .select(["id", "secret_hash", "family_id"])
    .where("mac", "=", mac)
    .executeTakeFirst();
  const activation = device ? await findUsableActivation(deps.db, device.id, secret, now) : undefined;
  // verifyPassword(null, …) still spends a hash, so an unknown MAC takes as long as a wrong secret or a spent code.
  const valid = activation !== undefined || (await verifyPassword(device?.secret_hash ?? null, secret));
  if (!device || !valid) throw new AppError(ErrorCode.InvalidCode, "device.pairingInvalid");
  // Consume the code used, then withdraw the device's other unused codes: the device is claimed now.
  const consume = async (db: Db) => {
    if (activation && !(await consumeActivation(db, activation.id, userId, now))) {
      throw new AppError(ErrorCode.InvalidCode, "device.pairingInvalid");
    }
    await revokeUnusedActivations(db, device.id);
  };
  const previous = device.family_id;
  if (previous === input.familyId) {
    await consume(deps.db);
    return { ...(await getFamilyDevice(deps.db, device.id)), alreadyInFamily: true };
  }
  if (previous !== null && input.rebind !== true) throw new AppError(ErrorCode.Conflict, "device.boundElsewhere");

  await deps.db.transaction().execute(async (trx) => {
    // Still the administrator now (the rule was checked when the request came in; a transfer may have run since).
    await requireAccess(trx, userId, { object: "family", role: "admin", id: input.familyId });
    // The code first: a concurrent bind with the same code then fails here, as pairingInvalid.
    await consume(trx);
    const last = await trx
      .selectFrom("devices")
      .select((eb) => eb.fn.max("sort").as("maxSort"))
      .where("family_id", "=", input.familyId)
      .executeTakeFirst();
    const sort = last?.maxSort === null || last?.maxSort === undefined ? 0 : Number(last.maxSort) + 1;
    let update = trx
      .updateTable("devices")
      .set({ family_id: input.familyId, sort, ...(input.name ? { name: input.name } : {}) })
      .where("id", "=", device.id);
    // Only from the state we checked: a concurrent bind elsewhere makes this update match nothing.
    update = previous === null ? update.where("family_id", "is", null) : update.where("family_id", "=", previous);
    const result = await update.executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) throw new AppError(ErrorCode.Conflict, "device.boundElsewhere");
  });
  await publishChanged(deps, device.id, [input.familyId, previous]);
  return getFamilyDevice(deps.db, device.id);
}

/**
 * A device with its live state, last reported settings and model (spec §7 device/get-device-with--data and
 * family-device/get-device-detail), the model's name in `lang` (the caller's Accept-Language; DeviceInfo shows it).
 * Units: L, L/min, s.
 * @throws AppError NotFound (unknown device; the route answers the same to a caller outside its household).
 */
export async function getDeviceWithData(db: Db, deviceId: string, lang: Language): Promise<TDeviceWithData> {
  const row = await readDeviceRow(db, deviceId);
  return {
    ...row.info,
    familyId: row.familyId,
    image: row.image,
    sort: row.sort,
    settings: row.settingsJson ? (JSON.parse(row.settingsJson) as TDeviceSettings) : null,
    deviceModel: await findDeviceModel(db, row.info.model, lang),
  };
}

/**
 * Renames a device or changes its image (spec §7 update-device-name / update-device-image; screens DeviceNameUpdate,
 * DeviceImage). Any member of the household may do it. Images are stored as relative paths (spec §7 Images): one of
 * the model's pictures or a photo the caller uploaded (contract uploadFile).
 * Publishes `device.changed`. `device` is what the call's rule found (a member of its household).
 * @throws AppError Validation device.imageNotAllowed /
 * files.notOwned for any other image.
 */
export async function updateDevice(
  deps: DeviceDeps,
  userId: string,
  device: DeviceGrant,
  change: { name?: string; image?: string },
): Promise<TFamilyDevice> {
  const { deviceId, familyId } = device;
  if (change.image !== undefined) await requireAllowedDeviceImage(deps.db, userId, deviceId, change.image);
  await deps.db.updateTable("devices").set(change).where("id", "=", deviceId).execute();
  await publishChanged(deps, deviceId, [familyId]);
  return getFamilyDevice(deps.db, deviceId);
}

/**
 * The caller's devices (spec §7 device-lookup/get-device-list): of household `familyId`, or of every household the
 * caller belongs to, ordered by household then sort; paged with skipCount / maxResultCount.
 * @throws AppError Forbidden when `familyId` is given and the caller is not a member.
 */
export async function listMyDevices(
  db: Db,
  userId: string,
  query: { familyId?: string; skipCount: number; maxResultCount: number },
): Promise<TPaged<TFamilyDevice>> {
  const families = query.familyId
    ? [query.familyId]
    : (await db.selectFrom("family_members").select("family_id").where("user_id", "=", userId).execute()).map(
        (m) => m.family_id,
      );
  if (families.length === 0) return { items: [], totalCount: 0 };
  const total = await db
    .selectFrom("devices")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("family_id", "in", families)
    .executeTakeFirstOrThrow();
  const rows = await familyDeviceQuery(db)
    .where("d.family_id", "in", families)
    .orderBy("d.family_id")
    .orderBy("d.sort")
    .orderBy("d.creation_time")
    .orderBy("d.id")
    .limit(query.maxResultCount)
    .offset(query.skipCount)
    .execute();
  return { items: rows.map(toFamilyDevice), totalCount: Number(total.n) };
}

/**
 * Records a configuration change made at the valve (spec §7 external-callback/send-device-config-change-message):
 * merges `settings` into device_state.settings_json, stores a device_events row of type "config-change" (once per
 * MAC, ts and settings, so a redelivery is stored once) and publishes `device.changed`.
 * @throws AppError NotFound (unknown MAC); Validation (device.wrongConfiguration, members = names that are not
 *   advanced settings of spec §3).
 */
export async function recordConfigChange(
  deps: DeviceDeps,
  input: { mac: string; settings: TDeviceSettings; ts?: string },
): Promise<{ deviceId: string; settings: TDeviceSettings }> {
  const unknown = Object.keys(input.settings).filter((k) => !(ADVANCED_SETTING_NAMES as readonly string[]).includes(k));
  if (unknown.length > 0 || Object.keys(input.settings).length === 0) {
    throw new AppError(ErrorCode.Validation, "device.wrongConfiguration", {}, [
      { message: "device.wrongConfiguration", members: unknown.length > 0 ? unknown : ["settings"] },
    ]);
  }
  const device = await deps.db
    .selectFrom("devices")
    .select(["id", "family_id"])
    .where("mac", "=", normaliseMac(input.mac))
    .executeTakeFirst();
  if (!device) throw new AppError(ErrorCode.NotFound, "device.notFound");
  const now = deps.now().toISOString();
  const ts = input.ts && !Number.isNaN(Date.parse(input.ts)) ? new Date(input.ts).toISOString() : now;
  const eventId = `config-change-${createHash("sha256")
    .update(`${ts}|${JSON.stringify(input.settings)}`)
    .digest("hex")
    .slice(0, 32)}`;
  const merged = await deps.db.transaction().execute(async (trx) => {
    // Read for update: two changes of one device at once would each merge into the same old settings, and the later
    // write drop the other's keys (PostgreSQL; SQLite writes one transaction at a time).
    let read = trx.selectFrom("device_state").select("settings_json").where("device_id", "=", device.id);
    if (isPostgres(trx)) read = read.forUpdate();
    const state = await read.executeTakeFirst();
    const settings = { ...(state?.settings_json ? JSON.parse(state.settings_json) : {}), ...input.settings };
    if (state) {
      await trx
        .updateTable("device_state")
        .set({ settings_json: JSON.stringify(settings), updated_at: now })
        .where("device_id", "=", device.id)
        .execute();
    } else {
      await trx
        .insertInto("device_state")
        .values({
          device_id: device.id,
          online: 0,
          vacation: 0,
          regeneration_count: 0,
          settings_json: JSON.stringify(settings),
          updated_at: now,
        })
        .execute();
    }
    await trx
      .insertInto("device_events")
      .values({
        id: eventId,
        device_id: device.id,
        type: "config-change",
        close_reason: null,
        station: null,
        ts,
        received_at: now,
      })
      .onConflict((oc) => oc.columns(["device_id", "id"]).doNothing())
      .execute();
    return settings as TDeviceSettings;
  });
  if (device.family_id) {
    const message = await stateMessage(deps.db, device.id, device.family_id);
    deps.bus.publish({
      type: "device.changed",
      familyId: device.family_id,
      deviceId: device.id,
      message: { ...message, kind: "event", event: { type: "config-change", closeReason: null } },
    });
  }
  return { deviceId: device.id, settings: merged };
}

/**
 * A device image must be one of its model's pictures (device-model images or main image) or a photo uploaded by the
 * caller: no outside URL or someone else's upload ends up on a household's screen.
 * @throws AppError Validation (device.imageNotAllowed, or files.notOwned for another user's upload).
 */
async function requireAllowedDeviceImage(db: Db, userId: string, deviceId: string, image: string): Promise<void> {
  if (isUploadPath(image)) return requireOwnUploads(db, userId, [image]);
  const device = await db.selectFrom("devices").select("model").where("id", "=", deviceId).executeTakeFirstOrThrow();
  const model = await findDeviceModel(db, device.model);
  if (model && (model.mainImage === image || model.images.includes(image))) return;
  throw new AppError(ErrorCode.Validation, "device.imageNotAllowed");
}
