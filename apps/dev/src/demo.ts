import { randomUUID } from "node:crypto";
import { type Language, normaliseMac } from "@aquapilot/contract";
import { DEMO_ACCOUNT } from "@aquapilot/server/auth/demo-account.ts";
import { hashPassword } from "@aquapilot/server/auth/passwords.ts";
import type { Db } from "@aquapilot/server/db/index.ts";

export { DEMO_ACCOUNT };

/**
 * The demo's seeded texts per language (spec §1 languages), in the terms the app's own texts use: the household's name
 * and address, and a softener's name with its position in the fleet (`{n}`, from 1).
 */
const DEMO_TEXTS: Record<Language, { household: string; address: string; device: string }> = {
  "zh-Hans": { household: "家", address: "上海市黄浦区外滩", device: "软水机 {n}" },
  en: { household: "Home", address: "Bund, Huangpu District, Shanghai", device: "Softener {n}" },
  es: { household: "Casa", address: "El Bund, distrito de Huangpu, Shanghái", device: "Descalcificador {n}" },
  ru: { household: "Дом", address: "Набережная Вайтань, район Хуанпу, Шанхай", device: "Умягчитель {n}" },
  fr: { household: "Maison", address: "Le Bund, district de Huangpu, Shanghai", device: "Adoucisseur {n}" },
};

/** The name the demo gives its `n`-th softener (from 1) in `lang`: "Softener 1", "软水机 1", "Adoucisseur 1"… */
export function demoDeviceName(lang: Language, n: number): string {
  return DEMO_TEXTS[lang].device.replace("{n}", String(n));
}

/**
 * Whether `name` is the name the demo gives its `n`-th softener (from 1) in any language: a name the launcher
 * generated, not one a developer wrote into the fleet file.
 */
export function isDemoDeviceName(name: string, n: number): boolean {
  return (Object.keys(DEMO_TEXTS) as Language[]).some((lang) => demoDeviceName(lang, n) === name);
}

/**
 * One simulated softener of the demo fleet: give its clear `secret`, or an argon2id `secretHash`. Without `name` the
 * seed names it by its position in the demo's language ({@link demoDeviceName}).
 */
export interface DemoDevice {
  mac: string;
  secret?: string;
  secretHash?: string;
  name?: string;
  model?: string | null;
  serialNumber?: string | null;
  deviceSerialNumber?: string | null;
}

/**
 * Seeds the demo when the users table is empty: the owner demo@aquapilot.local / demo1234 (user name "demo",
 * region 2 Europe, stored language `opts.language`, default en), a family named in that language ("Home", "家",
 * "Casa", "Дом", "Maison") at the spec §9 default centre 121.491,31.233 with the owner as administrator, and the given
 * devices bound to it in order (sort 0..n-1, offline device_state), those without a name named by position in that
 * language ("Softener 1", "软水机 1"…). The names are then the owner's data: nothing renames them when the owner's
 * language changes. A device already provisioned under the same MAC is bound, not duplicated. One transaction;
 * idempotent (does nothing when any user exists).
 * @throws when a device has neither `secret` nor `secretHash`.
 */
export async function seedDemoIfEmpty(
  db: Db,
  opts: { devices: DemoDevice[]; language?: Language },
): Promise<{ created: boolean; email: string; password: string }> {
  const answer = { email: DEMO_ACCOUNT.email, password: DEMO_ACCOUNT.password };
  const any = await db.selectFrom("users").select("id").limit(1).executeTakeFirst();
  if (any) return { created: false, ...answer };

  const language = opts.language ?? "en";
  const texts = DEMO_TEXTS[language];
  const passwordHash = await hashPassword(DEMO_ACCOUNT.password);
  const devices = await Promise.all(
    opts.devices.map(async (d, i) => {
      if (!d.secretHash && !d.secret) throw new Error(`seedDemoIfEmpty: device ${d.mac} needs a secret or secretHash`);
      return {
        ...d,
        mac: normaliseMac(d.mac),
        name: d.name ?? demoDeviceName(language, i + 1),
        secretHash: d.secretHash ?? (await hashPassword(d.secret!)),
      };
    }),
  );
  const now = new Date().toISOString();
  return db.transaction().execute(async (trx) => {
    // Checked again inside the transaction: two processes starting together seed once.
    if (await trx.selectFrom("users").select("id").limit(1).executeTakeFirst()) return { created: false, ...answer };
    const userId = randomUUID();
    const familyId = randomUUID();
    await trx
      .insertInto("users")
      .values({
        id: userId,
        user_name: DEMO_ACCOUNT.userName,
        name: "Demo",
        email: DEMO_ACCOUNT.email,
        phone_number: null,
        country_code: null,
        password_hash: passwordHash,
        service_region: 2,
        language_type: language,
        avatar: null,
        security_stamp: randomUUID(),
        is_deleted: 0,
        creation_time: now,
      })
      .execute();
    await trx
      .insertInto("families")
      .values({
        id: familyId,
        name: texts.household,
        address: texts.address,
        // The region path as the map's region data names it; read in each member's language.
        province: "上海市",
        city: "上海市",
        district: "黄浦区",
        longitude: 121.491,
        latitude: 31.233,
        avatar: null,
        creator_id: userId,
        creation_time: now,
      })
      .execute();
    await trx
      .insertInto("family_members")
      .values({ id: randomUUID(), family_id: familyId, user_id: userId, is_admin: 1, creation_time: now })
      .execute();
    for (const [sort, d] of devices.entries()) {
      const existing = await trx.selectFrom("devices").select("id").where("mac", "=", d.mac).executeTakeFirst();
      const deviceId = existing?.id ?? randomUUID();
      if (existing) {
        await trx
          .updateTable("devices")
          .set({ family_id: familyId, sort, name: d.name, secret_hash: d.secretHash })
          .where("id", "=", deviceId)
          .execute();
      } else {
        await trx
          .insertInto("devices")
          .values({
            id: deviceId,
            mac: d.mac,
            secret_hash: d.secretHash,
            name: d.name,
            image: null,
            model: d.model ?? null,
            device_serial_number: d.deviceSerialNumber ?? null,
            serial_number: d.serialNumber ?? null,
            firmware_version: null,
            family_id: familyId,
            sort,
            creation_time: now,
          })
          .execute();
      }
      await trx
        .insertInto("device_state")
        .values({ device_id: deviceId, online: 0, vacation: 0, regeneration_count: 0, updated_at: now })
        .onConflict((oc) => oc.column("device_id").doNothing())
        .execute();
    }
    return { created: true, ...answer };
  });
}
