import { ErrorCode, type Language, type TAbpError, type TValidationError } from "@aquapilot/contract";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ZodError } from "zod";
import { EDGE_LIMITS, EdgeRefusal } from "./edge-limits.ts";
import { fail } from "./envelope.ts";
import { AppError } from "./errors.ts";
import type { MessageParams } from "./message-format.ts";
import { resolveLanguage, translate } from "./messages.ts";
import { RequestValidationError, toValidationErrors } from "./validation.ts";

function languageOf(request: FastifyRequest) {
  return request.lang ?? resolveLanguage(request.headers["accept-language"]);
}

function send(reply: FastifyReply, status: number, error: TAbpError) {
  if (status === 401) reply.header("www-authenticate", "Bearer");
  return reply
    .code(status)
    .type("application/json; charset=utf-8")
    .send(fail(error, status === 401));
}

/**
 * Answers `status` with the ABP error envelope (spec §8): `code`, the message `key` of the server catalogue in `lang`
 * with `params`, and `validationErrors` when given (their messages already translated). For callers outside the error
 * handler (http/edge.ts: URL, header and framework errors, issue 11).
 */
export function sendError(
  reply: FastifyReply,
  status: number,
  code: ErrorCode,
  lang: Language,
  key: string,
  params: MessageParams = {},
  validationErrors: TValidationError[] | null = null,
) {
  return send(reply, status, {
    code,
    message: translate(lang, key, params),
    details: validationErrors?.map((v) => v.message).join("\n") ?? null,
    validationErrors,
  });
}

/**
 * The catalogue key and parameters of a transport-level 4xx raised by Fastify or a plugin (issue 11: body too large,
 * wrong content type, unreadable JSON or form, a malformed multipart body), or null for the generic text.
 */
function transportMessage(err: FastifyError, status: number): { key: string; params?: MessageParams } | null {
  if (status === 413 && err.code === "FST_ERR_CTP_BODY_TOO_LARGE")
    return { key: "input.payloadTooLarge", params: { max: Math.round(EDGE_LIMITS.bodyBytes / 1024) } };
  if (status === 415) return { key: "input.unsupportedMediaType" };
  if (err.code === "FST_ERR_CTP_INVALID_JSON_BODY" || err.code === "FST_ERR_CTP_EMPTY_JSON_BODY")
    return { key: "input.invalidBody" };
  if (err.code === "FST_ERR_CTP_INVALID_CONTENT_LENGTH") return { key: "input.invalidBody" };
  return null;
}

/**
 * Installs the one error handler (conventions §10) and the 404 handler. Every error becomes the ABP error envelope
 * (spec §7, §8) with a message in the caller's language:
 * AppError → its status and code (a 429 whose params hold `seconds` also gets `Retry-After`, issue 11); request
 * validation (or a ZodError from a service) → 400 with validationErrors whose members are field names; 401 →
 * unAuthorizedRequest true; other 4xx from Fastify (bad JSON, body too large, unsupported content type…) → that
 * status with its own text (issue 11); anything else → 500 with a generic message, logged with the request id.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | Error, request, reply) => {
    const lang = languageOf(request);
    if (err instanceof EdgeRefusal) {
      const message = translate(lang, err.messageKey, err.params);
      const members = err.member ? [{ message, members: [err.member] }] : null;
      return sendError(reply, err.statusCode, ErrorCode.Validation, lang, err.messageKey, err.params, members);
    }
    if (err instanceof AppError) {
      if (err.status >= 500) request.log.error({ err, reqId: request.id }, `request failed: ${err.messageKey}`);
      // A 429 that knows its wait (rate limits, the 60 s code resend) says it in Retry-After too (issue 11).
      if (err.status === 429 && typeof err.params.seconds === "number") {
        reply.header("retry-after", String(Math.max(1, Math.ceil(err.params.seconds))));
      }
      return send(reply, err.status, {
        code: err.code,
        message: translate(lang, err.messageKey, err.params),
        details: null,
        // Services may give message keys (e.g. device.wrongConfiguration); plain text passes through unchanged.
        validationErrors: err.validationErrors?.map((v) => ({ ...v, message: translate(lang, v.message) })) ?? null,
      });
    }
    if (err instanceof RequestValidationError || err instanceof ZodError) {
      const validationErrors =
        err instanceof RequestValidationError
          ? toValidationErrors(err.issues, err.input, lang)
          : toValidationErrors(err.issues, undefined, lang);
      return send(reply, 400, {
        code: ErrorCode.Validation,
        message: translate(lang, "error.validation"),
        details: validationErrors.map((v) => v.message).join("\n"),
        validationErrors,
      });
    }
    const status = (err as FastifyError).statusCode;
    if (typeof status === "number" && status >= 400 && status < 500) {
      const code =
        status === 401
          ? ErrorCode.Unauthorized
          : status === 403
            ? ErrorCode.Forbidden
            : status === 404
              ? ErrorCode.NotFound
              : status === 429
                ? ErrorCode.TooManyRequests
                : ErrorCode.Validation;
      const key =
        status === 401
          ? "error.unauthorized"
          : status === 403
            ? "error.forbidden"
            : status === 404
              ? "error.notFound"
              : status === 429
                ? "error.tooManyRequests"
                : "error.badRequest";
      const transport = transportMessage(err as FastifyError, status);
      const message = transport ? translate(lang, transport.key, transport.params) : translate(lang, key);
      return send(reply, status, { code, message, details: null, validationErrors: null });
    }
    request.log.error({ err, reqId: request.id }, "unhandled error");
    return send(reply, 500, {
      code: ErrorCode.Internal,
      message: translate(lang, "error.internal"),
      details: `requestId: ${request.id}`,
      validationErrors: null,
    });
  });

  app.setNotFoundHandler((request, reply) =>
    send(reply, 404, {
      code: ErrorCode.NotFound,
      message: translate(languageOf(request), "error.notFound"),
      details: null,
      validationErrors: null,
    }),
  );
}
