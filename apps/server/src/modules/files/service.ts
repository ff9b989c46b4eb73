import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { AVATAR_UPLOAD_PREFIX, FILE_UPLOAD_PREFIX, type TUploadedFile } from "@aquapilot/contract";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "../../data-dir.ts";
import type { Db } from "../../db/index.ts";
import { AppError, ErrorCode } from "../../http/errors.ts";

/** URL prefix of every uploaded file (spec §7 "Images: a relative path … gets the API host prefixed"). */
export const UPLOADS_PREFIX = "/uploads/";

/** Image formats accepted, by file extension, with their media types. */
export const IMAGE_TYPES = { png: "image/png", jpg: "image/jpeg", webp: "image/webp" } as const;
export type ImageExtension = keyof typeof IMAGE_TYPES;

/** The image format from the file's first bytes (the declared type alone is the client's word), or null. */
export function sniffImage(buf: Buffer): ImageExtension | null {
  if (buf.length >= 8 && buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return "png";
  }
  if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return "jpg";
  if (buf.length >= 12 && buf.toString("latin1", 0, 4) === "RIFF" && buf.toString("latin1", 8, 12) === "WEBP") {
    return "webp";
  }
  return null;
}

/** The folder uploaded files live in: DATA_DIR/uploads (served read-only at {@link UPLOADS_PREFIX}). */
export function uploadsDir(dataDir: string): string {
  return path.resolve(dataDir, "uploads");
}

/**
 * Writes an image the caller uploaded to DATA_DIR/uploads/<kind>/<128-bit random>.<ext> (`files`: upload-file;
 * `avatars`: the profile's avatar upload) and records its owner in `uploads` (so only they can attach it). `buf` must
 * already be checked with {@link sniffImage}. Returns `{fileUrl: "/uploads/<kind>/…", contentType, size}` (bytes).
 */
export async function storeUpload(
  db: Db,
  dataDir: string,
  userId: string,
  buf: Buffer,
  ext: ImageExtension,
  now: Date,
  kind: "files" | "avatars" = "files",
): Promise<TUploadedFile> {
  const folder = path.join(uploadsDir(dataDir), kind);
  await fs.promises.mkdir(folder, { recursive: true, mode: PRIVATE_DIR_MODE });
  const name = `${randomBytes(16).toString("hex")}.${ext}`;
  const file = path.join(folder, name);
  await fs.promises.writeFile(file, buf, { flag: "wx", mode: PRIVATE_FILE_MODE });
  const fileUrl = `${kind === "files" ? FILE_UPLOAD_PREFIX : AVATAR_UPLOAD_PREFIX}${name}`;
  try {
    await db
      .insertInto("uploads")
      .values({
        path: fileUrl,
        user_id: userId,
        content_type: IMAGE_TYPES[ext],
        size: buf.length,
        created_at: now.toISOString(),
      })
      .execute();
  } catch (err) {
    await fs.promises.rm(file, { force: true });
    throw err;
  }
  return { fileUrl, contentType: IMAGE_TYPES[ext], size: buf.length };
}

/** How many uploads one user may make per rolling minute. */
export const UPLOADS_PER_MINUTE = 30;

/**
 * Refuses a caller who uploaded {@link UPLOADS_PER_MINUTE} files in the last minute.
 * @throws AppError TooManyRequests (files.tooMany).
 */
export async function requireUploadAllowance(db: Db, userId: string, now: Date): Promise<void> {
  const since = new Date(now.getTime() - 60_000).toISOString();
  const row = await db
    .selectFrom("uploads")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("user_id", "=", userId)
    .where("created_at", ">", since)
    .executeTakeFirstOrThrow();
  if (Number(row.n) >= UPLOADS_PER_MINUTE) throw new AppError(ErrorCode.TooManyRequests, "files.tooMany");
}

/** Whether `fileUrl` is a path of an upload: {@link storeUpload}'s or the profile's avatar upload's. */
export function isUploadPath(fileUrl: string): boolean {
  return fileUrl.startsWith(FILE_UPLOAD_PREFIX) || fileUrl.startsWith(AVATAR_UPLOAD_PREFIX);
}

/**
 * Checks that every path in `fileUrls` is an image uploaded by `userId` (device image, after-sales photos, the
 * profile's and a household's avatar): nobody attaches another user's upload or an outside URL.
 * @throws AppError Validation (files.notOwned, member "photos") for the first path that is not the caller's upload.
 */
export async function requireOwnUploads(db: Db, userId: string, fileUrls: string[]): Promise<void> {
  const wanted = [...new Set(fileUrls)];
  if (wanted.length === 0) return;
  const owned = wanted.every(isUploadPath)
    ? await db.selectFrom("uploads").select("path").where("user_id", "=", userId).where("path", "in", wanted).execute()
    : [];
  if (owned.length !== wanted.length) throw new AppError(ErrorCode.Validation, "files.notOwned");
}
