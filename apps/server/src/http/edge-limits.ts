import type { MessageKey } from "./messages.ts";

/**
 * Size limits at the HTTP edge (the one input rule at the edge), answered in the ABP envelope in the caller's
 * language by http/edge.ts and http/error-handler.ts.
 */
export const EDGE_LIMITS = {
  /**
   * Largest JSON or form body, bytes (Fastify `bodyLimit`): 64 KiB. The largest legitimate body is an after-sales
   * request (500 characters and 6 photo paths, under 8 KiB); uploads are multipart and bounded by their own limits
   * (modules/files, 5 MB; avatars 2 MB), the hubs by theirs (realtime, 64 KiB).
   */
  bodyBytes: 64 * 1024,
  /** Longest request target (path and query), characters: 8 KiB; longer → 414. The longest legitimate one is < 3 KiB. */
  urlLength: 8 * 1024,
  /** Longest path parameter (Fastify `maxParamLength`), characters; longer → 414. Ids are at most 64. */
  paramLength: 100,
} as const;

/**
 * A request refused at the edge before routing reached a handler: a URL too long (414), a header with a
 * control character (400). Thrown by the edge hook so that each scope's error handler shapes the answer: the ABP
 * envelope in the caller's language (http/error-handler.ts), `{error: "invalid-request"}` on device activation.
 */
export class EdgeRefusal extends Error {
  readonly statusCode: number;
  readonly messageKey: MessageKey;
  readonly params: Record<string, string | number>;
  readonly member: string | null;
  constructor(
    statusCode: number,
    /** Message key of the server catalogue. */
    messageKey: MessageKey,
    params: Record<string, string | number> = {},
    /** The offending header or field, for `validationErrors`. */
    member: string | null = null,
  ) {
    super(messageKey);
    this.statusCode = statusCode;
    this.messageKey = messageKey;
    this.params = params;
    this.member = member;
    this.name = "EdgeRefusal";
  }
}
