import { z } from "zod";
import { TOKEN_ENDED_REASONS } from "./constants.ts";
import { accountEndpoints } from "./endpoints/account.ts";
import { afterSaleEndpoints } from "./endpoints/after-sale.ts";
import { articleEndpoints } from "./endpoints/article.ts";
import { type Endpoint, ZText } from "./endpoints/define.ts";
import { deviceEndpoints } from "./endpoints/device.ts";
import { deviceControlEndpoints } from "./endpoints/device-control.ts";
import { familyEndpoints } from "./endpoints/family.ts";
import { faultEndpoints } from "./endpoints/fault.ts";
import { fileEndpoints } from "./endpoints/file.ts";
import { locationEndpoints } from "./endpoints/location.ts";
import { messageEndpoints } from "./endpoints/message.ts";
import { preferenceEndpoints } from "./endpoints/preferences.ts";
import { setupTicketEndpoints } from "./endpoints/setup-ticket.ts";
import type { SchemasOf, WireEndpoint } from "./wire-endpoint.ts";

export * from "./endpoints/access.ts";
export * from "./endpoints/account.ts";
export * from "./endpoints/after-sale.ts";
export * from "./endpoints/article.ts";
export * from "./endpoints/define.ts";
export * from "./endpoints/device.ts";
export * from "./endpoints/device-control.ts";
export * from "./endpoints/family.ts";
export * from "./endpoints/fault.ts";
export * from "./endpoints/file.ts";
export * from "./endpoints/location.ts";
export * from "./endpoints/message.ts";
export * from "./endpoints/preferences.ts";
export * from "./endpoints/setup-ticket.ts";

/**
 * Every endpoint of spec §7 served so far, by name. Each area keeps its entries in `endpoints/<area>.ts`.
 */
export const endpoints = {
  ...accountEndpoints,
  ...familyEndpoints,
  ...locationEndpoints,
  ...deviceEndpoints,
  ...deviceControlEndpoints,
  ...messageEndpoints,
  ...afterSaleEndpoints,
  ...articleEndpoints,
  ...fileEndpoints,
  ...preferenceEndpoints,
  ...faultEndpoints,
  ...setupTicketEndpoints,
} as const;

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;
/** Every endpoint of `endpoints` as a {@link WireEndpoint}, by the same names: the type of the web app's run-time table. */
export type WireEndpoints = { readonly [K in keyof Endpoints]: WireEndpoint<Endpoints[K]> };
/** Query values of an endpoint (or of its {@link WireEndpoint}), as the caller writes them. */
export type QueryOf<E extends Endpoint | WireEndpoint> = z.input<SchemasOf<E>["query"]>;
/** The JSON body of an endpoint (or of its {@link WireEndpoint}); `undefined` when it takes none. */
export type BodyOf<E extends Endpoint | WireEndpoint> = SchemasOf<E>["body"] extends z.ZodType
  ? z.input<SchemasOf<E>["body"]>
  : undefined;
/** What an endpoint (or its {@link WireEndpoint}) answers in the envelope's `result`. */
export type ResultOf<E extends Endpoint | WireEndpoint> = z.output<SchemasOf<E>["result"]>;

// ---------- OAuth 2.0 token endpoint (not enveloped) ----------

/**
 * Form body of `POST /connect/token` (RFC 6749 §4.3 password grant, §6 refresh): every field bounded single-line text
 * (the one input rule); a field that breaks it answers 400 `invalid_request`.
 */
export const ZTokenRequest = z.discriminatedUnion("grant_type", [
  z.object({
    grant_type: z.literal("password"),
    username: ZText(256, { min: 1 }),
    password: ZText(128, { min: 1 }),
    client_id: ZText(64).optional(),
    scope: ZText(512).optional(),
  }),
  z.object({
    grant_type: z.literal("refresh_token"),
    refresh_token: ZText(4096, { min: 1 }),
    client_id: ZText(64).optional(),
  }),
]);
export type TTokenRequest = z.infer<typeof ZTokenRequest>;

export const ZTokenResponse = z.object({
  access_token: z.string(),
  token_type: z.literal("Bearer"),
  /** Seconds until the access token expires. */
  expires_in: z.number().int(),
  refresh_token: z.string(),
});
export type TTokenResponse = z.infer<typeof ZTokenResponse>;

export const ZTokenError = z.object({
  error: z.enum(["invalid_grant", "invalid_request", "unsupported_grant_type", "invalid_client"]),
  error_description: z.string(),
  /** Set on a refused refresh token whose session ended: why ({@link TOKEN_ENDED_REASONS}). */
  ended_reason: z.enum(TOKEN_ENDED_REASONS).optional(),
});
export type TTokenError = z.infer<typeof ZTokenError>;
