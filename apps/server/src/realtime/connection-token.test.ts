import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { type ConnectionClaims, ConnectionTokens, deriveConnectionTokenKey } from "./connection-token.ts";

const claims = (over: Partial<ConnectionClaims> = {}): ConnectionClaims => ({
  hub: "deviceChange",
  userId: "user-1",
  sessionId: "session-1",
  connectionId: "conn-1",
  issuedAt: 1_000_000,
  expiresAt: 1_015_000,
  ...over,
});

/** Signed, stateless negotiate tokens: the WebSocket may open on another process than its negotiate. */
describe("ConnectionTokens", () => {
  it("a token signed by one instance is accepted by another with the same key, with every claim", () => {
    const key = randomBytes(32);
    const token = new ConnectionTokens(key).sign(claims({ sessionId: null, hub: "message" }));
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(new ConnectionTokens(key).verify(token, 1_000_001)).toEqual(claims({ sessionId: null, hub: "message" }));
  });

  it("refuses another key's token, an altered token, an expired one and junk", () => {
    const tokens = new ConnectionTokens(randomBytes(32));
    const token = tokens.sign(claims());
    expect(new ConnectionTokens(randomBytes(32)).verify(token, 1_000_001)).toBeNull();
    // Another user's claims under the first token's signature.
    const forged = `${Buffer.from(JSON.stringify({ v: 1, h: "deviceChange", u: "user-2", s: null, c: "x", i: 1, e: 2e12 })).toString("base64url")}.${token.split(".")[1]}`;
    expect(tokens.verify(forged, 1_000_001)).toBeNull();
    expect(tokens.verify(`${token.slice(0, -2)}AA`, 1_000_001)).toBeNull();
    expect(tokens.verify(token, 1_015_000)).toBeNull();
    expect(tokens.verify(token, 1_014_999)).not.toBeNull();
    for (const junk of ["", ".", "abc", "a.b", `${token}.x`, "x".repeat(5000)]) expect(tokens.verify(junk)).toBeNull();
  });

  it("derives one key per JWT signing key, different from it, and refuses short keys", () => {
    const jwtKey = randomBytes(32);
    const a = deriveConnectionTokenKey(jwtKey);
    expect(a).toEqual(deriveConnectionTokenKey(new Uint8Array(jwtKey)));
    expect(a).toHaveLength(32);
    expect(Buffer.from(a).equals(jwtKey)).toBe(false);
    expect(deriveConnectionTokenKey(randomBytes(32))).not.toEqual(a);
    expect(() => new ConnectionTokens(randomBytes(16))).toThrow(/32 bytes/);
  });
});
