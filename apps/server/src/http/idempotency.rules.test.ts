import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { idempotencyCaller, idempotencyKeyOf, keepsAnswer, requestFingerprint } from "./idempotency.ts";
import { judgeStoredKey, type StoredKey } from "./idempotency-store.ts";

// Pure suites of the idempotent-submit rule (spec: every creating or commanding call runs once per caller and key
// within 24 hours; a repeat gets the first answer; 5xx answers are not kept). The database side (the insert race,
// purging) is covered by idempotency.data.test.ts.

const UUID = "3f2b8c1e-9a4d-4e6f-8b2a-1c5d7e9f0a3b";

describe("idempotencyKeyOf: which requests are keyed", () => {
  it("POST, PUT, PATCH and DELETE with the header are keyed by it", () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) expect(idempotencyKeyOf(method, UUID)).toBe(UUID);
  });

  it("reads and other methods are never keyed, even with a malformed header", () => {
    for (const method of ["GET", "HEAD", "OPTIONS"]) {
      expect(idempotencyKeyOf(method, UUID)).toBeNull();
      expect(idempotencyKeyOf(method, "has space")).toBeNull();
    }
  });

  it("a request without the header is not keyed", () => {
    expect(idempotencyKeyOf("POST", undefined)).toBeNull();
  });

  it("accepts 1 to 128 printable ASCII characters, from ! to ~", () => {
    expect(idempotencyKeyOf("POST", "a")).toBe("a");
    expect(idempotencyKeyOf("POST", "!")).toBe("!");
    expect(idempotencyKeyOf("POST", "~")).toBe("~");
    expect(idempotencyKeyOf("POST", "x".repeat(128))).toBe("x".repeat(128));
    expect(idempotencyKeyOf("PUT", "order-42_{retry}#1")).toBe("order-42_{retry}#1");
  });

  it.each([
    ["empty", ""],
    ["129 characters", "x".repeat(129)],
    ["a space inside", "a b"],
    ["a leading space", " ab"],
    ["a trailing space", "ab "],
    ["a trailing line feed", "ab\n"],
    ["a control character", "ab\u0001"],
    ["DEL", "ab\u007f"],
    ["a non-ASCII letter", "clé"],
  ])("refuses a key with %s (400 idempotency.keyInvalid)", (_what, key) => {
    expect(() => idempotencyKeyOf("POST", key)).toThrow(
      expect.objectContaining({ status: 400, messageKey: "idempotency.keyInvalid" }),
    );
  });

  it("refuses the header sent twice (Node gives an array)", () => {
    expect(() => idempotencyKeyOf("DELETE", [UUID, UUID])).toThrow(
      expect.objectContaining({ status: 400, messageKey: "idempotency.keyInvalid" }),
    );
  });
});

describe("idempotencyCaller: keys are per caller", () => {
  it("a signed-in user's keys are theirs; before sign-in all callers share 'anonymous'", () => {
    expect(idempotencyCaller({ id: "user-7" })).toBe("user-7");
    expect(idempotencyCaller(null)).toBe("anonymous");
    expect(idempotencyCaller(undefined)).toBe("anonymous");
  });
});

describe("requestFingerprint: what makes a repeat 'the same request'", () => {
  const key = new Uint8Array([1, 2, 3, 4]);
  const base = {
    method: "POST",
    route: "/api/app/device/:id",
    params: { id: "d1" },
    query: { a: "1" },
    body: { x: 1 },
  };

  it("is the hex HMAC-SHA256 of [method, route, params, query, body] as JSON", () => {
    const expected = createHmac("sha256", key)
      .update('["POST","/api/app/device/:id",{"id":"d1"},{"a":"1"},{"x":1}]')
      .digest("hex");
    expect(requestFingerprint(key, base)).toBe(expected);
  });

  it("a missing body counts as null", () => {
    const expected = createHmac("sha256", key).update('["DELETE","/api/x",{},{},null]').digest("hex");
    expect(requestFingerprint(key, { method: "DELETE", route: "/api/x", params: {}, query: {}, body: undefined })).toBe(
      expected,
    );
  });

  it("differs when any part of the request differs, or under another key", () => {
    const first = requestFingerprint(key, base);
    expect(requestFingerprint(key, { ...base })).toBe(first);
    for (const other of [
      { ...base, method: "PUT" },
      { ...base, route: "/api/app/family/:id" },
      { ...base, params: { id: "d2" } },
      { ...base, query: { a: "2" } },
      { ...base, body: { x: 2 } },
    ])
      expect(requestFingerprint(key, other)).not.toBe(first);
    expect(requestFingerprint(new Uint8Array([9]), base)).not.toBe(first);
  });
});

describe("keepsAnswer: which answers are replayed", () => {
  it("keeps every answer below 500 with a text body: successes and client errors alike", () => {
    for (const status of [200, 201, 204, 400, 403, 404, 409, 429, 499]) expect(keepsAnswer(status, "{}")).toBe(true);
  });

  it("does not keep a 5xx, so a retry runs again", () => {
    for (const status of [500, 502, 503]) expect(keepsAnswer(status, "{}")).toBe(false);
  });

  it("does not keep a body that is not text (a stream or a buffer, or none)", () => {
    expect(keepsAnswer(200, Buffer.from("{}"))).toBe(false);
    expect(keepsAnswer(200, undefined)).toBe(false);
    expect(keepsAnswer(200, null)).toBe(false);
  });
});

describe("judgeStoredKey: a repeated key", () => {
  const now = new Date("2026-03-10T12:00:00.000Z");
  const HOUR = 3_600_000;
  /** A stored key claimed `ageMs` before now. */
  const stored = (ageMs: number, more: Partial<StoredKey> = {}): StoredKey => ({
    fingerprint: "fp-1",
    created_at: new Date(now.getTime() - ageMs).toISOString(),
    response_status: null,
    response_body: null,
    ...more,
  });
  const answered = { response_status: 201, response_body: '{"result":1}' };

  it("replays the stored answer to the same request, with its status and body", () => {
    expect(judgeStoredKey(stored(5_000, answered), "fp-1", now)).toEqual({
      kind: "replay",
      status: 201,
      body: '{"result":1}',
    });
    // A kept client error replays just the same, until the window ends.
    expect(judgeStoredKey(stored(24 * HOUR, { response_status: 409, response_body: "{}" }), "fp-1", now)).toEqual({
      kind: "replay",
      status: 409,
      body: "{}",
    });
  });

  it("refuses the key with a different request, answered or still running", () => {
    expect(judgeStoredKey(stored(5_000, answered), "fp-2", now)).toEqual({ kind: "mismatch" });
    expect(judgeStoredKey(stored(5_000), "fp-2", now)).toEqual({ kind: "mismatch" });
    expect(judgeStoredKey(stored(2 * HOUR), "fp-2", now)).toEqual({ kind: "mismatch" });
    expect(judgeStoredKey(stored(24 * HOUR), "fp-2", now)).toEqual({ kind: "mismatch" });
  });

  it("a first request without an answer is running for under a minute, then abandoned and taken over", () => {
    expect(judgeStoredKey(stored(0), "fp-1", now)).toEqual({ kind: "running" });
    expect(judgeStoredKey(stored(59_999), "fp-1", now)).toEqual({ kind: "running" });
    expect(judgeStoredKey(stored(60_000), "fp-1", now)).toEqual({ kind: "takeOver" });
    expect(judgeStoredKey(stored(3 * HOUR), "fp-1", now)).toEqual({ kind: "takeOver" });
  });

  it("half an answer (status without body, or body without status) is no answer", () => {
    expect(judgeStoredKey(stored(1_000, { response_status: 200 }), "fp-1", now)).toEqual({ kind: "running" });
    expect(judgeStoredKey(stored(1_000, { response_body: "{}" }), "fp-1", now)).toEqual({ kind: "running" });
  });

  it("after 24 hours the key is forgotten: any request takes it over, the answer is not replayed", () => {
    const past = 24 * HOUR + 1;
    expect(judgeStoredKey(stored(past, answered), "fp-1", now)).toEqual({ kind: "takeOver" });
    expect(judgeStoredKey(stored(past, answered), "fp-2", now)).toEqual({ kind: "takeOver" });
    expect(judgeStoredKey(stored(past), "fp-2", now)).toEqual({ kind: "takeOver" });
  });
});
