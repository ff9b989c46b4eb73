import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { OPENAPI_PATH } from "./openapi.ts";

// The interactive API reference of development: Scalar's page (@scalar/fastify-api-reference) over
// /openapi.json. The page and its script come from the package (no CDN, nothing fetched from elsewhere); never
// mounted with APP_ENV=production (app.ts).

/** Where the reference page is served (`/reference/`; `/reference` answers the same, trailing slashes are ignored). */
export const API_REFERENCE_PATH = "/reference";

/**
 * The Content-Security-Policy of the reference's page and script, instead of the app's (security-headers.ts): the
 * page's one inline script runs by its nonce, Scalar's stylesheet is injected at run time ('unsafe-inline' styles),
 * fonts and images may be data: URIs; every connection stays on this origin (so the page can neither phone home nor
 * load fonts from a CDN), no framing.
 */
export function apiReferencePolicy(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * Mounts the interactive API reference at {@link API_REFERENCE_PATH} for development (the caller skips it in
 * production): Scalar's page reading {@link OPENAPI_PATH}, its script at `/reference/js/scalar.js` from the package,
 * with telemetry, the default web fonts, the hosted AI agent and the developer toolbar off, under {@link apiReferencePolicy} with a nonce
 * drawn once per app. The package (5 MB of script) is loaded only here, so production never reads it.
 */
export async function registerApiReference(app: FastifyInstance): Promise<void> {
  const { default: scalar } = await import("@scalar/fastify-api-reference");
  const nonce = randomBytes(16).toString("base64");
  const policy = apiReferencePolicy(nonce);
  await app.register(scalar, {
    routePrefix: API_REFERENCE_PATH,
    logLevel: "warn",
    configuration: {
      url: OPENAPI_PATH,
      pageTitle: "AquaPilot API reference",
      nonce,
      telemetry: false,
      withDefaultFonts: false,
      showDeveloperTools: "never",
      // Scalar's hosted AI agent: off (it would call scalar.com, which the policy refuses anyway).
      agent: { disabled: true },
    },
    hooks: {
      // After helmet's onRequest hook (the app's CSP would block the page's inline script).
      onRequest: (_request, reply, done) => {
        reply.header("content-security-policy", policy);
        done();
      },
    },
  });
}
