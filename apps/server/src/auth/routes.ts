import {
  endpoints,
  REVOCATION_PATH,
  TOKEN_PATH,
  type TTokenError,
  ZRevocationRequest,
  ZTokenRequest,
} from "@aquapilot/contract";
import type { FastifyInstance, FastifyReply } from "fastify";
import { translate } from "../http/messages.js";
import { registerOpenEndpoint } from "../http/route.js";
import type { AppContext } from "../modules/context.js";
import { grantedPoliciesFor } from "./policies.js";

function tokenError(reply: FastifyReply, error: TTokenError) {
  return reply.code(400).header("cache-control", "no-store").send(error);
}

/**
 * `POST /connect/token` (OAuth 2.0, RFC 6749 §4.3 password and §6 refresh_token grants; form body),
 * `POST /connect/revocation` (RFC 7009: form `token`, optional `token_type_hint`; always 200 for a well-formed
 * request, 400 invalid_request without `token`) and
 * `GET /api/abp/application-configuration` (spec §7 current-login-info: currentUser and grantedPolicies).
 * Token answers are not enveloped: `{access_token, token_type, expires_in, refresh_token}` or
 * 400 `{error, error_description}` with the description in the caller's language.
 */
export function authRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post(TOKEN_PATH, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const parsed = ZTokenRequest.safeParse(body);
    if (!parsed.success) {
      const known = body.grant_type === "password" || body.grant_type === "refresh_token";
      return tokenError(reply, {
        error: known ? "invalid_request" : "unsupported_grant_type",
        error_description: translate(request.lang, known ? "token.invalidRequest" : "token.unsupportedGrant"),
      });
    }
    const grant = parsed.data;
    const tokens =
      grant.grant_type === "password"
        ? await ctx.auth.passwordGrant(grant.username, grant.password)
        : await ctx.auth.refreshGrant(grant.refresh_token);
    if (!tokens) {
      return tokenError(reply, {
        error: "invalid_grant",
        error_description: translate(
          request.lang,
          grant.grant_type === "password" ? "token.invalidCredentials" : "token.invalidRefresh",
        ),
      });
    }
    return reply.header("cache-control", "no-store").header("pragma", "no-cache").send(tokens);
  });

  // RFC 7009: 200 whether or not the token was known (nothing to learn by probing). A refresh or access token ends
  // its whole session (issue 11): the session's access tokens are refused and its hub connections closed at once.
  app.post(REVOCATION_PATH, async (request, reply) => {
    const parsed = ZRevocationRequest.safeParse(request.body ?? {});
    if (!parsed.success) {
      return tokenError(reply, {
        error: "invalid_request",
        error_description: translate(request.lang, "token.invalidRequest"),
      });
    }
    // The hint is only a hint (RFC 7009 §2.1): the token is tried as an access token and as a refresh token.
    await ctx.auth.revokeToken(parsed.data.token);
    return reply.code(200).header("cache-control", "no-store").send();
  });

  registerOpenEndpoint(app, endpoints.applicationConfiguration, async ({ user, lang }) => ({
    currentUser: {
      isAuthenticated: user !== null,
      id: user?.id ?? null,
      userName: user?.userName ?? null,
      name: user?.name ?? null,
      email: user?.email ?? null,
      phoneNumber: user?.phoneNumber ?? null,
    },
    auth: { grantedPolicies: grantedPoliciesFor(user && { isMaster: user.isMaster }) },
    localization: { currentCulture: { name: lang } },
  }));
}
