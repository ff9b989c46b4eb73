import type { Socket } from "node:net";
import { DEFAULT_LANGUAGE, ErrorCode } from "@aquapilot/contract";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { EDGE_LIMITS, EdgeRefusal } from "./edge-limits.ts";
import { fail } from "./envelope.ts";
import { sendError } from "./error-handler.ts";
import { AppError } from "./errors.ts";
import { resolveLanguage, translate } from "./messages.ts";

export { EDGE_LIMITS, EdgeRefusal } from "./edge-limits.ts";

/** Control characters a header value may not hold (RFC 9110 §5.5: field values are VCHAR, SP, HTAB and obs-text). */
// Built from code points so that the source holds no control character; HTAB (U+0009) is allowed.
const HEADER_FORBIDDEN = new RegExp(
  `[${String.fromCharCode(0)}-${String.fromCharCode(8)}${String.fromCharCode(10)}-${String.fromCharCode(31)}${String.fromCharCode(127)}]`,
);

function languageOf(request: FastifyRequest) {
  const raw = request.headers["accept-language"];
  return resolveLanguage(typeof raw === "string" && !HEADER_FORBIDDEN.test(raw) ? raw : undefined);
}

/**
 * The first header whose name or value holds a control character, or null. One scan of every name and value joined
 * by a space (which is allowed) clears nearly every request; only a hit looks for the header to name.
 */
function badHeader(request: FastifyRequest): string | null {
  if (!HEADER_FORBIDDEN.test(request.raw.rawHeaders.join(" "))) return null;
  for (const [name, value] of Object.entries(request.headers)) {
    if (HEADER_FORBIDDEN.test(name)) return name.replace(/[^\x20-\x7e]/g, "?");
    const values = Array.isArray(value) ? value : [value];
    if (values.some((v) => typeof v === "string" && HEADER_FORBIDDEN.test(v))) return name;
  }
  return null;
}

/**
 * Fastify's `frameworkErrors`: errors raised while routing, before any hook runs — a request target that is not valid
 * percent-encoding (FST_ERR_BAD_URL, 400 input.badUrl) and a path parameter longer than
 * {@link EDGE_LIMITS}.paramLength (FST_ERR_MAX_PARAM_LENGTH, 414 input.uriTooLong) — answered in the ABP envelope in
 * the caller's language instead of Fastify's own JSON, as every other refusal is.
 */
function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const lang = languageOf(request);
  if (error.code === "FST_ERR_MAX_PARAM_LENGTH") {
    void sendError(reply, 414, ErrorCode.Validation, lang, "input.uriTooLong", { max: EDGE_LIMITS.paramLength });
    return;
  }
  void sendError(reply, 400, ErrorCode.Validation, lang, "input.badUrl");
}

/**
 * Fastify's `clientErrorHandler`: a request Node's HTTP parser refused before Fastify saw it (headers over Node's
 * 16 KiB, a control character in a header, a malformed request line, a timeout). Answers in the ABP envelope in the
 * default language (the headers could not be read) and closes the connection, like Fastify's default handler.
 */
function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === "ECONNRESET" || socket.destroyed) return;
  const [status, reason, key] =
    err.code === "HPE_HEADER_OVERFLOW"
      ? [431, "Request Header Fields Too Large", "input.headersTooLarge"]
      : err.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, "Request Timeout", "error.badRequest"]
        : [400, "Bad Request", "error.badRequest"];
  const body = JSON.stringify(
    fail({
      code: ErrorCode.Validation,
      message: translate(DEFAULT_LANGUAGE, key),
      details: null,
      validationErrors: null,
    }),
  );
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

/**
 * Fastify server options of the edge, to spread into `Fastify({...})`: the JSON/form body limit
 * ({@link EDGE_LIMITS}.bodyBytes; over it Fastify raises 413, which the error handler answers as
 * input.payloadTooLarge), and envelope answers for routing and connection errors. The path-parameter limit goes into
 * `routerOptions.maxParamLength` ({@link EDGE_LIMITS}.paramLength).
 */
export function edgeServerOptions() {
  return { bodyLimit: EDGE_LIMITS.bodyBytes, frameworkErrors, clientErrorHandler };
}

/**
 * The first hook of every request, registered before authentication: a request target longer than
 * {@link EDGE_LIMITS}.urlLength → 414 input.uriTooLong; a header whose name or value holds a control character (which
 * Node's parser refuses on a real connection, so only an injected or proxied request can carry one) → 400
 * input.badHeader naming the header. Both thrown as {@link EdgeRefusal}, answered by the scope's error handler (the
 * ABP envelope in the caller's language). Register once on the root app, right after the error handler.
 */
export function registerEdgeRules(app: FastifyInstance): void {
  app.addHook("onRequest", async (request) => {
    // The refusals below are answered before the authentication hook sets the language.
    request.lang = languageOf(request);
    if (request.raw.url && request.raw.url.length > EDGE_LIMITS.urlLength) {
      throw new EdgeRefusal(414, "input.uriTooLong", { max: EDGE_LIMITS.urlLength });
    }
    const header = badHeader(request);
    if (header !== null) throw new EdgeRefusal(400, "input.badHeader", { header }, header);
  });
}

/**
 * The error to throw for a failure while reading a request body by hand (a multipart upload): an {@link AppError} or
 * an error with a 4xx `statusCode` (a multipart limit) passes unchanged; anything else — busboy's plain errors for a
 * malformed body ("Boundary not found", "Unexpected end of form", a broken part header) — becomes 400
 * input.invalidBody, so a malformed upload is the client's mistake, not a 500 (the API fuzz suite sends such bodies).
 */
export function asBodyError(err: unknown): unknown {
  if (err instanceof AppError) return err;
  const status = (err as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status === "number" && status >= 400 && status < 500) return err;
  return new AppError(ErrorCode.Validation, "input.invalidBody", {}, null, err);
}
