import { createHash } from "node:crypto";
import type { FastifyInstance, onRequestHookHandler } from "fastify";
import helmet from "helmet";
import type { AppConfig } from "../config.ts";

/**
 * Security headers and caching of every answer (docs/security.md): `helmet` (built once) with the
 * Content-Security-Policy of {@link contentSecurityPolicy}, HSTS only behind TLS, `Cache-Control: no-store` on every
 * answer that does not choose its own caching (the API, /connect, the hubs' negotiation, errors), and the caching
 * rules of the built web app ({@link webAppCacheControl}) and uploads ({@link IMMUTABLE}).
 */

/** Cache-Control of content that never changes under its URL: hashed build assets and uploads (random names). */
export const IMMUTABLE = "public, max-age=31536000, immutable";
/** Cache-Control of files whose URL stays while their content changes: revalidate every time (ETag / 304). */
export const REVALIDATE = "no-cache";
/** Cache-Control of every other answer (API, /connect, hubs, errors): never stored by a browser or a proxy. */
export const NO_STORE = "no-store";

/**
 * Path prefixes of the server's own answers (REST API, token endpoint, hubs' negotiation, device activation,
 * development routes): always {@link NO_STORE}, whatever a route set (they carry tokens, codes and personal data).
 */
export const NO_STORE_PREFIXES = ["/api/", "/connect/", "/signalr-hubs/", "/iot/", "/dev/"];

/**
 * The headers of every answer under {@link NO_STORE_PREFIXES} (JSON, never a page; OWASP's REST Security Cheat Sheet):
 * a CSP that lets the answer load and run nothing and be framed nowhere, even if a browser were led to render it,
 * nosniff, DENY, the referrer policy and Cross-Origin-Resource-Policy of the pages. The page-only headers (the page's
 * CSP with its map and hub sources, Cross-Origin-Opener-Policy, Origin-Agent-Cluster, X-DNS-Prefetch-Control,
 * X-Download-Options, X-Permitted-Cross-Domain-Policies, X-XSS-Protection) stay off these answers: they
 * were a kilobyte of every answer's ~2 KB and slowed the API's throughput.
 */
export const API_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
  "cross-origin-resource-policy": "same-origin",
  "referrer-policy": "strict-origin-when-cross-origin",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
};

/** Whether `url` (path and query, as the request names it) is one of the server's own answers ({@link NO_STORE_PREFIXES}). */
export function isApiPath(url: string): boolean {
  const lower = url.toLowerCase();
  return NO_STORE_PREFIXES.some((p) => lower.startsWith(p));
}

/** HSTS value sent on answers to requests that came over TLS (directly or per X-Forwarded-Proto): one year. */
export const HSTS = "max-age=31536000; includeSubDomains";

/**
 * The external hosts the web app's map needs for the configured provider (MAP_TYPE, spec §1: 1 AMap, 2 Baidu,
 * 3 Tencent, any other Tianditu), from apps/web/src/shared/map/providers.ts: `img` tile hosts, `connect` web services
 * called with fetch (CORS), `script` web services called by JSONP (Baidu and Tencent have no CORS). Only the
 * configured provider's hosts enter the policy: the app never uses another one.
 */
export function mapHosts(mapType: number): { img: string[]; connect: string[]; script: string[] } {
  switch (mapType) {
    case 1:
      return { img: ["https://*.is.autonavi.com"], connect: ["https://restapi.amap.com"], script: [] };
    case 2:
      return { img: ["https://*.bdimg.com"], connect: [], script: ["https://api.map.baidu.com"] };
    case 3:
      return { img: ["https://*.map.gtimg.com"], connect: [], script: ["https://apis.map.qq.com"] };
    default:
      return { img: ["https://*.tianditu.gov.cn"], connect: ["https://api.tianditu.gov.cn"], script: [] };
  }
}

/**
 * The hubs' WebSocket sources of the configured public origin (`wss://host` for https, `ws://host` for http), for
 * web views that do not count WebSockets of the page's own host as 'self' (older WebKit); none when PUBLIC_ORIGIN is
 * unset. Taken from configuration only: a request's Host or X-Forwarded-Host never reaches the policy.
 */
export function hubSources(publicOrigin: string | undefined): string[] {
  if (!publicOrigin) return [];
  const url = new URL(publicOrigin);
  return [`${url.protocol === "https:" ? "wss" : "ws"}://${url.host}`];
}

/**
 * The Permissions-Policy of the pages: the features the app uses allowed to its own origin only — the camera
 * (scanning a device's code), geolocation (the address map) and Bluetooth (network setup of a new softener) — and
 * the others it never uses refused to every origin, so an injected frame or script cannot ask for them.
 */
export const PERMISSIONS_POLICY = [
  "camera=(self)",
  "geolocation=(self)",
  "bluetooth=(self)",
  "microphone=()",
  "payment=()",
  "usb=()",
  "serial=()",
  "hid=()",
  "midi=()",
  "display-capture=()",
  "accelerometer=()",
  "gyroscope=()",
  "magnetometer=()",
].join(", ");

/**
 * The CSP sources (`'sha256-…'`, base64 of the SHA-256 of the script's exact text, UTF-8) of every inline classic
 * script in `html` — a `<script>` without `src`: the web app's boot script (apps/web/src/first-paint/boot.js, written
 * inline by its build) — in page order, without repeats. Scripts with a `src` are not inline and are left out.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const [, attributes, text] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    if (/\ssrc\s*=/i.test(attributes ?? "") || !text) continue;
    const source = `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
    if (!hashes.includes(source)) hashes.push(source);
  }
  return hashes;
}

/**
 * The Content-Security-Policy directives of the app, in helmet's form. Scripts only from the app's own
 * origin (no 'unsafe-inline', no 'unsafe-eval') and the inline scripts of the app's own page named by their hash
 * (`inlineScripts`, {@link inlineScriptHashes} of the built index.html: the boot script) plus the configured map
 * provider's JSONP host; styles from the app's own CSS files (React and antd-mobile set inline styles through the CSSOM, which
 * CSP does not govern, so no 'unsafe-inline' either); images from the app, uploads, data: URIs (map marker, Leaflet's
 * CSS icons), blob: (photo previews) and the provider's tile hosts; connections to the app, its hubs (the configured
 * public origin's ws/wss address, {@link hubSources}) and the provider's CORS web services; the service worker and manifest from the app; no plugins, no framing
 * (frame-ancestors 'none'), forms and <base> only to the app.
 */
export function contentSecurityPolicy(
  config: Pick<AppConfig, "MAP_TYPE" | "PUBLIC_ORIGIN">,
  inlineScripts: readonly string[] = [],
) {
  const map = mapHosts(config.MAP_TYPE);
  return {
    "default-src": ["'self'"],
    "script-src": ["'self'", ...inlineScripts, ...map.script],
    "script-src-attr": ["'none'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:", "blob:", ...map.img],
    "font-src": ["'self'"],
    "connect-src": ["'self'", ...hubSources(config.PUBLIC_ORIGIN), ...map.connect],
    "media-src": ["'self'", "blob:"],
    "worker-src": ["'self'"],
    "manifest-src": ["'self'"],
    "object-src": ["'none'"],
    "frame-src": ["'none'"],
    "frame-ancestors": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
  };
}

/**
 * Cache-Control of a file of the built web app (apps/web/dist), by its path relative to the app's root: files under
 * `assets/` carry a content hash in their name (Vite) → {@link IMMUTABLE}; everything else (index.html,
 * version.json, sw.js, the manifest, favicon, device pictures) keeps its URL across releases → {@link REVALIDATE}.
 */
export function webAppCacheControl(relativePath: string): string {
  const p = relativePath.replaceAll("\\", "/").replace(/^\/+/, "");
  return p.startsWith("assets/") ? IMMUTABLE : REVALIDATE;
}

/**
 * Registers the security headers on the root app (call before the routes). The server's own answers
 * ({@link isApiPath}) get {@link API_HEADERS}; pages and files get helmet (CSP of {@link contentSecurityPolicy},
 * X-Frame-Options DENY, nosniff, Referrer-Policy strict-origin-when-cross-origin so map vendors' key whitelists still
 * see the origin, Cross-Origin-Opener-Policy and Cross-Origin-Resource-Policy
 * same-origin, no X-Powered-By), HSTS ({@link HSTS}) only on requests that came over TLS (`request.protocol`, which
 * honours X-Forwarded-Proto through the app's trustProxy), and {@link NO_STORE} on every answer under
 * {@link NO_STORE_PREFIXES} and on every other answer that set no Cache-Control of its own (static files set theirs).
 *
 * Helmet's middleware is built once here and run on every request's raw response in the first onRequest hook
 * (@fastify/helmet built it anew for each request, parsing every option and CSP directive each time, a large share
 * of an API call's cost); the policy is the same for every request (nothing in it comes from the request), so helmet
 * sends it as one precomputed header. Pages also get {@link PERMISSIONS_POLICY}. A route may still replace a header
 * with `reply.header` (the API reference's CSP). `inlineScripts`: the hashes of the served page's inline scripts
 * ({@link inlineScriptHashes}), allowed by the CSP.
 */
export function registerSecurityHeaders(
  app: FastifyInstance,
  config: Pick<AppConfig, "MAP_TYPE" | "PUBLIC_ORIGIN">,
  inlineScripts: readonly string[] = [],
): void {
  const directives = contentSecurityPolicy(config, inlineScripts);
  const cspHeaders = helmet.contentSecurityPolicy({ useDefaults: false, directives });
  const otherHeaders = helmet({
    contentSecurityPolicy: false,
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: { policy: "same-origin" },
    crossOriginResourcePolicy: { policy: "same-origin" },
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    strictTransportSecurity: false,
    xFrameOptions: { action: "deny" },
  });
  const apiHeaders = Object.entries(API_HEADERS);
  // CSP first, then the others: helmet's own order. The API's answers get their short fixed set.
  const applyHeaders: onRequestHookHandler = (request, reply, done) => {
    if (isApiPath(request.url)) {
      for (const [name, value] of apiHeaders) reply.raw.setHeader(name, value);
      return done();
    }
    reply.raw.setHeader("permissions-policy", PERMISSIONS_POLICY);
    cspHeaders(request.raw, reply.raw, (cspError?: unknown) => {
      if (cspError) return done(cspError as Error);
      otherHeaders(request.raw, reply.raw, (err?: unknown) => done(err as Error | undefined));
    });
  };
  app.addHook("onRequest", applyHeaders);
  app.addHook("onSend", async (request, reply) => {
    if (request.protocol === "https") reply.header("strict-transport-security", HSTS);
    if (!reply.hasHeader("cache-control") || isApiPath(request.url)) {
      reply.header("cache-control", NO_STORE);
    }
  });
}
