import { type Language, normaliseMac, type TDeviceModel } from "@aquapilot/contract";
import type { Db } from "../../db/index.ts";
import { AppError, ErrorCode } from "../../http/errors.ts";

/**
 * The catalogue entry of `deviceModel` (spec §7 device-model), or null when the model is unknown. `name` is the
 * model's name in `lang` (the caller's Accept-Language, spec §1, §7) when the catalogue has it in that language
 * (`names_json`), else the catalogue's `name` (English); without `lang`, the catalogue's `name`.
 */
export async function findDeviceModel(
  db: Db,
  deviceModel: string | null,
  lang?: Language,
): Promise<TDeviceModel | null> {
  if (!deviceModel) return null;
  const row = await db.selectFrom("device_models").selectAll().where("model", "=", deviceModel).executeTakeFirst();
  if (!row) return null;
  return {
    deviceModel: row.model,
    name: (lang && localName(row.names_json, lang)) || row.name,
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

/** The name for `lang` in a `names_json` value ({language: name}); null when absent, empty or not such an object. */
function localName(namesJson: string | null, lang: Language): string | null {
  if (!namesJson) return null;
  const names: unknown = JSON.parse(namesJson);
  if (typeof names !== "object" || names === null || !Object.hasOwn(names, lang)) return null;
  const name: unknown = (names as Record<string, unknown>)[lang];
  return typeof name === "string" && name !== "" ? name : null;
}
