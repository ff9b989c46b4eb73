import type { Kysely } from "kysely";

/**
 * The seeded models' names in the five interface languages (spec §1), the terms the app's own texts use for a
 * softener. `device_models.name` keeps the English one: a model without a name in some language is shown in it.
 */
export const SEED_DEVICE_MODEL_NAMES: Record<string, Record<"zh-Hans" | "en" | "es" | "ru" | "fr", string>> = {
  "AQ-S15": {
    "zh-Hans": "AquaPilot S15 软水机（树脂 15 升）",
    en: "AquaPilot S15 softener (15 L resin)",
    es: "Descalcificador AquaPilot S15 (15 L de resina)",
    ru: "Умягчитель AquaPilot S15 (15 л смолы)",
    fr: "Adoucisseur AquaPilot S15 (15 L de résine)",
  },
  "AQ-S25": {
    "zh-Hans": "AquaPilot S25 软水机（树脂 25 升）",
    en: "AquaPilot S25 softener (25 L resin)",
    es: "Descalcificador AquaPilot S25 (25 L de resina)",
    ru: "Умягчитель AquaPilot S25 (25 л смолы)",
    fr: "Adoucisseur AquaPilot S25 (25 L de résine)",
  },
  "AQ-S35": {
    "zh-Hans": "AquaPilot S35 软水机（树脂 35 升）",
    en: "AquaPilot S35 softener (35 L resin)",
    es: "Descalcificador AquaPilot S35 (35 L de resina)",
    ru: "Умягчитель AquaPilot S35 (35 л смолы)",
    fr: "Adoucisseur AquaPilot S35 (35 L de résine)",
  },
};

/**
 * `device_models.names_json`: a model's name per interface language ({language: name}), answered in the caller's
 * language (Accept-Language) by the device screens (spec §7 get-device-with--data, get-device-detail; DeviceInfo);
 * null, or a language missing from it, falls back to `name`. Filled here for the seeded models.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("device_models").addColumn("names_json", "text").execute();
  const models = db as unknown as Kysely<{ device_models: { model: string; names_json: string | null } }>;
  for (const [model, names] of Object.entries(SEED_DEVICE_MODEL_NAMES)) {
    await models
      .updateTable("device_models")
      .set({ names_json: JSON.stringify(names) })
      .where("model", "=", model)
      .execute();
  }
}

/** Reverts {@link up}. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("device_models").dropColumn("names_json").execute();
}
