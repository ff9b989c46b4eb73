import { ErrorCode, type Language, type TAbpError, type TValidationError } from "@aquapilot/contract";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ZodError } from "zod";
import { EDGE_LIMITS, EdgeRefusal } from "./edge-limits.ts";
import { fail } from "./envelope.ts";
import { AppError } from "./errors.ts";
import type { MessageParams } from "./message-format.ts";
import { type MessageKey, resolveLanguage, translate } from "./messages.ts";
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
 * handler (http/edge.ts: URL, header and framework errors).
 */
export function sendError(
  reply: FastifyReply,
  status: number,
  code: ErrorCode,
  lang: Language,
  key: MessageKey,
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

/** The error code and catalogue key of an answer (the envelope's `error.code` and the text of `error.message`). */
export interface ErrorAnswer {
  code: ErrorCode;
  key: MessageKey;
}

/**
 * The one status table of the 4xx errors that Fastify or a plugin raises (not an AppError: e.g. the bearer check of
 * a hook, a route-level rate limit, an unknown route): status → error code and catalogue key (spec §8). Any other
 * 4xx status is answered with {@link OTHER_CLIENT_ERROR}, under its own status. docs/errors.md is generated from it.
 */
export const FRAMEWORK_ERRORS: Readonly<Partial<Record<number, ErrorAnswer>>> = {
  401: { code: ErrorCode.Unauthorized, key: "error.unauthorized" },
  403: { code: ErrorCode.Forbidden, key: "error.forbidden" },
  404: { code: ErrorCode.NotFound, key: "error.notFound" },
  429: { code: ErrorCode.TooManyRequests, key: "error.tooManyRequests" },
};

/** Code and key of a framework 4xx whose status {@link FRAMEWORK_ERRORS} does not list (e.g. 400, 406, 413). */
export const OTHER_CLIENT_ERROR: ErrorAnswer = { code: ErrorCode.Validation, key: "error.badRequest" };

/** Code and key of a request that fails its contract schema (or a ZodError from a service): 400, spec §8. */
export const VALIDATION_ERROR: ErrorAnswer = { code: ErrorCode.Validation, key: "error.validation" };

/** Code and key of anything unexpected: 500, logged with the request id, which `details` carries. */
export const INTERNAL_ERROR: ErrorAnswer = { code: ErrorCode.Internal, key: "error.internal" };

/**
 * A transport-level refusal with a text of its own (body too large, wrong content type, unreadable JSON or form): it
 * applies to a framework error of `status` and, when `fastifyCodes` is given, one of those Fastify error codes. Its
 * error code is the status's (FRAMEWORK_ERRORS or OTHER_CLIENT_ERROR); `params` fill the key's placeholders.
 */
export interface TransportError {
  status: number;
  fastifyCodes?: readonly string[];
  key: MessageKey;
  params?: MessageParams;
}

/** The transport refusals with their own text, tried in order (the first that applies gives the text). */
export const TRANSPORT_ERRORS: readonly TransportError[] = [
  {
    status: 413,
    fastifyCodes: ["FST_ERR_CTP_BODY_TOO_LARGE"],
    key: "input.payloadTooLarge",
    params: { max: Math.round(EDGE_LIMITS.bodyBytes / 1024) },
  },
  { status: 415, key: "input.unsupportedMediaType" },
  {
    status: 400,
    fastifyCodes: [
      "FST_ERR_CTP_INVALID_JSON_BODY",
      "FST_ERR_CTP_EMPTY_JSON_BODY",
      "FST_ERR_CTP_INVALID_CONTENT_LENGTH",
    ],
    key: "input.invalidBody",
  },
];

/**
 * The answer to a 4xx `status` raised by Fastify or a plugin with Fastify error code `fastifyCode` (e.g.
 * "FST_ERR_CTP_INVALID_JSON_BODY"): the status's code from {@link FRAMEWORK_ERRORS} (else {@link OTHER_CLIENT_ERROR}),
 * and the key and params of the first applying {@link TRANSPORT_ERRORS} rule, else the status's own key.
 */
export function frameworkAnswer(
  status: number,
  fastifyCode: string | undefined,
): ErrorAnswer & { params: MessageParams } {
  const answer = FRAMEWORK_ERRORS[status] ?? OTHER_CLIENT_ERROR;
  const transport = TRANSPORT_ERRORS.find(
    (t) =>
      t.status === status && (!t.fastifyCodes || (fastifyCode !== undefined && t.fastifyCodes.includes(fastifyCode))),
  );
  return transport
    ? { code: answer.code, key: transport.key, params: transport.params ?? {} }
    : { ...answer, params: {} };
}

/**
 * Installs the one error handler (conventions §10) and the 404 handler. Every error becomes the ABP error envelope
 * (spec §7, §8) with a message in the caller's language:
 * AppError → its status and code (a 429 whose params hold `seconds` also gets `Retry-After`); request
 * validation (or a ZodError from a service) → 400 with validationErrors whose members are field names; 401 →
 * unAuthorizedRequest true; other 4xx from Fastify (bad JSON, body too large, unsupported content type…) → that
 * status with its own text; anything else → 500 with a generic message, logged with the request id.
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
      // A 429 that knows its wait (rate limits, the 60 s code resend) says it in Retry-After too, so a client knows
      // when to try again.
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
        code: VALIDATION_ERROR.code,
        message: translate(lang, VALIDATION_ERROR.key),
        details: validationErrors.map((v) => v.message).join("\n"),
        validationErrors,
      });
    }
    const status = (err as FastifyError).statusCode;
    if (typeof status === "number" && status >= 400 && status < 500) {
      const { code, key, params } = frameworkAnswer(status, (err as FastifyError).code);
      const message = translate(lang, key, params);
      return send(reply, status, { code, message, details: null, validationErrors: null });
    }
    request.log.error({ err, reqId: request.id }, "unhandled error");
    return send(reply, 500, {
      code: INTERNAL_ERROR.code,
      message: translate(lang, INTERNAL_ERROR.key),
      details: `requestId: ${request.id}`,
      validationErrors: null,
    });
  });

  const notFound = FRAMEWORK_ERRORS[404] ?? OTHER_CLIENT_ERROR;
  app.setNotFoundHandler((request, reply) =>
    send(reply, 404, {
      code: notFound.code,
      message: translate(languageOf(request), notFound.key),
      details: null,
      validationErrors: null,
    }),
  );
}
