import { endpoints } from "@aquapilot/contract/wire";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { i18n } from "../i18n/index.ts";
import { getItem, setItem } from "../storage/index.ts";
import { api } from "./client.ts";
import { onUnauthorized } from "./events.ts";
import { fakeFetch, json } from "./testing/fake-fetch.ts";
import {
  ensureFreshToken,
  loginWithPassword,
  REFRESH_LOCK,
  REFRESH_MARGIN_MS,
  renewAfterUnauthorized,
  requestToken,
  revokeRefreshToken,
} from "./token.ts";

const tokenBody = { access_token: "A2", token_type: "Bearer", expires_in: 3600, refresh_token: "R2" };

beforeEach(async () => {
  localStorage.clear();
  await i18n.changeLanguage("en");
});
afterEach(() => vi.unstubAllGlobals());

describe("POST /connect/token (OAuth 2.0, form-urlencoded)", () => {
  it("password grant: posts the form and stores the token with an absolute expiry", async () => {
    const calls = fakeFetch(json(200, tokenBody));
    const before = Date.now();
    const token = await loginWithPassword("ana@example.com", "secret1");
    expect(calls[0].url).toBe("/connect/token");
    expect(new Headers(calls[0].init.headers).get("Content-Type")).toBe("application/x-www-form-urlencoded");
    const form = new URLSearchParams(calls[0].init.body as string);
    expect(Object.fromEntries(form)).toEqual({
      grant_type: "password",
      username: "ana@example.com",
      password: "secret1",
    });
    expect(token.accessToken).toBe("A2");
    expect(token.expiresAt).toBeGreaterThanOrEqual(before + 3600_000);
    expect(getItem("token")).toEqual(token);
  });

  it("maps {error, error_description} and network failures", async () => {
    fakeFetch(
      json(400, { error: "invalid_grant", error_description: "Invalid username or password!" }),
      new TypeError("x"),
    );
    await expect(requestToken({ grant_type: "password", username: "a", password: "b" })).rejects.toMatchObject({
      code: "invalid_grant",
      status: 400,
      message: "Invalid username or password!",
    });
    await expect(requestToken({ grant_type: "password", username: "a", password: "b" })).rejects.toMatchObject({
      code: -2,
    });
  });
});

describe("refresh before expiry", () => {
  it("uses a fresh token as is", async () => {
    const calls = fakeFetch();
    setItem("token", { accessToken: "A1", refreshToken: "R1", expiresAt: Date.now() + 10 * REFRESH_MARGIN_MS });
    expect(await ensureFreshToken()).toBe("A1");
    expect(calls).toHaveLength(0);
  });

  it("refreshes once (shared by concurrent callers) when the token is about to expire", async () => {
    const calls = fakeFetch(json(200, tokenBody));
    setItem("token", { accessToken: "A1", refreshToken: "R1", expiresAt: Date.now() + 1000 });
    setItem("loginInfo", { userName: "ana", grantedPolicies: [], token: "A1" });
    const [a, b] = await Promise.all([ensureFreshToken(), ensureFreshToken()]);
    expect([a, b]).toEqual(["A2", "A2"]);
    expect(calls).toHaveLength(1);
    expect(Object.fromEntries(new URLSearchParams(calls[0].init.body as string))).toEqual({
      grant_type: "refresh_token",
      refresh_token: "R1",
    });
    expect(getItem("token")?.refreshToken).toBe("R2");
    expect(getItem("loginInfo")?.token).toBe("A2");
  });

  it("refreshes under a Web Lock; a pair another tab renewed meanwhile is used, the spent token never sent", async () => {
    const calls = fakeFetch(json(200, tokenBody));
    const requested: string[] = [];
    let otherTabFirst = true;
    vi.stubGlobal("navigator", {
      ...navigator,
      locks: {
        request: async (name: string, exchange: () => Promise<unknown>) => {
          requested.push(name);
          // The first time, another tab held the lock and renewed the shared pair (R1 → R9) before this one got it.
          if (otherTabFirst) {
            otherTabFirst = false;
            setItem("token", { accessToken: "A9", refreshToken: "R9", expiresAt: Date.now() + 3600_000 });
          }
          return exchange();
        },
      },
    });
    setItem("token", { accessToken: "A1", refreshToken: "R1", expiresAt: Date.now() + 1000 });
    expect(await ensureFreshToken()).toBe("A9");
    expect(calls).toHaveLength(0);
    expect(requested).toEqual([REFRESH_LOCK]);
    // Due again later, with nobody else renewing: this tab exchanges its own (current) refresh token, under the lock.
    setItem("token", { accessToken: "A9", refreshToken: "R9", expiresAt: Date.now() + 1000 });
    expect(await ensureFreshToken()).toBe("A2");
    expect(calls).toHaveLength(1);
    expect(new URLSearchParams(calls[0].init.body as string).get("refresh_token")).toBe("R9");
    expect(requested).toEqual([REFRESH_LOCK, REFRESH_LOCK]);
  });

  it("a refused refresh clears the token and emits the unauthorised event", async () => {
    fakeFetch(json(400, { error: "invalid_grant", error_description: "expired" }));
    setItem("token", { accessToken: "A1", refreshToken: "R1", expiresAt: Date.now() - 1 });
    const seen = vi.fn();
    const off = onUnauthorized(seen);
    expect(await ensureFreshToken()).toBeNull();
    off();
    expect(seen).toHaveBeenCalledTimes(1);
    expect(getItem("token")).toBeNull();
    expect(getItem("sessionEnding")).toBe("loginExpired");
  });

  it("a refresh refused because the password was changed elsewhere notes why, for Login to say", async () => {
    fakeFetch(
      json(400, {
        error: "invalid_grant",
        error_description: "Your password was changed on another device. Sign in again.",
        ended_reason: "password-changed",
      }),
    );
    setItem("token", { accessToken: "A1", refreshToken: "R1", expiresAt: Date.now() - 1 });
    expect(await ensureFreshToken()).toBeNull();
    expect(getItem("sessionEnding")).toBe("passwordChanged");
  });

  it("a refresh lost on the network keeps the current token", async () => {
    fakeFetch(new TypeError("offline"));
    setItem("token", { accessToken: "A1", refreshToken: "R1", expiresAt: Date.now() - 1 });
    expect(await ensureFreshToken()).toBe("A1");
    expect(getItem("token")?.accessToken).toBe("A1");
  });
});

const profileBody = {
  success: true,
  error: null,
  unAuthorizedRequest: false,
  __abp: true,
  result: {
    id: "u1",
    userName: "ana",
    name: null,
    email: "ana@x.io",
    phoneNumber: null,
    countryCode: null,
    serviceRegion: 1,
    languageType: "en",
    avatar: null,
    creationTime: "2025-01-01T00:00:00.000Z",
  },
};

describe("a 401 refreshes once before giving up", () => {
  it("refreshes and retries the call with the new token", async () => {
    const calls = fakeFetch(json(401, {}), json(200, tokenBody), json(200, profileBody));
    setItem("token", { accessToken: "A1", refreshToken: "R1", expiresAt: Date.now() + 3600_000 });
    const seen = vi.fn();
    const off = onUnauthorized(seen);
    const profile = await api(endpoints.getProfile);
    off();
    expect(profile.userName).toBe("ana");
    expect(calls.map((c) => c.url)).toEqual([
      "/api/basic-data/app/profile/",
      "/connect/token",
      "/api/basic-data/app/profile/",
    ]);
    expect(new Headers(calls[0].init.headers).get("Authorization")).toBe("Bearer A1");
    expect(new Headers(calls[2].init.headers).get("Authorization")).toBe("Bearer A2");
    expect(seen).not.toHaveBeenCalled();
  });

  it("gives up when the refresh is refused: one unauthorised event, token cleared", async () => {
    fakeFetch(json(401, {}), json(400, { error: "invalid_grant", error_description: "revoked" }));
    setItem("token", { accessToken: "A1", refreshToken: "R1", expiresAt: Date.now() + 3600_000 });
    const seen = vi.fn();
    const off = onUnauthorized(seen);
    await expect(api(endpoints.getProfile)).rejects.toMatchObject({ status: 401 });
    off();
    expect(seen).toHaveBeenCalledTimes(1);
    expect(getItem("token")).toBeNull();
    expect(getItem("sessionEnding")).toBe("loginExpired");
  });

  it("retries only once: a second 401 ends it", async () => {
    const calls = fakeFetch(json(401, {}), json(200, tokenBody), json(401, {}));
    setItem("token", { accessToken: "A1", refreshToken: "R1", expiresAt: Date.now() + 3600_000 });
    const seen = vi.fn();
    const off = onUnauthorized(seen);
    await expect(api(endpoints.getProfile)).rejects.toMatchObject({ status: 401 });
    off();
    expect(calls).toHaveLength(3);
    expect(seen).toHaveBeenCalledTimes(1);
  });

  it("uses a token another call refreshed meanwhile without refreshing again", async () => {
    const calls = fakeFetch();
    setItem("token", { accessToken: "A2", refreshToken: "R2", expiresAt: Date.now() + 3600_000 });
    expect(await renewAfterUnauthorized("A1")).toBe("A2");
    expect(calls).toHaveLength(0);
    localStorage.clear();
    expect(await renewAfterUnauthorized("A1")).toBeNull();
  });
});

describe("POST /connect/revocation (logout revokes the refresh token)", () => {
  it("posts the refresh token as a form (RFC 7009)", async () => {
    const calls = fakeFetch(new Response(null, { status: 200 }));
    setItem("token", { accessToken: "A1", refreshToken: "R1", expiresAt: Date.now() + 3600_000 });
    expect(await revokeRefreshToken()).toBe(true);
    expect(calls[0].url).toBe("/connect/revocation");
    expect(calls[0].init.method).toBe("POST");
    expect(Object.fromEntries(new URLSearchParams(calls[0].init.body as string))).toEqual({
      token: "R1",
      token_type_hint: "refresh_token",
    });
  });

  it("ignores every failure", async () => {
    fakeFetch(new TypeError("offline"), json(500, {}));
    setItem("token", { accessToken: "A1", refreshToken: "R1", expiresAt: Date.now() + 3600_000 });
    vi.spyOn(console, "info").mockImplementation(() => {});
    expect(await revokeRefreshToken()).toBe(false);
    expect(await revokeRefreshToken()).toBe(false);
    localStorage.clear();
    expect(await revokeRefreshToken()).toBe(false);
  });
});
