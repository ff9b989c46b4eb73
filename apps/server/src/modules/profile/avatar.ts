import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { endpoints } from "@aquapilot/contract";
import multipart from "@fastify/multipart";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import { AppError, ErrorCode } from "../../http/errors.js";
import { registerEndpoint } from "../../http/route.js";
import type { AppContext } from "../context.js";

/** Largest avatar accepted: 2 MB (bytes). */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
/** URL prefix of uploaded files (spec §7 "Images: a relative path … gets the API host prefixed"). */
export const UPLOADS_PREFIX = "/uploads/";

const EXTENSION_BY_TYPE: Record<string, "png" | "jpg" | "webp"> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/webp": "webp",
};

/** The image format from the file's first bytes (the declared type alone is the client's word). */
export function sniffImage(buf: Buffer): "png" | "jpg" | "webp" | null {
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
 * `POST /api/basic-data/app/profile/avatar` (multipart/form-data, one file field: image/png, image/jpeg or
 * image/webp, at most 2 MB, checked by its first bytes too) stores the image as
 * DATA_DIR/uploads/avatars/<random>.<ext> and answers its relative path "/uploads/avatars/<random>.<ext>", which the
 * app then sets with POST /profile/ {avatar}. Files under DATA_DIR/uploads are served read-only (GET/HEAD) at
 * `/uploads/…`, with `nosniff` and a long cache life (names are random and never reused).
 * Errors: Validation (400) profile.avatarMissing, profile.avatarType, profile.avatarTooLarge.
 */
export function avatarRoutes(app: FastifyInstance, ctx: AppContext): void {
  const root = uploadsDir(ctx.config.DATA_DIR);
  const avatars = path.join(root, "avatars");
  fs.mkdirSync(avatars, { recursive: true });

  app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 10, parts: 11 } });
    registerEndpoint(scope, endpoints.uploadAvatar, async ({ request }) => {
      if (!request.isMultipart()) throw new AppError(ErrorCode.Validation, "profile.avatarMissing");
      const file = await request.file();
      if (!file) throw new AppError(ErrorCode.Validation, "profile.avatarMissing");
      const declared = EXTENSION_BY_TYPE[file.mimetype];
      let buf: Buffer;
      try {
        buf = await file.toBuffer();
      } catch (err) {
        if (err instanceof scope.multipartErrors.RequestFileTooLargeError) {
          throw new AppError(ErrorCode.Validation, "profile.avatarTooLarge", { max: AVATAR_MAX_BYTES / 1024 / 1024 });
        }
        throw err;
      }
      const actual = sniffImage(buf);
      if (!declared || actual !== declared) throw new AppError(ErrorCode.Validation, "profile.avatarType");
      const name = `${randomBytes(16).toString("hex")}.${actual}`;
      await fs.promises.writeFile(path.join(avatars, name), buf, { flag: "wx", mode: 0o644 });
      return `${UPLOADS_PREFIX}avatars/${name}`;
    });
  });

  app.register(fastifyStatic, {
    root,
    prefix: UPLOADS_PREFIX,
    decorateReply: false,
    index: false,
    list: false,
    dotfiles: "deny",
    setHeaders: (res) => {
      res.setHeader("x-content-type-options", "nosniff");
      res.setHeader("cache-control", "public, max-age=31536000, immutable");
    },
  });
}
