import { endpoints, FILE_UPLOAD_MAX_BYTES } from "@aquapilot/contract";
import multipart from "@fastify/multipart";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { CORE_PLUGIN, type CoreServices, coreServices } from "../../core-services.ts";
import { ensurePrivateDir } from "../../data-dir.ts";
import { asBodyError } from "../../http/edge.ts";
import { AppError, ErrorCode } from "../../http/errors.ts";
import { registerEndpoint } from "../../http/route.ts";
import { IMMUTABLE } from "../../http/security-headers.ts";
import { IMAGE_TYPES, requireUploadAllowance, sniffImage, storeUpload, UPLOADS_PREFIX, uploadsDir } from "./service.ts";

/**
 * Image upload (contract `uploadFile`, `POST /api/app/file/upload`, multipart/form-data with one file part: PNG,
 * JPEG or WebP by its first bytes and declared type, at most 5 MB; 30 per user per minute) and the read-only serving
 * of DATA_DIR/uploads at `/uploads/…` (GET/HEAD, `nosniff`, cached for a year: names are random and never reused).
 * Errors: Validation profile.avatarMissing / profile.avatarType / profile.avatarTooLarge, TooManyRequests
 * files.tooMany.
 */
function fileRoutes(app: FastifyInstance, ctx: CoreServices): void {
  const root = uploadsDir(ctx.config.DATA_DIR);
  ensurePrivateDir(root);

  app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: FILE_UPLOAD_MAX_BYTES, files: 1, fields: 10, parts: 11 } });
    registerEndpoint(scope, endpoints.uploadFile, async ({ request, user }) => {
      if (!request.isMultipart()) throw new AppError(ErrorCode.Validation, "profile.avatarMissing");
      await requireUploadAllowance(ctx.db, user.id, ctx.now());
      let file: Awaited<ReturnType<typeof request.file>>;
      let buf: Buffer;
      try {
        file = await request.file();
        if (!file) throw new AppError(ErrorCode.Validation, "profile.avatarMissing");
        buf = await file.toBuffer();
      } catch (err) {
        if (err instanceof scope.multipartErrors.RequestFileTooLargeError) {
          throw new AppError(ErrorCode.Validation, "profile.avatarTooLarge", {
            max: FILE_UPLOAD_MAX_BYTES / 1024 / 1024,
          });
        }
        throw asBodyError(err);
      }
      const ext = sniffImage(buf);
      if (!ext || IMAGE_TYPES[ext] !== (file.mimetype === "image/jpg" ? "image/jpeg" : file.mimetype)) {
        throw new AppError(ErrorCode.Validation, "profile.avatarType");
      }
      return storeUpload(ctx.db, ctx.config.DATA_DIR, user.id, buf, ext, ctx.now());
    });
  });

  app.register(fastifyStatic, {
    root,
    prefix: UPLOADS_PREFIX,
    decorateReply: false,
    index: false,
    list: false,
    dotfiles: "deny",
    // @fastify/static would overwrite a Cache-Control set here with its own "max-age=0" unless cacheControl is off.
    cacheControl: false,
    setHeaders: (res) => {
      res.setHeader("x-content-type-options", "nosniff");
      res.setHeader("cache-control", IMMUTABLE);
    },
  });
}

/**
 * The files module as the plugin "module-files": {@link fileRoutes} on the core's decorations ({@link coreServices}).
 * Encapsulated: its hooks apply to its own routes only; it decorates nothing another module uses.
 */
export const filesModule = fp(async (app) => fileRoutes(app, coreServices(app)), {
  name: "module-files",
  fastify: "5.x",
  dependencies: [CORE_PLUGIN],
  encapsulate: true,
});
