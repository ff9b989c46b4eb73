import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

/**
 * The web client's error and retry rules, each checked against its rule alone (the mutation-testing module
 * "web-error-retry" reruns this file against every mutant): which failed queries are asked again (spec §8 and
 * TanStack Query's retry contract), which calls are resent (only keyed ones, spec §7 idempotency keys), and how an
 * error becomes the text the user sees (spec §8). The wire and the texts are replaced by stand-ins so that nothing
 * but the rule modules loads and no real timer runs.
 */

const wire = vi.hoisted(() => ({ transmit: vi.fn() }));
vi.mock("./transport.ts", () => ({ transmit: wire.transmit, askedInOtherLanguage: () => false }));
// The texts: a key stands for its text, so a test can tell which fallback was chosen.
vi.mock("../i18n/index.ts", () => ({
  i18n: { t: (key: string) => key, on: () => undefined },
  mapLanguage: (lng: string) => lng,
}));

const { ApiError, ClientErrorCode, errorMessage, isUnauthorized } = await import("./errors.ts");
const { KEYED_METHODS, idempotencyKeyFor, newIdempotencyKey, transmitKeyed } = await import("./idempotency.ts");
const { createAppQueryClient, NO_ANSWER_RETRIES, retryQuery } = await import("./query-client.ts");

/** How many times TanStack Query asks again after failures with `err`: it calls retry(0, e), retry(1, e), … */
function retries(err: unknown): number {
  let count = 0;
  while (retryQuery(count, err) && count < 100) count++;
  return count;
}

/** A v4 UUID (RFC 9562 §5.4): version nibble 4, variant bits 10. */
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
  wire.transmit.mockReset();
});

describe("ApiError and the client codes of spec §8", () => {
  it("carries the message, the code and the HTTP status, and no validation errors unless given", () => {
    const err = new ApiError("Forbidden", "Volo.Authorization:010001", 403);
    expect(err).toBeInstanceOf(Error);
    expect(err.name).toBe("ApiError");
    expect(err.message).toBe("Forbidden");
    expect(err.code).toBe("Volo.Authorization:010001");
    expect(err.status).toBe(403);
    expect(err.validationErrors).toEqual([]);
    const invalid = new ApiError("Invalid", 400, 400, ["Name is required"]);
    expect(invalid.validationErrors).toEqual(["Name is required"]);
  });

  it("code -1 is an answer without success flag and error object, -2 a call that got no answer", () => {
    expect(ClientErrorCode.NoEnvelope).toBe(-1);
    expect(ClientErrorCode.Network).toBe(-2);
  });
});

describe("isUnauthorized: the HTTP 401 'Login expired' of spec §8", () => {
  it("is true only for an ApiError answered with status 401", () => {
    expect(isUnauthorized(new ApiError("Login expired", 401, 401))).toBe(true);
    expect(isUnauthorized(new ApiError("Forbidden", 403, 403))).toBe(false);
    expect(isUnauthorized(new ApiError("No answer", -2, null))).toBe(false);
    // A code of 401 without a 401 answer is not an expired login.
    expect(isUnauthorized(new ApiError("odd", 401, 400))).toBe(false);
    expect(isUnauthorized(Object.assign(new Error("look-alike"), { status: 401 }))).toBe(false);
    expect(isUnauthorized(undefined)).toBe(false);
  });
});

describe("errorMessage: the text shown for an error", () => {
  it("is the error's own message when it has one, else the fallback", () => {
    expect(errorMessage(new ApiError("Device offline", 500, 500), "fallback")).toBe("Device offline");
    expect(errorMessage(new TypeError("bad body"), "fallback")).toBe("bad body");
    expect(errorMessage(new ApiError("", -1, 200), "Request failed")).toBe("Request failed");
    expect(errorMessage({ message: "not an Error" }, "Request failed")).toBe("Request failed");
    expect(errorMessage("text", "Request failed")).toBe("Request failed");
    expect(errorMessage(null, "Request failed")).toBe("Request failed");
  });
});

describe("retryQuery: which failed queries are asked again", () => {
  it("never after a 4xx answer: the server said no", () => {
    for (const status of [400, 401, 403, 404, 409, 422, 499])
      expect(retries(new ApiError("no", status, status))).toBe(0);
  });

  it("once after a 5xx answer", () => {
    for (const status of [500, 502, 503, 599]) expect(retries(new ApiError("down", status, status))).toBe(1);
  });

  it("three times (1, 2 then 4 s apart) when no answer came at all", () => {
    expect(NO_ANSWER_RETRIES).toBe(3);
    expect(retries(new ApiError("No network connection", ClientErrorCode.Network, null))).toBe(3);
    // The decision at each failure count, not only the total.
    const noAnswer = new ApiError("No network connection", ClientErrorCode.Network, null);
    expect([0, 1, 2, 3, 4].map((n) => retryQuery(n, noAnswer))).toEqual([true, true, true, false, false]);
  });

  it("once after any other error (an answer that could not be read)", () => {
    expect(retries(new TypeError("Unexpected end of JSON input"))).toBe(1);
    expect(retries(new SyntaxError("bad JSON"))).toBe(1);
    expect(retries("a thrown string")).toBe(1);
  });
});

describe("idempotency keys: which calls carry one (spec §7 creating and commanding calls)", () => {
  it("creating and commanding methods are keyed, reads are not", () => {
    expect([...KEYED_METHODS].sort()).toEqual(["DELETE", "PATCH", "POST", "PUT"]);
    expect(KEYED_METHODS.has("GET")).toBe(false);
  });

  it("a keyed call takes the given key, else a fresh v4 UUID; a read gets none", () => {
    expect(idempotencyKeyFor("POST", "given-key")).toBe("given-key");
    expect(idempotencyKeyFor("DELETE", "given-key")).toBe("given-key");
    const fresh = idempotencyKeyFor("PUT", undefined);
    expect(fresh).toMatch(UUID_V4);
    expect(idempotencyKeyFor("PATCH", undefined)).not.toBe(fresh);
    expect(idempotencyKeyFor("GET", undefined)).toBeNull();
    expect(idempotencyKeyFor("GET", "given-key")).toBeNull();
    expect(idempotencyKeyFor("HEAD", undefined)).toBeNull();
    expect(newIdempotencyKey()).toMatch(UUID_V4);
  });
});

describe("transmitKeyed: only a keyed call whose answer was lost is sent once more", () => {
  const request = { method: "POST", headers: { "Idempotency-Key": "k-1" } };
  const lost = () => new ApiError("No network connection", ClientErrorCode.Network, null);

  it("answers the first response without resending", async () => {
    const ok = new Response("first");
    wire.transmit.mockResolvedValueOnce(ok);
    await expect(transmitKeyed("/api/x", request, true)).resolves.toBe(ok);
    expect(wire.transmit).toHaveBeenCalledTimes(1);
  });

  it("resends a keyed call once, with the same URL and request (so the same key), when no answer came", async () => {
    const ok = new Response("second");
    wire.transmit.mockRejectedValueOnce(lost()).mockResolvedValueOnce(ok);
    await expect(transmitKeyed("/api/x", request, true)).resolves.toBe(ok);
    expect(wire.transmit.mock.calls).toEqual([
      ["/api/x", request],
      ["/api/x", request],
    ]);
  });

  it("a second loss is the caller's error: no third attempt", async () => {
    const second = lost();
    wire.transmit.mockRejectedValueOnce(lost()).mockRejectedValueOnce(second);
    await expect(transmitKeyed("/api/x", request, true)).rejects.toBe(second);
    expect(wire.transmit).toHaveBeenCalledTimes(2);
  });

  it("never resends an unkeyed call", async () => {
    const first = lost();
    wire.transmit.mockRejectedValueOnce(first).mockResolvedValueOnce(new Response("unused"));
    await expect(transmitKeyed("/api/x", { method: "GET", headers: {} }, false)).rejects.toBe(first);
    expect(wire.transmit).toHaveBeenCalledTimes(1);
  });

  it("never resends after an abort: the caller gave up", async () => {
    const abort = new DOMException("The operation was aborted.", "AbortError");
    wire.transmit.mockRejectedValueOnce(abort).mockResolvedValueOnce(new Response("unused"));
    await expect(transmitKeyed("/api/x", request, true)).rejects.toBe(abort);
    expect(wire.transmit).toHaveBeenCalledTimes(1);
  });
});

describe("the query client: how a failed call reaches the user (spec §8 errors as toast)", () => {
  /** Runs one failing query (no retry) with `meta`, answers what `showError` got. */
  async function failQuery(err: unknown, meta?: { silent?: boolean }): Promise<string[]> {
    const shown: string[] = [];
    const client = createAppQueryClient((text) => shown.push(text));
    await client
      .fetchQuery({
        queryKey: ["failing"],
        queryFn: () => Promise.reject(err),
        retry: false,
        meta,
      })
      .catch(() => undefined);
    client.clear();
    return shown;
  }

  /** Runs one failing mutation with `meta`, answers what `showError` got. */
  async function failMutation(err: unknown, meta?: { silent?: boolean }): Promise<string[]> {
    const shown: string[] = [];
    const client = createAppQueryClient((text) => shown.push(text));
    await client
      .getMutationCache()
      .build(client, { mutationFn: () => Promise.reject(err), meta })
      .execute(undefined)
      .catch(() => undefined);
    client.clear();
    return shown;
  }

  it("shows a failed query's message once, or the failed-request text when it has none", async () => {
    expect(await failQuery(new ApiError("Device offline", 500, 500))).toEqual(["Device offline"]);
    expect(await failQuery(new ApiError("", -1, 200))).toEqual(["errors.requestFailed"]);
  });

  it("shows nothing for a silent query, except an expired login", async () => {
    expect(await failQuery(new ApiError("Device offline", 500, 500), { silent: true })).toEqual([]);
    expect(await failQuery(new ApiError("Login expired", 401, 401), { silent: true })).toEqual(["Login expired"]);
    expect(await failQuery(new ApiError("", 401, 401), { silent: true })).toEqual(["errors.loginExpired"]);
  });

  it("an expired login is shown once, as 'Login expired' when the error has no text", async () => {
    expect(await failQuery(new ApiError("Login expired", 401, 401))).toEqual(["Login expired"]);
    expect(await failQuery(new ApiError("", 401, 401))).toEqual(["errors.loginExpired"]);
  });

  it("a failed mutation is shown by the same rule and never retried", async () => {
    let calls = 0;
    const shown: string[] = [];
    const client = createAppQueryClient((text) => shown.push(text));
    await client
      .getMutationCache()
      .build(client, {
        mutationFn: () => {
          calls++;
          return Promise.reject(new ApiError("", ClientErrorCode.Network, null));
        },
      })
      .execute(undefined)
      .catch(() => undefined);
    expect(calls).toBe(1);
    expect(shown).toEqual(["errors.requestFailed"]);
    expect(await failMutation(new ApiError("Saved elsewhere", 409, 409), { silent: true })).toEqual([]);
    expect(await failMutation(new ApiError("", 401, 401), { silent: true })).toEqual(["errors.loginExpired"]);
    client.clear();
  });

  it("queries retry by retryQuery", () => {
    const client = createAppQueryClient(() => undefined);
    expect(client.getDefaultOptions().queries?.retry).toBe(retryQuery);
    expect(client.getDefaultOptions().mutations?.retry).toBe(false);
  });
});
