import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { retryAfterSeconds } from "../http/rate-limit.ts";
import {
  codeExpiresAt,
  codeHash,
  codeMatches,
  codeTriesLeft,
  isDeadCode,
  newCode,
  resendWaitSeconds,
  wrongCodeError,
} from "./verification-codes.ts";

// Pure suites of the verification-code rules (spec §5: 6-digit codes, valid 10 minutes, one per minute per purpose
// and target, 5 wrong tries per requester and dead after 15 from everyone, stored hashed) and of the Retry-After rounding of every limit. The database
// side (single use, newest live code) is covered by the account suites.

describe("newCode", () => {
  it("is always 6 decimal digits, leading zeros kept", () => {
    const codes = Array.from({ length: 1000 }, () => newCode());
    for (const code of codes) expect(code).toMatch(/^[0-9]{6}$/);
    // About 10 % of uniform draws are below 100000, so 1000 draws hold codes starting with 0 (P(none) < 1e-45).
    expect(codes.some((c) => c.startsWith("0"))).toBe(true);
  });

  it("is random: 1000 codes hold many different values and digits", () => {
    const codes = Array.from({ length: 1000 }, () => newCode());
    expect(new Set(codes).size).toBeGreaterThan(950);
    expect(new Set(codes.map((c) => c[5]))).toEqual(new Set("0123456789"));
  });
});

describe("resendWaitSeconds: one code per minute per purpose and target", () => {
  const last = "2026-03-10T12:00:00.000Z";
  const at = (iso: string) => new Date(iso);

  it("a first code may be sent at once", () => {
    expect(resendWaitSeconds(undefined, at(last))).toBe(0);
  });

  it("within the minute after the last code, waits the rest of it, rounded up to whole seconds", () => {
    expect(resendWaitSeconds(last, at(last))).toBe(60);
    expect(resendWaitSeconds(last, at("2026-03-10T12:00:00.001Z"))).toBe(60);
    expect(resendWaitSeconds(last, at("2026-03-10T12:00:01.000Z"))).toBe(59);
    expect(resendWaitSeconds(last, at("2026-03-10T12:00:45.500Z"))).toBe(15);
    expect(resendWaitSeconds(last, at("2026-03-10T12:00:59.999Z"))).toBe(1);
  });

  it("from a full minute after the last code on, may be sent", () => {
    expect(resendWaitSeconds(last, at("2026-03-10T12:01:00.000Z"))).toBe(0);
    expect(resendWaitSeconds(last, at("2026-03-10T12:30:00.000Z"))).toBe(0);
  });
});

describe("codeExpiresAt: a code lives 10 minutes", () => {
  it("answers the issue time plus 600 s, ISO 8601", () => {
    expect(codeExpiresAt(new Date("2026-03-10T12:00:00.250Z"))).toBe("2026-03-10T12:10:00.250Z");
    expect(codeExpiresAt(new Date("2026-12-31T23:55:00.000Z"))).toBe("2027-01-01T00:05:00.000Z");
  });
});

describe("codeHash / codeMatches: codes are stored hashed", () => {
  const secret = new Uint8Array([7, 7, 7]);

  it("stores the hex HMAC-SHA256 of '<id>:<code>', never the code", () => {
    const expected = createHmac("sha256", secret).update("row-1:042137").digest("hex");
    expect(codeHash(secret, "row-1", "042137")).toBe(expected);
    expect(codeHash(secret, "row-1", "042137")).not.toContain("042137");
  });

  it("the right code matches its row; a wrong code, another row's hash or another key does not", () => {
    const row = { id: "row-1", code_hash: createHmac("sha256", secret).update("row-1:042137").digest("hex") };
    expect(codeMatches(secret, row, "042137")).toBe(true);
    expect(codeMatches(secret, row, "042138")).toBe(false);
    expect(codeMatches(secret, row, "42137")).toBe(false);
    expect(codeMatches(secret, { ...row, id: "row-2" }, "042137")).toBe(false);
    expect(codeMatches(new Uint8Array([8]), row, "042137")).toBe(false);
  });

  it("a damaged stored hash (wrong length) matches nothing and does not throw", () => {
    expect(codeMatches(secret, { id: "row-1", code_hash: "abcd" }, "042137")).toBe(false);
    expect(codeMatches(secret, { id: "row-1", code_hash: "" }, "042137")).toBe(false);
  });
});

describe("isDeadCode / codeTriesLeft / wrongCodeError: 5 wrong tries per requester, dead after 15 from everyone", () => {
  it("a code with 0–14 wrong tries lives; with 15 or more it is dead for everyone", () => {
    for (const n of [0, 1, 5, 14]) expect(isDeadCode(n)).toBe(false);
    for (const n of [15, 16, 50]) expect(isDeadCode(n)).toBe(true);
  });

  it("a requester has left the fewer of its own 5 and the code's 15 tries, never below 0", () => {
    expect(codeTriesLeft(0, 0)).toBe(5);
    expect(codeTriesLeft(3, 1)).toBe(4);
    expect(codeTriesLeft(10, 0)).toBe(5);
    expect(codeTriesLeft(12, 1)).toBe(3);
    expect(codeTriesLeft(14, 0)).toBe(1);
    expect(codeTriesLeft(15, 0)).toBe(0);
    expect(codeTriesLeft(4, 5)).toBe(0);
    expect(codeTriesLeft(20, 0)).toBe(0);
    expect(codeTriesLeft(0, 7)).toBe(0);
  });

  it("one requester's first four wrong tries tell how many remain to it: 4, 3, 2, 1", () => {
    expect([1, 2, 3, 4].map((n) => wrongCodeError(n, n))).toEqual(
      [4, 3, 2, 1].map((remaining) =>
        expect.objectContaining({ messageKey: "account.codeWrong", params: { remaining } }),
      ),
    );
    expect(wrongCodeError(1, 1)).toMatchObject({ status: 400, code: "InvalidCode" });
  });

  it("a second requester after a first one's five wrong tries has its own tries", () => {
    expect(wrongCodeError(6, 1)).toMatchObject({ messageKey: "account.codeWrong", params: { remaining: 4 } });
  });

  it("the requester's fifth wrong try, or the code's fifteenth, leaves none: account.codeDead", () => {
    expect(wrongCodeError(5, 5)).toMatchObject({ status: 400, code: "InvalidCode", messageKey: "account.codeDead" });
    expect(wrongCodeError(15, 1)).toMatchObject({ status: 400, code: "InvalidCode", messageKey: "account.codeDead" });
    expect(wrongCodeError(14, 1)).toMatchObject({ messageKey: "account.codeWrong", params: { remaining: 1 } });
  });
});

describe("retryAfterSeconds: Retry-After of a limit", () => {
  it("whole seconds, rounded up, at least 1", () => {
    expect(retryAfterSeconds(0)).toBe(1);
    expect(retryAfterSeconds(-50)).toBe(1);
    expect(retryAfterSeconds(1)).toBe(1);
    expect(retryAfterSeconds(1000)).toBe(1);
    expect(retryAfterSeconds(1001)).toBe(2);
    expect(retryAfterSeconds(59_400)).toBe(60);
  });
});
