import zlib from "node:zlib";
import fastifyCompress, { type FastifyCompressOptions } from "@fastify/compress";
import type { FastifyInstance, FastifyPluginCallback, RouteOptions } from "fastify";

/**
 * Compression of the server's answers, so a phone opens the app fast (docs/adr/0025-delivery-and-caching.md):
 * the built web app is compressed once at build time
 * (apps/web/vite-delivery.ts writes `.br` and `.gz` beside each file) and served as is by @fastify/static
 * (`preCompressed`); the dynamic answers (REST API, /connect, /iot, /dev) are compressed per answer by
 * @fastify/compress, cheaply ({@link DYNAMIC_BROTLI_QUALITY}).
 */

/** Answers smaller than this many bytes are sent uncompressed: the headers and CPU would cost more than they save. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * Brotli quality (0–11) of dynamic answers: 4 compresses JSON about as well as gzip -6 at a fraction of the CPU of
 * the maximum (11, kept for the build, which compresses once).
 */
export const DYNAMIC_BROTLI_QUALITY = 4;

/** Encodings of dynamic answers, preferred first (Accept-Encoding q-values still decide). */
export const DYNAMIC_ENCODINGS = ["br", "gzip"] as const;

/**
 * Routes @fastify/compress leaves alone, by path prefix: the realtime hubs (their negotiation answer is tiny, and
 * their traffic is WebSocket frames, which never pass through Fastify's reply) and the uploads (PNG, JPEG and WebP
 * are compressed already; served by @fastify/static).
 */
export const UNCOMPRESSED_PREFIXES = ["/signalr-hubs/", "/uploads/"];

/**
 * The web app's catch-all route (@fastify/static at "/"): it serves the build's own `.br` / `.gz` files, so a
 * second, dynamic compression would only spend CPU on the few small files the build left uncompressed.
 */
export const WEB_APP_ROUTE = "/*";

/** Extensions the build compresses (HTML, JS, CSS, JSON, SVG, web manifest): the ones whose answers vary by encoding. */
export const PRECOMPRESSED_EXTENSIONS = [".html", ".js", ".mjs", ".css", ".json", ".svg", ".webmanifest"];

/**
 * Whether a file of the built web app (path relative to its root, `/` or `\`) is of a kind the build compresses,
 * so its answer depends on Accept-Encoding and carries `Vary: Accept-Encoding`. The `.br` / `.gz` copy itself
 * (what @fastify/static hands to `setHeaders` when it sends one) counts as its original.
 */
export function variesByEncoding(relativePath: string): boolean {
  const p = relativePath.toLowerCase().replace(/\.(br|gz)$/, "");
  return PRECOMPRESSED_EXTENSIONS.some((ext) => p.endsWith(ext));
}

/** Whether @fastify/compress should leave the route at `url` alone (see {@link UNCOMPRESSED_PREFIXES}). */
export function skipsCompression(url: string): boolean {
  const u = url.toLowerCase();
  return u === WEB_APP_ROUTE || UNCOMPRESSED_PREFIXES.some((p) => u.startsWith(p));
}

/** The options of @fastify/compress for the dynamic answers. */
export const COMPRESS_OPTIONS: FastifyCompressOptions = {
  global: true,
  // Request bodies stay as they are: no client sends compressed bodies, and inflating them would move the edge's
  // body limit (http/edge.ts) from the bytes received to the bytes inflated.
  globalDecompression: false,
  threshold: COMPRESSION_THRESHOLD_BYTES,
  encodings: [...DYNAMIC_ENCODINGS],
  brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: DYNAMIC_BROTLI_QUALITY } },
  zlibOptions: { level: zlib.constants.Z_DEFAULT_COMPRESSION },
};

/**
 * Compresses the dynamic answers of `app` with @fastify/compress ({@link COMPRESS_OPTIONS}: brotli or gzip by the
 * request's Accept-Encoding, answers from {@link COMPRESSION_THRESHOLD_BYTES} up, `Vary: Accept-Encoding`, text and
 * JSON types only; event streams, answers already encoded and partial content are left alone), except the routes of
 * {@link skipsCompression}. Its onSend step is attached to each route, so it runs after every app-wide onSend hook
 * (security headers, x-request-id, the idempotency store, which keeps the uncompressed text).
 *
 * Call on the root app before any route is declared. The plugin works through an onRoute hook, which only sees the
 * routes declared after it exists; `buildApp` declares some routes synchronously (/openapi.json, /asyncapi.json), so
 * the plugin is applied at once (its body is synchronous) rather than queued with `register`, which would load it
 * after those routes. The module plugins, loaded later, inherit the hook.
 * @throws the plugin's own error when the options are refused.
 */
export function registerCompression(app: FastifyInstance): void {
  app.addHook("onRoute", (route: RouteOptions) => {
    if (route.compress === undefined && skipsCompression(route.url)) route.compress = false;
  });
  (fastifyCompress as FastifyPluginCallback<FastifyCompressOptions>)(app, COMPRESS_OPTIONS, (err) => {
    if (err) throw err;
  });
}
