import { randomUUID } from "node:crypto";
import { normaliseMac } from "@aquapilot/contract";
import { hashPassword } from "../../auth/passwords.ts";
import type { Db } from "../../db/index.ts";

/**
 * The fewest characters of a device secret the factory route accepts (apps/dev factory-route.ts): 16 base64url
 * characters are 96 random bits. Device logins on Mosquitto are not throttled (Mosquitto 2 counts no failed CONNECTs),
 * so the secret's length is what limits guessing there (docs/security.md, iot/mosquitto-guessing.test.ts).
 */
export const FACTORY_SECRET_MIN_LENGTH = 16;

/** A device's factory identity and credentials (docs/device-protocol.md: MAC = MQTT username, secret = password). */
export interface DeviceProvisioning {
  /** Any spelling; stored as 12 upper-case hex digits. */
  mac: string;
  /** The device's MQTT password in clear; stored as an argon2id hash. */
  secret: string;
  name: string;
  model?: string | null;
  /** Control valve serial number (spec §3 Device info). */
  serialNumber?: string | null;
  /** Device serial number (spec §3 Device info). */
  deviceSerialNumber?: string | null;
}

/**
 * Factory registration of a device: stores its MAC and hashed secret, unbound to any family, with an offline
 * device_state row. Registering a known MAC again replaces its secret and identity fields and keeps its family
 * binding, name and sort. One transaction.
 * @throws when the MAC does not have 12 hex digits.
 */
export async function provisionDevice(db: Db, input: DeviceProvisioning): Promise<{ id: string; created: boolean }> {
  const mac = normaliseMac(input.mac);
  if (mac.length !== 12) throw new Error(`provisionDevice: MAC "${input.mac}" must have 12 hex digits`);
  const secretHash = await hashPassword(input.secret);
  const now = new Date().toISOString();
  return db.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom("devices").select("id").where("mac", "=", mac).executeTakeFirst();
    if (existing) {
      await trx
        .updateTable("devices")
        .set({
          secret_hash: secretHash,
          model: input.model ?? null,
          serial_number: input.serialNumber ?? null,
          device_serial_number: input.deviceSerialNumber ?? null,
        })
        .where("id", "=", existing.id)
        .execute();
      return { id: existing.id, created: false };
    }
    const id = randomUUID();
    await trx
      .insertInto("devices")
      .values({
        id,
        mac,
        secret_hash: secretHash,
        name: input.name,
        image: null,
        model: input.model ?? null,
        device_serial_number: input.deviceSerialNumber ?? null,
        serial_number: input.serialNumber ?? null,
        firmware_version: null,
        family_id: null,
        sort: 0,
        creation_time: now,
      })
      .execute();
    await trx
      .insertInto("device_state")
      .values({ device_id: id, online: 0, vacation: 0, regeneration_count: 0, updated_at: now })
      .onConflict((oc) => oc.column("device_id").doNothing())
      .execute();
    return { id, created: true };
  });
}
