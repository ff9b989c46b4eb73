import type { TFamilyDevice } from "@aquapilot/contract";
import type { Db } from "../../db/index.js";
import { requireFamilyMember } from "../access.js";

/**
 * The query behind family-device/get-list-by-family-id: the family's devices left-joined with their device_state,
 * ordered by sort (then creation time and id). No membership check: callers authorise first (the bench measures it
 * bare against the full route).
 */
export function familyDeviceRows(db: Db, familyId: string) {
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
    ])
    .where("d.family_id", "=", familyId)
    .orderBy("d.sort")
    .orderBy("d.creation_time")
    .orderBy("d.id")
    .execute();
}

/**
 * The devices of a family in sort order, with their live state (online, station, last report) from device_state
 * (spec §7 family-device/get-list-by-family-id; spec §3 Device).
 * @throws AppError Forbidden when `userId` is not a member of the family.
 */
export async function listFamilyDevices(db: Db, userId: string, familyId: string): Promise<TFamilyDevice[]> {
  await requireFamilyMember(db, userId, familyId);
  const rows = await familyDeviceRows(db, familyId);
  return rows.map((r) => ({
    id: r.id,
    familyId: r.family_id ?? familyId,
    name: r.name,
    image: r.image,
    online: r.online === 1,
    station: r.station ?? null,
    sort: r.sort,
    mac: r.mac,
    deviceModel: r.model,
    lastReportTime: r.last_report_time ?? null,
  }));
}
