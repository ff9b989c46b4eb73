import {
  endpoints,
  REVOCATION_PATH,
  TOKEN_ENDED_REASONS,
  TOKEN_PATH,
  type TTokenEndedReason,
  type TTokenError,
  type TTokenResponse,
  ZRevocationRequest,
  ZTokenRequest,
} from "@aquapilot/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { CORE_PLUGIN, type CoreServices, coreServices } from "../core-services.ts";
import { translate } from "../http/messages.ts";
import { registerOpenEndpoint } from "../http/route.ts";
import type { SignInGuard, SignInRefusal } from "../security/limits.ts";
import { grantedPoliciesFor } from "./policies.ts";

/** The description of a refused refresh token, per the reason its session ended. */
const REFUSAL_TEXT = {
  logout: "token.sessionEnded",
  "password-changed": "token.passwordChanged",
  "password-reset": "token.passwordChanged",
  "account-deleted": "token.accountDeleted",
} as const satisfies Record<TTokenEndedReason, string>;

function tokenError(reply: FastifyReply, error: TTokenError, status = 400) {
  return reply.code(status).header("cache-control", "no-store").send(error);
}

/**
 * The 429 of a password grant throttled against guessing in the endpoint's OAuth shape: `invalid_grant` (RFC 6749 has
 * no rate-limit error for the token endpoint, and the contract's ZTokenError has none) with a description in the
 * caller's language telling how long to wait, and `Retry-After` in seconds.
 */
function throttled(request: FastifyRequest, reply: FastifyReply, refusal: SignInRefusal) {
  const seconds = refusal.retryAfterSeconds;
  const key = seconds < 120 ? "limits.signInSeconds" : "limits.signInMinutes";
  reply.header("retry-after", String(seconds));
  return tokenError(
    reply,
    {
      error: "invalid_grant",
      error_description: translate(request.lang, key, { seconds, minutes: Math.ceil(seconds / 60) }),
    },
    429,
  );
}

/**
 * `POST /connect/token` (OAuth 2.0, RFC 6749 §4.3 password and §6 refresh_token grants; form body),
 * `POST /connect/revocation` (RFC 7009: form `token`, optional `token_type_hint`; always 200 for a well-formed
 * request, 400 invalid_request without `token`) and
 * `GET /api/abp/application-configuration` (spec §7 current-login-info: currentUser and grantedPolicies).
 * Token answers are not enveloped: `{access_token, token_type, expires_in, refresh_token}` or
 * 400 `{error, error_description}` with the description in the caller's language.
 * Password grants are throttled per client address and per account before the password is checked
 * (security/limits.ts {@link SignInGuard}): 429 `invalid_grant` with Retry-After. Refresh grants are not (a refresh
 * token is 256 random bits, checked by one indexed lookup; and the app signs out on any 4xx of a refresh).
 */
function authRoutes(app: FastifyInstance, ctx: CoreServices): void {
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
    let tokens: TTokenResponse | null;
    if (grant.grant_type === "password") {
      const found = await ctx.auth.findAccount(grant.username);
      const guard = ctx.guards.signIn;
      const admitted = await guard.admit(request, found ? { userId: found.id } : { unknownLogin: grant.username });
      if ("reason" in admitted) return throttled(request, reply, admitted);
      tokens = await ctx.auth.passwordGrant(grant.username, grant.password, found);
      if (tokens) await guard.succeeded(request, admitted);
      else await guard.failed(request, admitted);
    } else {
      tokens = await ctx.auth.refreshGrant(grant.refresh_token);
    }
    if (!tokens && grant.grant_type === "refresh_token") {
      // Say why when the session ended (the app tells the owner: "Your password was changed on another device").
      const reason = await ctx.auth.endedReasonOf(grant.refresh_token);
      const ended = TOKEN_ENDED_REASONS.find((r) => r === reason);
      return tokenError(reply, {
        error: "invalid_grant",
        error_description: translate(request.lang, ended ? REFUSAL_TEXT[ended] : "token.invalidRefresh"),
        ...(ended ? { ended_reason: ended } : {}),
      });
    }
    if (!tokens) {
      return tokenError(reply, {
        error: "invalid_grant",
        error_description: translate(request.lang, "token.invalidCredentials"),
      });
    }
    return reply.header("cache-control", "no-store").header("pragma", "no-cache").send(tokens);
  });

  // RFC 7009: 200 whether or not the token was known (nothing to learn by probing). A refresh or access token ends
  // its whole session: the session's access tokens are refused and its hub connections closed at once.
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

/**
 * The token endpoints as the plugin "module-auth": {@link authRoutes} on the core's decorations ({@link coreServices}).
 * Encapsulated: its hooks apply to its own routes only; it decorates nothing (`app.auth` is the authentication
 * layer's, http/authenticate.ts).
 */
export const authModule = fp(async (app) => authRoutes(app, coreServices(app)), {
  name: "module-auth",
  fastify: "5.x",
  dependencies: [CORE_PLUGIN],
  encapsulate: true,
});
