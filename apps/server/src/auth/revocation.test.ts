import { endpoints } from "@aquapilot/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../../test/call.ts";
import { createTestApp, registerByEmail, type TestApp } from "../../test/helpers.ts";
import { refreshStatus, signIn } from "../modules/profile/testing.ts";

describe("POST /connect/revocation (RFC 7009)", () => {
  let t: TestApp;
  const revoke = (form: Record<string, string>) =>
    t.app.inject({
      method: "POST",
      url: "/connect/revocation",
      headers: { "content-type": "application/x-www-form-urlencoded", "accept-language": "en" },
      payload: new URLSearchParams(form).toString(),
    });

  beforeAll(async () => {
    t = await createTestApp();
    await registerByEmail(t.app, "rev@example.com", "rev-pass-1");
  });
  afterAll(() => t.close());

  it("ends this session only: refresh and access token refused at once, other sessions unaffected", async () => {
    const mine = await signIn(t.app, "rev@example.com", "rev-pass-1");
    const other = await signIn(t.app, "rev@example.com", "rev-pass-1");
    const res = await revoke({ token: mine.refresh, token_type_hint: "refresh_token" });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe("");
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(await refreshStatus(t.app, mine.refresh)).toBe(400);
    expect(await refreshStatus(t.app, other.refresh)).toBe(200);
    // The access token carries its session (sid), checked on every call, so logout ends it as well.
    expect((await call(t.app, endpoints.getProfile, { as: mine.access })).status).toBe(401);
    expect((await call(t.app, endpoints.getProfile, { as: other.access })).status).toBe(200);
  });

  it("revokes a refresh token sent with a wrong hint too", async () => {
    const s = await signIn(t.app, "rev@example.com", "rev-pass-1");
    expect((await revoke({ token: s.refresh, token_type_hint: "access_token" })).statusCode).toBe(200);
    expect(await refreshStatus(t.app, s.refresh)).toBe(400);
  });

  it("answers 200 for unknown, already revoked or access tokens; 400 invalid_request without a token", async () => {
    const s = await signIn(t.app, "rev@example.com", "rev-pass-1");
    expect((await revoke({ token: "no-such-token" })).statusCode).toBe(200);
    expect((await revoke({ token: s.access })).statusCode).toBe(200);
    expect((await revoke({ token: s.refresh })).statusCode).toBe(200);
    expect((await revoke({ token: s.refresh })).statusCode).toBe(200);
    const missing = await revoke({});
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({
      error: "invalid_request",
      error_description: "The token request is missing a required parameter.",
    });
  });
});
