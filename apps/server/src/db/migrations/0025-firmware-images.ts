import type { Kysely } from "kysely";

/**
 * `firmware_images`: the firmware images uploaded by the vendor (docs/device-protocol.md §3.7 "Firmware update"), one
 * row per model and version. The bytes live under DATA_DIR/firmware/<sha256>, content-addressed, so one image file
 * serves every row with the same bytes. `signature` is the vendor's Ed25519 signature (base64) over the image's
 * 32-byte SHA-256 digest, checked against the trusted vendor keys before the row is written.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("firmware_images")
    .addColumn("model", "text", (c) => c.notNull())
    .addColumn("version", "text", (c) => c.notNull())
    .addColumn("size", "integer", (c) => c.notNull())
    .addColumn("sha256", "text", (c) => c.notNull())
    .addColumn("signature", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("firmware_images_pk", ["model", "version"])
    .execute();
  await db.schema.createIndex("firmware_images_sha256").on("firmware_images").column("sha256").execute();
}

/** Reverts {@link up} (the image files under DATA_DIR/firmware stay). */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("firmware_images").execute();
}
