import fs from "node:fs";
import path from "node:path";
import { endpoints } from "@aquapilot/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, describeEndpoint } from "../../test/call.ts";
import { bearer, createTestApp, passwordGrant, registerByEmail, type TestApp } from "../../test/helpers.ts";
import { JWT_KEY_FILE } from "./auth-service.ts";

const form = (fields: Record<string, string>) => ({
  method: "POST" as const,
  url: "/connect/token",
  headers: { "content-type": "application/x-www-form-urlencoded", "accept-language": "en" },
  payload: new URLSearchParams(fields).toString(),
});

describe("POST /connect/token", () => {
  let t: TestApp;
  let userId: string;
  beforeAll(async () => {
    t = await createTestApp();
    userId = await registerByEmail(t.app, "Owner@Example.com", "pass-word-1");
    await t.db.updateTable("users").set({ user_name: "owner" }).where("id", "=", userId).execute();
  });
  afterAll(() => t.close());

  it("grants by e-mail (any case) and by user name", async () => {
    for (const username of ["owner@example.com", "OWNER@example.com", "owner"]) {
      const { status, body } = await passwordGrant(t.app, username, "pass-word-1");
      expect(status, username).toBe(200);
      expect(body).toMatchObject({ token_type: "Bearer", expires_in: 3600 });
      expect(typeof body.access_token).toBe("string");
      expect(typeof body.refresh_token).toBe("string");
      const payload = JSON.parse(Buffer.from(String(body.access_token).split(".")[1], "base64url").toString());
      expect(payload.sub).toBe(userId);
      expect(payload.preferred_username).toBe("owner");
      expect(payload.exp - payload.iat).toBe(3600);
    }
  });

  it("refuses a wrong password and an unknown account with invalid_grant, unenveloped", async () => {
    for (const [u, p] of [
      ["owner@example.com", "wrong-password"],
      ["nobody@example.com", "pass-word-1"],
    ]) {
      const res = await t.app.inject(form({ grant_type: "password", username: u, password: p }));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        error: "invalid_grant",
        error_description: "Login failed: wrong account or password.",
      });
    }
  });

  it("answers unsupported_grant_type and invalid_request", async () => {
    expect((await t.app.inject(form({ grant_type: "client_credentials" }))).json().error).toBe(
      "unsupported_grant_type",
    );
    expect((await t.app.inject(form({ grant_type: "password", username: "owner" }))).json().error).toBe(
      "invalid_request",
    );
  });

  it("rotates refresh tokens: the new one works; the old one is refused and, replayed, ends the family", async () => {
    const first = (await passwordGrant(t.app, "owner", "pass-word-1")).body;
    const r1 = await t.app.inject(form({ grant_type: "refresh_token", refresh_token: String(first.refresh_token) }));
    expect(r1.statusCode).toBe(200);
    const second = r1.json();
    expect(second.refresh_token).not.toBe(first.refresh_token);
    const r2 = await t.app.inject(form({ grant_type: "refresh_token", refresh_token: second.refresh_token }));
    expect(r2.statusCode).toBe(200);
    const again = await t.app.inject(form({ grant_type: "refresh_token", refresh_token: String(first.refresh_token) }));
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toBe("invalid_grant");
    // The replay ended the session (the spent token may be a thief's copy): the family's newest token is refused too.
    const r3 = await t.app.inject(form({ grant_type: "refresh_token", refresh_token: r2.json().refresh_token }));
    expect(r3.statusCode).toBe(400);
    const stored = await t.db.selectFrom("refresh_tokens").select("token_hash").execute();
    expect(stored.map((r) => r.token_hash)).not.toContain(first.refresh_token);
  });

  it("refuses an access token whose security stamp changed", async () => {
    const auth = await bearer(t.app, "owner", "pass-word-1");
    expect(await t.app.auth.verifyAccessToken(auth.slice(7))).toEqual({
      userId,
      userName: "owner",
      sessionId: expect.any(String),
    });
    await t.db.updateTable("users").set({ security_stamp: "changed" }).where("id", "=", userId).execute();
    // Every writer of a stamp announces it (auth/sessions.ts endSessions' callers); the cached check goes with it.
    t.bus.publish({ type: "user.revoked", userId });
    expect(await t.app.auth.verifyAccessToken(auth.slice(7))).toBeNull();
    const res = await call(t, endpoints.getProfile, { as: auth });
    expect(res.status).toBe(401);
  });
});

describeEndpoint(endpoints.applicationConfiguration, "anonymous and signed in", () => {
  it("is anonymous without a token and lists grantedPolicies with one", async () => {
    const t = await createTestApp();
    try {
      await registerByEmail(t.app, "cfg@example.com", "pass-word-1");
      // No Accept-Language: the server's default language (zh-Hans).
      const anon = await call(t, endpoints.applicationConfiguration, { lang: null });
      expect(anon.result.currentUser).toMatchObject({ isAuthenticated: false, id: null, userName: null });
      expect(anon.result.auth.grantedPolicies).toEqual({});
      expect(anon.result.localization.currentCulture.name).toBe("zh-Hans");
      const auth = await bearer(t.app, "cfg@example.com", "pass-word-1");
      const me = (await call(t, endpoints.applicationConfiguration, { as: auth, lang: "ru" })).result;
      expect(me.currentUser).toMatchObject({ isAuthenticated: true, email: "cfg@example.com" });
      expect(me.currentUser.userName).toMatch(/^cfg_[0-9a-f]{6}$/);
      expect(me.auth.grantedPolicies["Device.Control"]).toBe(true);
      expect(me.auth.grantedPolicies.master).toBeUndefined();
      expect(me.localization.currentCulture.name).toBe("ru");
    } finally {
      await t.close();
    }
  });
});

describe("JWT signing key", () => {
  it("is created 0600 in DATA_DIR and survives a restart: an old token stays valid", async () => {
    const first = await createTestApp();
    await registerByEmail(first.app, "keep@example.com", "pass-word-1");
    const auth = await bearer(first.app, "keep@example.com", "pass-word-1");
    const keyFile = path.join(first.config.DATA_DIR, JWT_KEY_FILE);
    expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
    const key = fs.readFileSync(keyFile, "utf8");
    await first.close({ keepDatabase: true });

    const second = await createTestApp({ database: first.database });
    try {
      expect(fs.readFileSync(keyFile, "utf8")).toBe(key);
      const res = await call(second, endpoints.getProfile, { as: auth });
      expect(res.status).toBe(200);
      expect(res.result.email).toBe("keep@example.com");
    } finally {
      await second.close();
    }
  });

  it("a new key (key file deleted) makes old tokens invalid: the key, not the database, decides", async () => {
    const first = await createTestApp();
    await registerByEmail(first.app, "x@example.com", "pass-word-1");
    const auth = await bearer(first.app, "x@example.com", "pass-word-1");
    await first.close({ keepDatabase: true });
    fs.rmSync(path.join(first.config.DATA_DIR, JWT_KEY_FILE));
    const second = await createTestApp({ database: first.database });
    try {
      expect(await second.app.auth.verifyAccessToken(auth.slice(7))).toBeNull();
      expect(
        await second.app.auth.verifyAccessToken((await bearer(second.app, "x@example.com", "pass-word-1")).slice(7)),
      ).not.toBeNull();
    } finally {
      await second.close();
    }
  });
});
