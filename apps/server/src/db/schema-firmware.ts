/**
 * One firmware image (table `firmware_images`, migration 0025; modules/firmware): a model's version, signed by the
 * vendor. The bytes are the file DATA_DIR/firmware/<sha256>.
 */
export interface FirmwareImagesTable {
  /** Device model the image is for, e.g. "AQ-S25". */
  model: string;
  /** Dotted version, e.g. "1.2.0" (compared numerically, device-control `compareVersions`). */
  version: string;
  /** Bytes. */
  size: number;
  /** SHA-256 of the image, 64 lower-case hex digits. */
  sha256: string;
  /** The vendor's Ed25519 signature over the 32-byte SHA-256 digest, base64 (64 bytes). */
  signature: string;
  /** When it was uploaded, ISO 8601 UTC. */
  created_at: string;
}

/** Table types of the firmware module (joined into the server's `Database`). */
export interface FirmwareTables {
  firmware_images: FirmwareImagesTable;
}
