import path from "node:path";
import { endpoints } from "@aquapilot/contract";
import multipart from "@fastify/multipart";
import type { FastifyInstance } from "fastify";
import type { CoreServices } from "../../core-services.ts";
import { ensurePrivateDir } from "../../data-dir.ts";
import { asBodyError } from "../../http/edge.ts";
import { AppError, ErrorCode } from "../../http/errors.ts";
import { registerEndpoint } from "../../http/route.ts";
import { type ImageExtension, requireUploadAllowance, sniffImage, storeUpload, uploadsDir } from "../files/index.ts";

/** Largest avatar accepted: 2 MB (bytes). */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;

const EXTENSION_BY_TYPE: Record<string, ImageExtension> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/webp": "webp",
};

/**
 * `POST /api/basic-data/app/profile/avatar` (multipart/form-data, one file field: image/png, image/jpeg or
 * image/webp, at most 2 MB, checked by its first bytes too) stores the image as
 * DATA_DIR/uploads/avatars/<random>.<ext> and answers its relative path "/uploads/avatars/<random>.<ext>", which the
 * app then sets with POST /profile/ {avatar}. Files under DATA_DIR/uploads are served by the files module
 * (modules/files/routes.ts).
 * Errors: Validation (400) profile.avatarMissing, profile.avatarType, profile.avatarTooLarge.
 */
export function avatarRoutes(app: FastifyInstance, ctx: CoreServices): void {
  const root = uploadsDir(ctx.config.DATA_DIR);
  const avatars = path.join(root, "avatars");
  ensurePrivateDir(avatars);

  app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 10, parts: 11 } });
    registerEndpoint(scope, endpoints.uploadAvatar, async ({ request, user }) => {
      // Counted with the other uploads of the caller (modules/files), and recorded as theirs, so only they can set it.
      await requireUploadAllowance(ctx.db, user.id, ctx.now());
      if (!request.isMultipart()) throw new AppError(ErrorCode.Validation, "profile.avatarMissing");
      let file: Awaited<ReturnType<typeof request.file>>;
      let buf: Buffer;
      try {
        file = await request.file();
        if (!file) throw new AppError(ErrorCode.Validation, "profile.avatarMissing");
        buf = await file.toBuffer();
      } catch (err) {
        if (err instanceof scope.multipartErrors.RequestFileTooLargeError) {
          throw new AppError(ErrorCode.Validation, "profile.avatarTooLarge", { max: AVATAR_MAX_BYTES / 1024 / 1024 });
        }
        throw asBodyError(err);
      }
      const declared = EXTENSION_BY_TYPE[file.mimetype];
      const actual = sniffImage(buf);
      if (!declared || actual !== declared) throw new AppError(ErrorCode.Validation, "profile.avatarType");
      // Stored and recorded as the caller's upload, as the files module stores every upload.
      const stored = await storeUpload(ctx.db, ctx.config.DATA_DIR, user.id, buf, actual, ctx.now(), "avatars");
      return stored.fileUrl;
    });
  });
}
