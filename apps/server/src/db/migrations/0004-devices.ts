import type { Kysely } from "kysely";

/** The simulator's models (apps/device-sim/src/fleet.ts) with their product images under apps/web/public. */
export const SEED_DEVICE_MODELS = [
  { model: "AQ-S15", name: "AquaPilot S15 softener (15 L resin)", images: ["aq-s15.svg", "aq-s15-valve.svg"] },
  { model: "AQ-S25", name: "AquaPilot S25 softener (25 L resin)", images: ["aq-s25.svg", "aq-s25-valve.svg"] },
  { model: "AQ-S35", name: "AquaPilot S35 softener (35 L resin)", images: ["aq-s35.svg", "aq-s35-valve.svg"] },
] as const;

/**
 * Devices: the device_models catalogue (spec §7 device-model), seeded with the simulator's models. Images
 * are relative paths ("/device-images/…", served by the web app; the client prefixes the API host, spec §7 Images);
 * `images_json` is a JSON array of them, the main image first.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("device_models")
    .addColumn("model", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("main_image", "text")
    .addColumn("images_json", "text", (c) => c.notNull())
    .addColumn("creation_time", "text", (c) => c.notNull())
    .execute();
  const now = new Date().toISOString();
  const rows = SEED_DEVICE_MODELS.map((m) => ({
    model: m.model,
    name: m.name,
    main_image: `/device-images/${m.images[0]}`,
    images_json: JSON.stringify(m.images.map((i) => `/device-images/${i}`)),
    creation_time: now,
  }));
  await (db as Kysely<{ device_models: (typeof rows)[number] }>).insertInto("device_models").values(rows).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("device_models").ifExists().execute();
}
