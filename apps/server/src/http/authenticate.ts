import type { Language } from "@aquapilot/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AuthService, AuthUser } from "../auth/auth-service.ts";
import { AppError, ErrorCode } from "./errors.ts";
import { resolveLanguage } from "./messages.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** The caller, from a valid bearer access token; null when anonymous or the token is not valid. */
    user: AuthUser | null;
    /** The caller's language from Accept-Language (spec §1, §7). */
    lang: Language;
  }
  interface FastifyInstance {
    /** Token issuing and checking; the realtime hubs call `app.auth.verifyAccessToken(token)`. */
    auth: AuthService;
  }
}

/**
 * Decorates `app.auth`, `request.user` and `request.lang`, and adds the hook that reads `Authorization: Bearer …`
 * (spec §7 "Token sent as bearer header") and `Accept-Language` on every request. A missing or invalid token leaves
 * `request.user` null; routes that need a user answer 401 through {@link requireUser}. The token check is cached per
 * process (AuthService), so a request need not read its session again; the service stops following the bus when the
 * app closes.
 */
export function registerAuthentication(app: FastifyInstance, auth: AuthService): void {
  app.decorate("auth", auth);
  app.addHook("onClose", async () => auth.close());
  app.decorateRequest("user", null);
  app.decorateRequest("lang", "zh-Hans");
  app.addHook("onRequest", async (request) => {
    request.lang = resolveLanguage(request.headers["accept-language"]);
    const header = request.headers.authorization;
    if (header && /^bearer /i.test(header)) {
      request.user = await auth.authenticate(header.slice(7).trim());
    }
  });
}

/** The signed-in caller. @throws AppError Unauthorized (401, unAuthorizedRequest true) when anonymous. */
export function requireUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw new AppError(ErrorCode.Unauthorized, "error.unauthorized");
  return request.user;
}
