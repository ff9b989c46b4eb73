import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  type ShareClaims,
  shareClaimsOf,
  shareCodeExpiryMs,
  shareReuseCutoff,
  shareState,
  shareValidSeconds,
  signShareCode,
  verifyShareCode,
} from "./share-code-token.ts";

// Pure suites of the household share-code rules (spec §4 "Family QR code valid 15 minutes, refreshable", §9 "QR
// validity 15 minutes"): the signed code's form, its checks and its clock. Joining, listing and revoking (the database
// side) are covered by the family-user suites.

const SECRET = new Uint8Array([1, 2, 3, 4, 5]);
const NOW = new Date("2026-03-10T12:00:00.000Z");
const NOW_S = NOW.getTime() / 1000;
const claims: ShareClaims = { p: "join-family", f: "fam-1", i: "admin-1", j: "share-1", e: NOW_S + 900 };

const b64 = (text: string) => Buffer.from(text).toString("base64url");
/** A code signed by hand: version, base64url of the JSON text, base64url HMAC-SHA256 of the first two parts. */
function handSigned(json: string, secret: Uint8Array = SECRET, version = "AQF1"): string {
  const body = `${version}.${b64(json)}`;
  return `${body}.${createHmac("sha256", secret).update(body).digest("base64url")}`;
}
const invalid = expect.objectContaining({ status: 400, code: "InvalidCode", messageKey: "family.codeInvalid" });
const expired = expect.objectContaining({ status: 400, code: "InvalidCode", messageKey: "family.codeExpired" });

describe("signShareCode", () => {
  it("writes AQF1.<base64url JSON claims>.<base64url HMAC-SHA256 of the first two parts>", () => {
    const json = `{"p":"join-family","f":"fam-1","i":"admin-1","j":"share-1","e":${NOW_S + 900}}`;
    expect(signShareCode(SECRET, claims)).toBe(handSigned(json));
  });
});

describe("verifyShareCode: only untouched, own-keyed, join-family codes within their time", () => {
  it("answers the claims of a good code, also with white space around it (a scanned or pasted code)", () => {
    const code = signShareCode(SECRET, claims);
    expect(verifyShareCode(SECRET, code, NOW)).toEqual(claims);
    expect(verifyShareCode(SECRET, `  ${code}\n`, NOW)).toEqual(claims);
  });

  it("a code is good up to the second before its expiry and expired from that second on", () => {
    const code = signShareCode(SECRET, claims);
    expect(verifyShareCode(SECRET, code, new Date((NOW_S + 899) * 1000 + 999))).toEqual(claims);
    expect(() => verifyShareCode(SECRET, code, new Date((NOW_S + 900) * 1000))).toThrow(expired);
    expect(() => verifyShareCode(SECRET, code, new Date((NOW_S + 3600) * 1000))).toThrow(expired);
  });

  it("refuses a code without an expiry, or with one that is no number, as expired", () => {
    expect(() => verifyShareCode(SECRET, handSigned('{"p":"join-family","f":"fam-1","j":"s"}'), NOW)).toThrow(expired);
    expect(() =>
      verifyShareCode(SECRET, handSigned(`{"p":"join-family","f":"fam-1","j":"s","e":"${NOW_S + 900}"}`), NOW),
    ).toThrow(expired);
  });

  it.each([
    ["empty", ""],
    ["one part", "AQF1"],
    ["two parts", `AQF1.${b64("{}")}`],
    ["four parts", `${handSigned("{}")}.x`],
  ])("refuses a malformed code (%s)", (_what, code) => {
    expect(() => verifyShareCode(SECRET, code, NOW)).toThrow(invalid);
  });

  it("refuses a code of another version, even correctly signed", () => {
    expect(() => verifyShareCode(SECRET, handSigned(JSON.stringify(claims), SECRET, "AQF2"), NOW)).toThrow(invalid);
  });

  it("refuses a code signed with another key, or with its claims or signature altered", () => {
    expect(() => verifyShareCode(SECRET, signShareCode(new Uint8Array([9]), claims), NOW)).toThrow(invalid);
    const [version, body, mac] = signShareCode(SECRET, claims).split(".");
    const forged = b64(JSON.stringify({ ...claims, f: "fam-2" }));
    expect(() => verifyShareCode(SECRET, `${version}.${forged}.${mac}`, NOW)).toThrow(invalid);
    const flipped = `${mac.slice(0, -1)}${mac.endsWith("A") ? "B" : "A"}`;
    expect(() => verifyShareCode(SECRET, `${version}.${body}.${flipped}`, NOW)).toThrow(invalid);
    expect(() => verifyShareCode(SECRET, `${version}.${body}.${mac}A`, NOW)).toThrow(invalid);
    expect(() => verifyShareCode(SECRET, `${version}.${body}.`, NOW)).toThrow(invalid);
  });

  it("refuses a correctly signed body that is not JSON", () => {
    expect(() => verifyShareCode(SECRET, handSigned("not json"), NOW)).toThrow(invalid);
  });

  it("refuses a correctly signed code for another purpose, or without its household or share id", () => {
    const e = NOW_S + 900;
    for (const json of [
      `{"p":"join-device","f":"fam-1","i":"a","j":"s","e":${e}}`,
      `{"f":"fam-1","i":"a","j":"s","e":${e}}`,
      `{"p":"join-family","i":"a","j":"s","e":${e}}`,
      `{"p":"join-family","f":7,"i":"a","j":"s","e":${e}}`,
      `{"p":"join-family","f":"fam-1","i":"a","e":${e}}`,
      `{"p":"join-family","f":"fam-1","i":"a","j":["s"],"e":${e}}`,
    ])
      expect(() => verifyShareCode(SECRET, handSigned(json), NOW)).toThrow(invalid);
  });
});

describe("share code clock: 15 minutes, whole seconds", () => {
  it("a code issued now expires 15 minutes later, rounded up to the next whole second", () => {
    expect(shareCodeExpiryMs(NOW)).toBe(Date.parse("2026-03-10T12:15:00.000Z"));
    expect(shareCodeExpiryMs(new Date("2026-03-10T12:00:00.001Z"))).toBe(Date.parse("2026-03-10T12:15:01.000Z"));
    expect(shareCodeExpiryMs(new Date("2026-03-10T12:00:00.999Z"))).toBe(Date.parse("2026-03-10T12:15:01.000Z"));
  });

  it("validSeconds counts whole seconds left, rounded down", () => {
    expect(shareValidSeconds(Date.parse("2026-03-10T12:15:00.000Z"), NOW)).toBe(900);
    expect(shareValidSeconds(Date.parse("2026-03-10T12:15:01.000Z"), new Date("2026-03-10T12:00:00.001Z"))).toBe(900);
    expect(shareValidSeconds(Date.parse("2026-03-10T12:04:59.999Z"), NOW)).toBe(299);
  });

  it("the current code is shown again only while it has more than 3 minutes left", () => {
    expect(shareReuseCutoff(NOW)).toBe("2026-03-10T12:03:00.000Z");
  });

  it("a row's code carries its household, inviter, id and expiry in whole Unix seconds", () => {
    expect(
      shareClaimsOf({
        id: "share-9",
        family_id: "fam-3",
        inviter_id: "admin-3",
        expires_at: "2026-03-10T12:15:00.000Z",
      }),
    ).toEqual({ p: "join-family", f: "fam-3", i: "admin-3", j: "share-9", e: NOW_S + 900 });
    expect(shareClaimsOf({ id: "s", family_id: "f", inviter_id: "i", expires_at: "2026-03-10T12:15:00.900Z" }).e).toBe(
      NOW_S + 900,
    );
  });

  it("a listed code is expired from its expiry on, and revoked once revoked", () => {
    const at = Date.parse("2026-03-10T12:15:00.000Z");
    expect(shareState({ expires_at: "2026-03-10T12:15:00.001Z", revoked_at: null }, at)).toEqual({
      expired: false,
      revoked: false,
    });
    expect(shareState({ expires_at: "2026-03-10T12:15:00.000Z", revoked_at: null }, at)).toEqual({
      expired: true,
      revoked: false,
    });
    expect(shareState({ expires_at: "2026-03-10T13:00:00.000Z", revoked_at: "2026-03-10T12:05:00.000Z" }, at)).toEqual({
      expired: false,
      revoked: true,
    });
  });
});
