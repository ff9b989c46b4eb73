import { ErrorCode } from "@aquapilot/contract";
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { EDGE_LIMITS } from "./edge-limits.ts";
import { FRAMEWORK_ERRORS, frameworkAnswer, OTHER_CLIENT_ERROR, registerErrorHandler } from "./error-handler.ts";

describe("the error handler's status table", () => {
  it("gives each listed framework status its code and key, anything else Validation / error.badRequest", () => {
    expect(frameworkAnswer(401, undefined)).toEqual({ code: "Unauthorized", key: "error.unauthorized", params: {} });
    expect(frameworkAnswer(403, "FST_X")).toEqual({ code: "Forbidden", key: "error.forbidden", params: {} });
    expect(frameworkAnswer(404, undefined)).toEqual({ code: "NotFound", key: "error.notFound", params: {} });
    expect(frameworkAnswer(429, undefined)).toEqual({
      code: "TooManyRequests",
      key: "error.tooManyRequests",
      params: {},
    });
    expect(frameworkAnswer(406, "FST_INVALID_MULTIPART_CONTENT_TYPE")).toEqual({ ...OTHER_CLIENT_ERROR, params: {} });
    expect(OTHER_CLIENT_ERROR).toEqual({ code: ErrorCode.Validation, key: "error.badRequest" });
    expect(Object.keys(FRAMEWORK_ERRORS).sort()).toEqual(["401", "403", "404", "429"]);
  });

  it("gives transport refusals their own text under the status's code", () => {
    expect(frameworkAnswer(413, "FST_ERR_CTP_BODY_TOO_LARGE")).toEqual({
      code: "Validation",
      key: "input.payloadTooLarge",
      params: { max: Math.round(EDGE_LIMITS.bodyBytes / 1024) },
    });
    // Another 413 keeps the generic text; any 415 (Fastify's or @fastify/compress's) is the media type text.
    expect(frameworkAnswer(413, "FST_OTHER").key).toBe("error.badRequest");
    expect(frameworkAnswer(415, "FST_CP_ERR_INVALID_CONTENT_ENCODING").key).toBe("input.unsupportedMediaType");
    for (const code of [
      "FST_ERR_CTP_INVALID_JSON_BODY",
      "FST_ERR_CTP_EMPTY_JSON_BODY",
      "FST_ERR_CTP_INVALID_CONTENT_LENGTH",
    ])
      expect(frameworkAnswer(400, code).key, code).toBe("input.invalidBody");
    expect(frameworkAnswer(400, undefined).key).toBe("error.badRequest");
  });

  it("answers a framework 4xx with the table's code and text in the caller's language", async () => {
    const app = Fastify();
    registerErrorHandler(app);
    app.get("/limited", async () => {
      throw Object.assign(new Error("rate limited"), { statusCode: 429 });
    });
    await app.ready();
    const limited = await app.inject({ method: "GET", url: "/limited", headers: { "accept-language": "en" } });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toMatchObject({
      code: "TooManyRequests",
      message: "Too many requests. Please try again later.",
    });
    const missing = await app.inject({ method: "GET", url: "/nowhere", headers: { "accept-language": "en" } });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toMatchObject({ code: "NotFound", message: "Not found." });
    await app.close();
  });
});
