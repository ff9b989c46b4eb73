import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { loadOrCreateSecret } from "../../auth/secrets.ts";
import { CORE_PLUGIN } from "../../core-services.ts";
import { ensurePrivateDir } from "../../data-dir.ts";
import { FIRMWARE_DIR, firmwareExists } from "./service.ts";
import { checkDownloadToken, DOWNLOAD_KEY_FILE, SHA256_HEX } from "./signing.ts";

/** Path of the device-facing firmware download; `:sha256` is the image's SHA-256, 64 lower-case hex digits. */
export const FIRMWARE_DOWNLOAD_PATH = "/iot/v1/firmware/:sha256";

/**
 * The download URL of image `sha256` for device `mac` with its token (signing.ts `downloadToken`), under `baseUrl`.
 */
export function firmwareDownloadUrl(baseUrl: string, sha256: string, mac: string, token: string): string {
  const q = new URLSearchParams({ device: mac, token });
  return `${baseUrl}/iot/v1/firmware/${sha256}?${q.toString()}`;
}

/**
 * The device-facing firmware download (docs/device-protocol.md §3.7 "Firmware update"):
 * `GET /iot/v1/firmware/{sha256}?device={MAC}&token={token}`, the URL of an `ota` command. The token must be valid for
 * that device and image and not expired (401 `{error: "invalid-token" | "expired-token"}`); an unknown image is 404
 * `{error: "not-found"}`. The bytes are served by @fastify/static (its `send`): `Accept-Ranges: bytes`, a `Range`
 * request answered 206 with `Content-Range` (so a device resumes an interrupted download), 416 for a range outside
 * the image, an ETag (the image is immutable under its hash) for `If-Range`.
 */
function firmwareRoutes(app: FastifyInstance, downloadKey: Uint8Array): void {
  // @fastify/static needs an absolute root; DATA_DIR may be relative to the working directory (default ./data).
  const root = path.resolve(app.config.DATA_DIR, FIRMWARE_DIR);
  ensurePrivateDir(root);
  app.register(fastifyStatic, { root, serve: false, decorateReply: true, cacheControl: false, index: false });
  app.register(async (scope) => {
    scope.get<{ Params: { sha256: string }; Querystring: { device?: string; token?: string } }>(
      FIRMWARE_DOWNLOAD_PATH,
      async (request, reply) => {
        const sha256 = request.params.sha256;
        const mac = String(request.query.device ?? "");
        const token = String(request.query.token ?? "");
        if (!SHA256_HEX.test(sha256)) return reply.code(404).send({ error: "not-found" });
        const problem = checkDownloadToken(downloadKey, token, mac, sha256, app.now());
        if (problem) return reply.code(401).send({ error: problem === "expired" ? "expired-token" : "invalid-token" });
        if (!(await firmwareExists(app.db, app.config.DATA_DIR, sha256))) {
          return reply.code(404).send({ error: "not-found" });
        }
        reply.header("cache-control", "private, no-transform");
        reply.type("application/octet-stream");
        return reply.sendFile(sha256, root, { acceptRanges: true, etag: true, lastModified: false });
      },
    );
  });
}

/**
 * The firmware download as the plugin "module-firmware": {@link firmwareRoutes} on the core's database, clock and
 * DATA_DIR, with the token key DATA_DIR/firmware-download.secret. Encapsulated (its static file serving and replies
 * are its own); buildApp registers it beside device activation, as it is device-facing.
 * @throws at load when the token key cannot be read or created.
 */
export const firmwareModule = fp(
  async (app) => firmwareRoutes(app, loadOrCreateSecret(app.config.DATA_DIR, DOWNLOAD_KEY_FILE)),
  { name: "module-firmware", fastify: "5.x", dependencies: [CORE_PLUGIN], encapsulate: true },
);
