import { endpoints, HUB_PATHS } from "@aquapilot/contract/wire";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { i18n } from "../i18n/index.ts";
import { createHubConnection } from "../realtime/hub-connection.ts";
import { setItem } from "../storage/index.ts";
import { apiBaseUrl, imageUrl, setApiBaseUrl } from "./api-host.ts";
import { api } from "./client.ts";
import { callUrl } from "./declared-request.ts";
import { fakeFetch, json } from "./testing/fake-fetch.ts";
import { loginWithPassword, revokeRefreshToken } from "./token.ts";
import { setTenant } from "./transport.ts";

/**
 * The API host of the native shells, whose page comes from the web view's own origin: once `setApiBaseUrl` has the
 * cloud's address (main.tsx, from the shell's config), every call, token call, image, file URL and hub goes there with
 * the same headers as on the page's own origin.
 */

const CLOUD = "https://cloud.example:8443";

const envelope = (result: unknown) => ({ success: true, result, error: null, unAuthorizedRequest: false, __abp: true });

beforeEach(async () => {
  localStorage.clear();
  await i18n.changeLanguage("en");
  setApiBaseUrl(`${CLOUD}/`);
  setTenant("t-1");
});
afterEach(() => {
  setApiBaseUrl("");
  setTenant(null);
  vi.unstubAllGlobals();
});

describe("API host of the native shells (the cloud their config names)", () => {
  it("sends an API call to the configured host with the bearer token, language and tenant", async () => {
    setItem("token", { accessToken: "tok", refreshToken: "ref", expiresAt: Date.now() + 3600_000 });
    const calls = fakeFetch(json(200, envelope({ items: [], totalCount: 0 })));
    await api(endpoints.getFamilies, { query: { skipCount: 0, maxResultCount: 15 } });
    expect(apiBaseUrl()).toBe(CLOUD);
    expect(calls[0].url).toBe(`${CLOUD}/api/run-lucky/device/app/family/?skipCount=0&maxResultCount=15`);
    const headers = new Headers(calls[0].init.headers);
    expect(headers.get("Authorization")).toBe("Bearer tok");
    expect(headers.get("Accept-Language")).toBe("en");
    expect(headers.get("__tenant")).toBe("t-1");
    // never cookies across origins: the default credentials mode ("same-origin") is kept
    expect(calls[0].init.credentials).toBeUndefined();
  });

  it("signs in and revokes at the configured host's token endpoint", async () => {
    const calls = fakeFetch(
      json(200, { access_token: "a", token_type: "Bearer", expires_in: 3600, refresh_token: "r" }),
      new Response(null, { status: 200 }),
    );
    await loginWithPassword("demo@aquapilot.local", "demo1234");
    expect(calls[0].url).toBe(`${CLOUD}/connect/token`);
    expect(new Headers(calls[0].init.headers).get("__tenant")).toBe("t-1");
    expect(await revokeRefreshToken()).toBe(true);
    expect(calls[1].url).toBe(`${CLOUD}/connect/revocation`);
  });

  it("prefixes images, file URLs and the hubs with the configured host", () => {
    expect(imageUrl("/uploads/files/a.png")).toBe(`${CLOUD}/uploads/files/a.png`);
    expect(imageUrl({ fileUrl: "uploads/files/b.png" })).toBe(`${CLOUD}/uploads/files/b.png`);
    expect(imageUrl("data:image/png;base64,AA")).toBe("data:image/png;base64,AA");
    expect(callUrl(endpoints.getFamily, { params: { id: "f 1" } })).toBe(
      `${CLOUD}/api/run-lucky/device/app/family/f%201`,
    );
    const hub = createHubConnection(HUB_PATHS.message, () => "tok", apiBaseUrl()) as unknown as { baseUrl: string };
    expect(hub.baseUrl).toBe(`${CLOUD}${HUB_PATHS.message}`);
  });

  it("keeps the page's own origin when no host is set (a plain browser)", async () => {
    setApiBaseUrl("");
    const calls = fakeFetch(json(200, { access_token: "a", token_type: "Bearer", expires_in: 60, refresh_token: "r" }));
    await loginWithPassword("demo@aquapilot.local", "demo1234");
    expect(calls[0].url).toBe("/connect/token");
    expect(imageUrl("/uploads/files/a.png")).toBe("/uploads/files/a.png");
  });
});

describe("helpers", () => {
  beforeEach(() => setApiBaseUrl(""));

  it("imageUrl prefixes relative paths and fileUrl objects", () => {
    expect(imageUrl("/files/a.png")).toBe("/files/a.png");
    expect(imageUrl({ fileUrl: "files/b.png" })).toBe("/files/b.png");
    expect(imageUrl("https://cdn.example/x.png")).toBe("https://cdn.example/x.png");
    expect(imageUrl(null)).toBeNull();
  });
});
