import { createHash, type KeyObject, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { AppConfig } from "../../config.ts";
import { ensurePrivateDir, PRIVATE_FILE_MODE } from "../../data-dir.ts";
import type { Db } from "../../db/index.ts";
import type { FirmwareImagesTable } from "../../db/schema-firmware.ts";
import { AppError, ErrorCode } from "../../http/errors.ts";
import { loadOrCreateDevSigningKey, parseTrustedKeys, SHA256_HEX, verifyFirmwareDigest } from "./signing.ts";

/**
 * Compares dotted versions numerically ("1.10.0" is newer than "1.9.3"; a missing part counts 0, a non-number part
 * counts 0, a pre-release suffix after "-" is a further part): > 0 when `a` is newer than `b`, 0 when equal.
 */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.-]/).map((x) => Number.parseInt(x, 10) || 0);
  const pb = b.split(/[.-]/).map((x) => Number.parseInt(x, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** Folder under DATA_DIR of the firmware images, each named by its SHA-256 (hex). */
export const FIRMWARE_DIR = "firmware";
/** Largest firmware image accepted, bytes (16 MiB: a module's whole flash). */
export const FIRMWARE_MAX_BYTES = 16 * 1024 * 1024;

/** One uploaded image as the tools and the `ota` command see it. */
export interface FirmwareImage {
  model: string;
  version: string;
  /** Bytes. */
  size: number;
  /** 64 lower-case hex digits. */
  sha256: string;
  /** Ed25519 over the 32-byte digest, base64. */
  signature: string;
  /** ISO 8601 UTC. */
  createdAt: string;
}

function toImage(row: FirmwareImagesTable): FirmwareImage {
  return {
    model: row.model,
    version: row.version,
    size: row.size,
    sha256: row.sha256,
    signature: row.signature,
    createdAt: row.created_at,
  };
}

/** The file of the image with SHA-256 `sha256` (hex) under DATA_DIR/firmware. */
export function firmwareFile(dataDir: string, sha256: string): string {
  return path.join(dataDir, FIRMWARE_DIR, sha256);
}

/**
 * The vendor keys a firmware image must be signed by: FIRMWARE_SIGNING_PUBLIC_KEYS, and outside production with no key
 * configured the development key pair's public key (created once in DATA_DIR, signing.ts). In production with none
 * configured the list is empty and every upload is refused.
 * @throws Error when a configured entry is not an Ed25519 public key.
 */
export function trustedFirmwareKeys(
  config: Pick<AppConfig, "FIRMWARE_SIGNING_PUBLIC_KEYS" | "APP_ENV" | "DATA_DIR">,
): KeyObject[] {
  const keys = parseTrustedKeys(config.FIRMWARE_SIGNING_PUBLIC_KEYS);
  if (keys.length > 0 || config.APP_ENV === "production") return keys;
  return [loadOrCreateDevSigningKey(config.DATA_DIR).publicKey];
}

/** What {@link uploadFirmware} is given. */
export interface FirmwareUpload {
  model: string;
  version: string;
  bytes: Uint8Array;
  /** The size the vendor states, bytes; checked against the bytes when given. */
  size?: number;
  /** The SHA-256 the vendor states (hex, any case); checked against the bytes when given. */
  sha256?: string;
  /** The vendor's Ed25519 signature over the digest, base64; required. */
  signature?: string;
}

/**
 * Stores a signed firmware image (docs/device-protocol.md §3.7 "Firmware update"): checks model and version text, the
 * stated size and SHA-256 against the bytes, and the signature against `trustedKeys` (signing.ts
 * `verifyFirmwareDigest`), then writes the bytes to DATA_DIR/firmware/<sha256> (mode 0600, atomically by rename) and
 * the row. The same model, version and bytes again answers the stored image (an upload may be repeated).
 * @throws AppError Validation firmware.badModel / badVersion / empty / tooLarge / sizeMismatch / hashMismatch /
 *   unsigned / badSignature; Conflict firmware.duplicate when the model's version exists with other bytes.
 */
export async function uploadFirmware(
  deps: { db: Db; dataDir: string; trustedKeys: readonly KeyObject[]; now: () => Date },
  input: FirmwareUpload,
): Promise<FirmwareImage> {
  const model = input.model.trim();
  const version = input.version.trim();
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(model)) throw new AppError(ErrorCode.Validation, "firmware.badModel");
  if (!/^\d+(\.\d+){0,3}([-+][0-9A-Za-z.]{1,32})?$/.test(version)) {
    throw new AppError(ErrorCode.Validation, "firmware.badVersion");
  }
  const bytes = Buffer.from(input.bytes.buffer, input.bytes.byteOffset, input.bytes.byteLength);
  if (bytes.length === 0) throw new AppError(ErrorCode.Validation, "firmware.empty");
  if (bytes.length > FIRMWARE_MAX_BYTES) throw new AppError(ErrorCode.Validation, "firmware.tooLarge");
  if (input.size !== undefined && input.size !== bytes.length) {
    throw new AppError(ErrorCode.Validation, "firmware.sizeMismatch", { stated: input.size, actual: bytes.length });
  }
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  if (input.sha256 !== undefined && input.sha256.trim().toLowerCase() !== sha256) {
    throw new AppError(ErrorCode.Validation, "firmware.hashMismatch", { actual: sha256 });
  }
  const signature = input.signature?.trim() ?? "";
  if (!signature) throw new AppError(ErrorCode.Validation, "firmware.unsigned");
  if (!verifyFirmwareDigest(deps.trustedKeys, sha256, signature)) {
    throw new AppError(ErrorCode.Validation, "firmware.badSignature");
  }
  const existing = await deps.db
    .selectFrom("firmware_images")
    .selectAll()
    .where("model", "=", model)
    .where("version", "=", version)
    .executeTakeFirst();
  if (existing) {
    if (existing.sha256 !== sha256) throw new AppError(ErrorCode.Conflict, "firmware.duplicate", { model, version });
    return toImage(existing);
  }
  const file = firmwareFile(deps.dataDir, sha256);
  if (!fs.existsSync(file)) {
    ensurePrivateDir(path.dirname(file));
    const tmp = `${file}.${randomBytes(6).toString("hex")}.part`;
    fs.writeFileSync(tmp, bytes, { mode: PRIVATE_FILE_MODE, flag: "wx" });
    fs.renameSync(tmp, file);
  }
  const row: FirmwareImagesTable = {
    model,
    version,
    size: bytes.length,
    sha256,
    signature: Buffer.from(signature, "base64").toString("base64"),
    created_at: deps.now().toISOString(),
  };
  await deps.db
    .insertInto("firmware_images")
    .values(row)
    .onConflict((oc) => oc.columns(["model", "version"]).doNothing())
    .execute();
  const stored = await deps.db
    .selectFrom("firmware_images")
    .selectAll()
    .where("model", "=", model)
    .where("version", "=", version)
    .executeTakeFirstOrThrow();
  if (stored.sha256 !== sha256) throw new AppError(ErrorCode.Conflict, "firmware.duplicate", { model, version });
  return toImage(stored);
}

/** Every uploaded image, by model, newest version first. */
export async function listFirmware(db: Db): Promise<FirmwareImage[]> {
  const rows = await db.selectFrom("firmware_images").selectAll().execute();
  return rows.map(toImage).sort((a, b) => a.model.localeCompare(b.model) || compareVersions(b.version, a.version));
}

/** The newest image (highest version, compared numerically) for `model`, or null when none was uploaded. */
export async function latestFirmwareImage(db: Db, model: string | null): Promise<FirmwareImage | null> {
  if (!model) return null;
  const rows = await db.selectFrom("firmware_images").selectAll().where("model", "=", model).execute();
  let best: FirmwareImagesTable | null = null;
  for (const row of rows) if (!best || compareVersions(row.version, best.version) > 0) best = row;
  return best ? toImage(best) : null;
}

/** The uploaded image of `model` and `version`, or null. */
export async function findFirmwareImage(db: Db, model: string | null, version: string): Promise<FirmwareImage | null> {
  if (!model) return null;
  const row = await db
    .selectFrom("firmware_images")
    .selectAll()
    .where("model", "=", model)
    .where("version", "=", version)
    .executeTakeFirst();
  return row ? toImage(row) : null;
}

/** True when an image with this SHA-256 (hex) is stored (a row and its file). */
export async function firmwareExists(db: Db, dataDir: string, sha256: string): Promise<boolean> {
  if (!SHA256_HEX.test(sha256)) return false;
  const row = await db.selectFrom("firmware_images").select("sha256").where("sha256", "=", sha256).executeTakeFirst();
  return row !== undefined && fs.existsSync(firmwareFile(dataDir, sha256));
}

/**
 * The base of the download URLs devices are given: FIRMWARE_BASE_URL, else PUBLIC_ORIGIN, else the server's own
 * `http://HOST:PORT` (127.0.0.1 for a wildcard HOST); without a trailing slash.
 */
export function firmwareBaseUrl(
  config: Pick<AppConfig, "FIRMWARE_BASE_URL" | "PUBLIC_ORIGIN" | "HOST" | "PORT">,
): string {
  const base = config.FIRMWARE_BASE_URL || config.PUBLIC_ORIGIN;
  if (base) return base.replace(/\/+$/, "");
  const host = config.HOST === "0.0.0.0" || config.HOST === "::" ? "127.0.0.1" : config.HOST;
  return `http://${host.includes(":") ? `[${host}]` : host}:${config.PORT}`;
}
