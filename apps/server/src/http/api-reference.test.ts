import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/helpers.ts";
import { API_REFERENCE_PATH } from "./api-reference.ts";
import { OPENAPI_PATH } from "./openapi.ts";

describe("the interactive API reference over /openapi.json, development only", () => {
  let dev: TestApp;
  let production: TestApp;

  beforeAll(async () => {
    dev = await createTestApp({ env: { APP_ENV: "development" } });
    production = await createTestApp({ env: { APP_ENV: "production" } });
  });
  afterAll(async () => {
    await dev?.close();
    await production?.close();
  });

  it("answers an HTML page over /openapi.json whose script comes from this server, allowed by its nonce", async () => {
    const res = await dev.app.inject({ method: "GET", url: `${API_REFERENCE_PATH}/` });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/html/);
    expect(res.body).toContain(JSON.stringify(OPENAPI_PATH).slice(1, -1));
    // Every script is this server's (relative js/scalar.js) or inline with the page's nonce: no CDN.
    const sources = [...res.body.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1]);
    expect(sources).toEqual(["js/scalar.js"]);
    expect(res.body).not.toMatch(/https?:\/\/(cdn|fonts)\./);
    const nonce = /<script[^>]*nonce="([^"]+)"/.exec(res.body)?.[1];
    expect(nonce).toBeTruthy();
    const csp = String(res.headers["content-security-policy"]);
    expect(csp).toContain(`script-src 'self' 'nonce-${nonce}'`);
    expect(csp).toContain("connect-src 'self'");

    const script = await dev.app.inject({ method: "GET", url: `${API_REFERENCE_PATH}/js/scalar.js` });
    expect(script.statusCode).toBe(200);
    expect(script.headers["content-type"]).toMatch(/^application\/javascript/);
    expect(script.body.length).toBeGreaterThan(100_000);
    // Without the trailing slash: sent to the page (its script's address is relative).
    const bare = await dev.app.inject({ method: "GET", url: API_REFERENCE_PATH });
    expect(bare.statusCode).toBe(301);
    expect(bare.headers.location).toBe(`${API_REFERENCE_PATH}/`);
  });

  it("keeps the app's own policy everywhere else", async () => {
    const res = await dev.app.inject({ method: "GET", url: OPENAPI_PATH });
    expect(String(res.headers["content-security-policy"])).not.toContain("nonce-");
  });

  it("is not there in production (404 in the error envelope)", async () => {
    for (const url of [API_REFERENCE_PATH, `${API_REFERENCE_PATH}/`, `${API_REFERENCE_PATH}/js/scalar.js`]) {
      const res = await production.app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error.code, url).toBe("NotFound");
    }
  });
});
