import { afterEach, describe, expect, it, vi } from "vitest";

/**
 * How an answer becomes the call's result or the error the user reads (spec §8: no success flag and no error object →
 * empty message, code -1; no answer → code -2, "No network connection" offline, else the server error; HTTP 401 →
 * Login expired and the global unauthorised event; other HTTP errors → the server's message, else error_description,
 * else the status text; success false → the generic failed-request error). The mutation-testing module
 * "web-error-envelope" reruns this file against every mutant; the texts are replaced by their keys so a test can tell
 * which one was chosen, and nothing but the rule modules loads.
 */

vi.mock("../i18n/index.ts", () => ({
  i18n: { t: (key: string) => key, on: () => undefined },
  requestLanguage: () => "en",
}));
vi.mock("../../first-paint/early-answers.ts", () => ({ takeEarlyAnswer: () => null }));
vi.mock("../../first-paint/scheduling.ts", () => ({ yieldIfScheduler: async () => undefined }));

const { ApiError } = await import("./errors.ts");
const { readJson, unwrapResponse } = await import("./envelope.ts");
const { onUnauthorized } = await import("./events.ts");
const { networkError } = await import("./transport.ts");

/** The ApiError `run` throws, as plain fields. */
function failure(run: () => unknown) {
  try {
    run();
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return { message: err.message, code: err.code, status: err.status, validationErrors: err.validationErrors };
  }
  throw new Error("no ApiError thrown");
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("HTTP 401: Login expired and the global unauthorised event", () => {
  it("throws 'Login expired' with code and status 401 whatever the body says, after emitting the event", () => {
    let emitted = 0;
    const off = onUnauthorized(() => emitted++);
    const body = { success: true, result: 1, error: { code: "X", message: "server text" } };
    expect(failure(() => unwrapResponse(401, "Unauthorized", body))).toEqual({
      message: "errors.loginExpired",
      code: 401,
      status: 401,
      validationErrors: [],
    });
    expect(emitted).toBe(1);
    failure(() => unwrapResponse(403, "Forbidden", null));
    expect(emitted).toBe(1);
    off();
  });
});

describe("other HTTP errors: the server's message, else error_description, else the status text", () => {
  const error = (message: unknown, extra: object = {}) => ({ error: { code: "App:42", message }, ...extra });

  it("takes the server's message and code", () => {
    expect(failure(() => unwrapResponse(400, "Bad Request", error("Name taken")))).toEqual({
      message: "Name taken",
      code: "App:42",
      status: 400,
      validationErrors: [],
    });
  });

  it("falls back to error_description, then the status text, then the generic server error", () => {
    const described = { error_description: "invalid_grant text" };
    expect(failure(() => unwrapResponse(400, "Bad Request", error("", described))).message).toBe("invalid_grant text");
    expect(failure(() => unwrapResponse(400, "Bad Request", error(5, described))).message).toBe("invalid_grant text");
    expect(failure(() => unwrapResponse(400, "Bad Request", { error_description: 7 })).message).toBe("Bad Request");
    expect(failure(() => unwrapResponse(400, "Bad Request", { error_description: "" })).message).toBe("Bad Request");
    expect(failure(() => unwrapResponse(502, "", "<html>gateway</html>")).message).toBe("errors.serverError");
    expect(failure(() => unwrapResponse(500, "", null))).toEqual({
      message: "errors.serverError",
      code: 500,
      status: 500,
      validationErrors: [],
    });
  });

  it("uses the status as code when the server gives none, an empty one or a number", () => {
    expect(failure(() => unwrapResponse(409, "Conflict", { error: { message: "m" } })).code).toBe(409);
    expect(failure(() => unwrapResponse(409, "Conflict", { error: { code: "", message: "m" } })).code).toBe(409);
    expect(failure(() => unwrapResponse(409, "Conflict", { error: { code: 3, message: "m" } })).code).toBe(409);
  });

  it("collects validation messages, strings or {message}, dropping empty ones", () => {
    const validationErrors = ["Name is required", "", { message: "Too long", members: ["name"] }, { message: "" }];
    const more = [{}, null, { message: 5 }];
    const body = {
      error: { code: "Validation", message: "Invalid", validationErrors: [...validationErrors, ...more] },
    };
    expect(failure(() => unwrapResponse(400, "Bad Request", body)).validationErrors).toEqual([
      "Name is required",
      "Too long",
      "5",
    ]);
    const notAList = { error: { message: "Invalid", validationErrors: "Name is required" } };
    expect(failure(() => unwrapResponse(400, "Bad Request", notAList)).validationErrors).toEqual([]);
  });

  it("is an error for any status outside 200–299", () => {
    const ok = { success: true, result: "r" };
    expect(failure(() => unwrapResponse(199, "odd", ok)).status).toBe(199);
    expect(failure(() => unwrapResponse(300, "Multiple Choices", ok)).status).toBe(300);
    expect(unwrapResponse(200, "OK", ok)).toBe("r");
    expect(unwrapResponse(299, "odd", ok)).toBe("r");
  });
});

describe("2xx answers", () => {
  it("without success flag and error object: code -1 and an empty message", () => {
    for (const body of [{}, { result: 1 }, { error: null }, null, "text", 12])
      expect(failure(() => unwrapResponse(200, "OK", body))).toEqual({
        message: "",
        code: -1,
        status: 200,
        validationErrors: [],
      });
  });

  it("success not true: the server's message and code, else the failed-request text and the status", () => {
    const refused = { success: false, error: { code: "Device:Offline", message: "Device offline" } };
    expect(failure(() => unwrapResponse(200, "OK", refused))).toEqual({
      message: "Device offline",
      code: "Device:Offline",
      status: 200,
      validationErrors: [],
    });
    expect(failure(() => unwrapResponse(200, "OK", { success: false, error: null }))).toEqual({
      message: "errors.requestFailed",
      code: 200,
      status: 200,
      validationErrors: [],
    });
    expect(failure(() => unwrapResponse(200, "OK", { error: { message: "no flag" } })).message).toBe("no flag");
    expect(failure(() => unwrapResponse(200, "OK", { success: "true", result: 1 })).code).toBe(200);
    expect(failure(() => unwrapResponse(200, "OK", { success: false, error: { message: 4, code: "" } }))).toEqual({
      message: "errors.requestFailed",
      code: 200,
      status: 200,
      validationErrors: [],
    });
    const invalid = { success: false, error: { message: "Invalid", validationErrors: [{ message: "Bad name" }] } };
    expect(failure(() => unwrapResponse(200, "OK", invalid)).validationErrors).toEqual(["Bad name"]);
  });

  it("success true: the result as it is, null when there is none", () => {
    expect(unwrapResponse(200, "OK", { success: true, result: { id: 1 } })).toEqual({ id: 1 });
    expect(unwrapResponse(200, "OK", { success: true, result: 0 })).toBe(0);
    expect(unwrapResponse(200, "OK", { success: true, result: false })).toBe(false);
    expect(unwrapResponse(204, "No Content", { success: true })).toBeNull();
  });
});

describe("readJson: an answer's body, or null", () => {
  it("parses JSON, and answers null for an empty, unreadable or non-JSON body", async () => {
    expect(await readJson(new Response('{"success":true}'))).toEqual({ success: true });
    expect(await readJson(new Response("0"))).toBe(0);
    expect(await readJson(new Response(""))).toBeNull();
    expect(await readJson(new Response("<html>"))).toBeNull();
    const unreadable = { text: () => Promise.reject(new TypeError("body stream already read")) } as Response;
    expect(await readJson(unreadable)).toBeNull();
  });
});

describe("no answer at all (code -2)", () => {
  it("is 'No network connection' when the phone is offline, else the server error", () => {
    vi.stubGlobal("navigator", { onLine: false });
    const offline = networkError();
    expect(offline).toBeInstanceOf(ApiError);
    expect([offline.message, offline.code, offline.status]).toEqual(["errors.noNetwork", -2, null]);
    vi.stubGlobal("navigator", { onLine: true });
    expect(networkError().message).toBe("errors.serverError");
    vi.stubGlobal("navigator", undefined);
    expect(networkError().message).toBe("errors.serverError");
  });
});
