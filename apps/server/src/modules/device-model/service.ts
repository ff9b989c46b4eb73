import { normaliseMac, type TDeviceModel } from "@aquapilot/contract";
import type { Db } from "../../db/index.ts";
import { AppError, ErrorCode } from "../../http/errors.ts";

/** The catalogue entry of `deviceModel` (spec §7 device-model), or null when the model is unknown. */
export async function findDeviceModel(db: Db, deviceModel: string | null): Promise<TDeviceModel | null> {
  if (!deviceModel) return null;
  const row = await db.selectFrom("device_models").selectAll().where("model", "=", deviceModel).executeTakeFirst();
  if (!row) return null;
  return {
    deviceModel: row.model,
    name: row.name,
    mainImage: row.main_image,
    images: JSON.parse(row.images_json) as string[],
  };
}

/**
 * The model of the device with MAC `mac` (any spelling), for a caller who may use that device (spec §6).
 * @throws AppError NotFound (device.notFound) for an unknown MAC (a stranger gets the same from the route's rule).
 */
export async function deviceModelByMac(db: Db, mac: string): Promise<TDeviceModel | null> {
  const device = await db
    .selectFrom("devices")
    .select(["id", "model"])
    .where("mac", "=", normaliseMac(mac))
    .executeTakeFirst();
  if (!device) throw new AppError(ErrorCode.NotFound, "device.notFound");
  return findDeviceModel(db, device.model);
}
