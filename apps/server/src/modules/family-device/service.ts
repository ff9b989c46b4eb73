import type { TFamilyDevice } from "@aquapilot/contract";
import type { CompiledQuery } from "kysely";
import { type DeviceGrant, requireAccess } from "../../auth/access.ts";
import { lockFamily } from "../../auth/family-lock.ts";
import type { Bus } from "../../bus.ts";
import type { Db } from "../../db/index.ts";
import { AppError, ErrorCode } from "../../http/errors.ts";
import { type FamilyDeviceRow, familyDeviceQuery, stateMessage, toFamilyDevice } from "../devices/index.ts";

/**
 * The query behind family-device/get-list-by-family-id: the family's devices left-joined with their device_state,
 * ordered by sort (then creation time and id). No membership check: callers authorise first (the bench measures it
 * bare against the full route). Built and compiled once per database (building and compiling it with
 * Kysely on every request cost more than running it), then run with `familyId` as its one parameter.
 */
export async function familyDeviceRows(db: Db, familyId: string): Promise<FamilyDeviceRow[]> {
  let compiled = compiledByDb.get(db);
  if (!compiled) {
    compiled = familyDeviceQuery(db)
      .where("d.family_id", "=", FAMILY_PLACEHOLDER)
      .orderBy("d.sort")
      .orderBy("d.creation_time")
      .orderBy("d.id")
      .compile();
    if (compiled.parameters.length !== 1 || compiled.parameters[0] !== FAMILY_PLACEHOLDER) {
      throw new Error("familyDeviceRows: the list query must have the family id as its only parameter");
    }
    compiledByDb.set(db, compiled);
  }
  const { rows } = await db.executeQuery<FamilyDeviceRow>({ ...compiled, parameters: [familyId] });
  return rows;
}
/** The value the compiled list query is built with; each run replaces it (the query's only parameter). */
const FAMILY_PLACEHOLDER = "\u0000familyId";
/** The compiled list query of each open database (SQLite or PostgreSQL text). */
const compiledByDb = new WeakMap<Db, CompiledQuery<FamilyDeviceRow>>();

/**
 * The devices of a family in sort order, with their live state (online, station, last report) from device_state
 * (spec §7 family-device/get-list-by-family-id; spec §3 Device).
 * Checks no caller: the route's object rule refuses a stranger (404 family.notFound, as for an unknown family).
 */
export async function listFamilyDevices(db: Db, familyId: string): Promise<TFamilyDevice[]> {
  return (await familyDeviceRows(db, familyId)).map(toFamilyDevice);
}

/**
 * Sets the order of a household's devices (spec §7 family-device/update-device-sort; screen DeviceSort, kept per
 * household): `deviceIds` must list every device of the family exactly once; sort becomes the index. Any member
 * may reorder. One transaction; then publishes `family.devices-changed` (the order is not live state, so hubs send
 * nothing; the processes' cached lists of the household drop it, list-cache.ts).
 * @throws AppError NotFound (family.notFound: no such family, or the caller is not a member); Validation
 *   (device.sortMismatch, members ["deviceIds"]) when the list misses a device, repeats one or names a device of another household — nothing changes then.
 */
export async function updateDeviceSort(
  deps: { db: Db; bus: Bus },
  userId: string,
  familyId: string,
  deviceIds: string[],
): Promise<TFamilyDevice[]> {
  const { db, bus } = deps;
  await db.transaction().execute(async (trx) => {
    if (!(await lockFamily(trx, familyId))) throw new AppError(ErrorCode.NotFound, "family.notFound");
    await requireAccess(trx, userId, { object: "family", role: "member", id: familyId });
    const current = await trx.selectFrom("devices").select("id").where("family_id", "=", familyId).execute();
    const ids = new Set(current.map((d) => d.id));
    const unique = new Set(deviceIds);
    if (unique.size !== deviceIds.length || unique.size !== ids.size || deviceIds.some((id) => !ids.has(id))) {
      throw new AppError(ErrorCode.Validation, "device.sortMismatch", {}, [
        { message: "device.sortMismatch", members: ["deviceIds"] },
      ]);
    }
    for (const [index, id] of deviceIds.entries()) {
      await trx.updateTable("devices").set({ sort: index }).where("id", "=", id).execute();
    }
  });
  bus.publish({ type: "family.devices-changed", familyId });
  return listFamilyDevices(db, familyId);
}

/**
 * Unbinds a device from its household (spec §7 family-device/delete-device): administrator only. The device stays
 * provisioned (its secret and state are kept) and can be bound again with its pairing code. Publishes
 * `device.changed` to the household that lost it. `device` is what the call's rule found (the caller administers its
 * household; contract `deleteDevice`).
 */
export async function deleteFamilyDevice(deps: { db: Db; bus: Bus }, device: DeviceGrant): Promise<null> {
  const { deviceId, familyId } = device;
  const message = await stateMessage(deps.db, deviceId, familyId);
  const result = await deps.db
    .updateTable("devices")
    .set({ family_id: null, sort: 0 })
    .where("id", "=", deviceId)
    .where("family_id", "=", familyId)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 1) deps.bus.publish({ type: "device.changed", familyId, deviceId, message });
  return null;
}
