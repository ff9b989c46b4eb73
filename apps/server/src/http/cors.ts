import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

/**
 * Cross-origin access for the native shells: their page is served from the web view's own origin
 * (`https://localhost` on Android, `capacitor://localhost` on iOS) and calls this server's API, token endpoint, hubs
 * and uploads across origins. Only the configured origins (`CORS_ORIGINS`) get CORS headers, never `*`, and never
 * `Access-Control-Allow-Credentials`: the app authenticates by bearer token and sends no cookies. The browser's app on
 * the server's own origin is not affected (a same-origin request needs no CORS header).
 */

/** Path prefixes a shell calls across origins: the REST API, /connect (token, revocation), the hubs, uploads. */
export const CORS_PREFIXES = ["/api/", "/connect/", "/signalr-hubs/", "/uploads/"] as const;

/** Methods a preflight allows (every method of the API). */
export const CORS_METHODS = "GET, HEAD, POST, PUT, PATCH, DELETE";

/**
 * Request headers a preflight allows: what the web app (shared/api/transport.ts `commonHeaders`, idempotency, the
 * bearer token) and the SignalR client send.
 */
export const CORS_REQUEST_HEADERS =
  "Authorization, Content-Type, Accept, Accept-Language, X-Time-Zone, project-id, __tenant, Idempotency-Key, " +
  "X-Requested-With, X-SignalR-User-Agent";

/** Answer headers the app reads besides the CORS-safelisted ones (file names, CSV row count, waits, request ids). */
export const CORS_EXPOSED_HEADERS =
  "Content-Disposition, X-Total-Rows, Retry-After, X-Request-Id, Idempotency-Replayed";

/** How long a browser may keep a preflight's answer, s (Chromium caps it at 7200). */
export const CORS_MAX_AGE_S = 600;

/** Pictures a shell's page shows with `<img>` from this server: uploads and the web build's images (device models). */
const PICTURE = /^\/uploads\/|^\/(?!api\/)[^?#]*\.(?:png|jpe?g|gif|webp|svg|ico)(?:[?#]|$)/i;

/** Whether `url` (a request target, query included) is under one of the {@link CORS_PREFIXES}. */
export function isCorsPath(url: string): boolean {
  const lower = url.toLowerCase();
  return CORS_PREFIXES.some((prefix) => lower.startsWith(prefix));
}

/**
 * Registers CORS on the root app (call right after the security headers, before the other request hooks, so a
 * preflight is answered before authentication, rate limits and routing). For a request under {@link CORS_PREFIXES}:
 * - every answer varies by `Origin` (caches keep one copy per origin);
 * - an `Origin` in `origins` (exact match, scheme, host and port) gets `Access-Control-Allow-Origin: <that origin>`
 *   and {@link CORS_EXPOSED_HEADERS};
 * - a preflight (`OPTIONS` with `Access-Control-Request-Method`) from such an origin is answered 204 with
 *   {@link CORS_METHODS}, {@link CORS_REQUEST_HEADERS} and {@link CORS_MAX_AGE_S};
 * - any other origin gets no CORS header, and its preflight goes on to the router (404), so the browser refuses it.
 * Pictures (uploads, the build's images) are sent with `Cross-Origin-Resource-Policy: cross-origin` instead of
 * helmet's `same-origin`: an `<img>` carries no Origin, and the shells' web views would refuse them otherwise (they
 * are public files under random or fixed names, shown to anyone who has the URL).
 * `origins`: the parsed `CORS_ORIGINS` (config.ts); empty turns CORS off.
 */
export function registerCors(app: FastifyInstance, origins: readonly string[]): void {
  if (origins.length === 0) return;
  const allowed = new Set(origins);
  app.addHook("onRequest", async (request: FastifyRequest, reply: FastifyReply) => {
    if (!isCorsPath(request.url)) return;
    reply.header("vary", "Origin");
    const origin = request.headers.origin;
    if (typeof origin !== "string" || !allowed.has(origin)) return;
    reply.header("access-control-allow-origin", origin);
    if (request.method === "OPTIONS" && request.headers["access-control-request-method"] !== undefined) {
      reply.header("access-control-allow-methods", CORS_METHODS);
      reply.header("access-control-allow-headers", CORS_REQUEST_HEADERS);
      reply.header("access-control-max-age", String(CORS_MAX_AGE_S));
      return reply.code(204).send();
    }
    reply.header("access-control-expose-headers", CORS_EXPOSED_HEADERS);
  });
  app.addHook("onSend", async (request, reply) => {
    if (PICTURE.test(request.url)) reply.header("cross-origin-resource-policy", "cross-origin");
  });
}
