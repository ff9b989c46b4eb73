import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { endpoints, HUB_PATHS } from "@aquapilot/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/helpers.ts";
import { loadConfig } from "../config.ts";
import { uploadsDir } from "../modules/files/service.ts";
import { registerHubs } from "../realtime/index.ts";
import { CORS_EXPOSED_HEADERS, CORS_METHODS } from "./cors.ts";

const ANDROID = "https://localhost";
const IOS = "capacitor://localhost";
const FOREIGN = "https://evil.example";
const UPLOAD = "/uploads/files/0123456789abcdef0123456789abcdef.png";

const preflight = (origin: string, url: string, method = "POST") => ({
  method: "OPTIONS" as const,
  url,
  headers: {
    origin,
    "access-control-request-method": method,
    "access-control-request-headers": "authorization,content-type,accept-language,__tenant,x-time-zone",
  },
});

/** The CORS headers of an answer, names in lower case. */
function corsHeaders(headers: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name.startsWith("access-control-")));
}

describe("CORS for the native shells' origins only, without credentials", () => {
  let t: TestApp;
  let web: string;

  beforeAll(async () => {
    web = fs.mkdtempSync(path.join(os.tmpdir(), "aq-web-"));
    fs.mkdirSync(path.join(web, "device-images"));
    fs.writeFileSync(path.join(web, "index.html"), "<!doctype html><title>AquaPilot</title>");
    fs.writeFileSync(path.join(web, "device-images", "softener.png"), "png");
    t = await createTestApp({
      webDistDir: web,
      beforeReady: (built, bus) =>
        registerHubs(built, {
          bus,
          auth: { authenticate: async () => null, familyIdsOf: async () => [], memberIdsOf: async () => [] },
        }),
    });
    const dir = path.join(uploadsDir(t.config.DATA_DIR), "files");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, path.basename(UPLOAD)), "png");
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(web, { recursive: true, force: true });
  });

  it("answers a shell's preflight for the API, /connect/token and the hubs' negotiate with 204", async () => {
    for (const origin of [ANDROID, IOS]) {
      for (const url of [
        endpoints.getFamilies.path,
        "/connect/token",
        `${HUB_PATHS.message}/negotiate?negotiateVersion=1`,
        `${HUB_PATHS.deviceChange}/negotiate?negotiateVersion=1`,
      ]) {
        const res = await t.app.inject(preflight(origin, url));
        expect(res.statusCode, `${origin} ${url}`).toBe(204);
        expect(res.headers["access-control-allow-origin"]).toBe(origin);
        expect(res.headers["access-control-allow-methods"]).toBe(CORS_METHODS);
        const allowed = String(res.headers["access-control-allow-headers"]).toLowerCase().split(/,\s*/);
        expect(allowed).toEqual(
          expect.arrayContaining(["authorization", "content-type", "accept-language", "__tenant", "x-time-zone"]),
        );
        expect(res.headers["access-control-allow-credentials"]).toBeUndefined();
        expect(res.headers.vary).toContain("Origin");
      }
    }
  });

  it("gives a shell's calls its origin (never *), the exposed headers and no credentials", async () => {
    const open = await t.app.inject({
      method: "GET",
      url: endpoints.appConfigSetting.path,
      headers: { origin: ANDROID },
    });
    expect(open.statusCode).toBe(200);
    expect(open.headers["access-control-allow-origin"]).toBe(ANDROID);
    expect(open.headers["access-control-expose-headers"]).toBe(CORS_EXPOSED_HEADERS);
    expect(open.headers["access-control-allow-credentials"]).toBeUndefined();
    // an error answer too: the app must read the envelope's message
    const refused = await t.app.inject({ method: "GET", url: endpoints.getFamilies.path, headers: { origin: IOS } });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers["access-control-allow-origin"]).toBe(IOS);
    const token = await t.app.inject({
      method: "POST",
      url: "/connect/token",
      headers: { origin: IOS, "content-type": "application/x-www-form-urlencoded" },
      payload: "grant_type=password&username=nobody%40x.test&password=wrong-pass",
    });
    expect(token.statusCode).toBeGreaterThanOrEqual(400);
    expect(token.headers["access-control-allow-origin"]).toBe(IOS);
  });

  it("gives a foreign origin no CORS header at all, and its preflight is not answered", async () => {
    const res = await t.app.inject(preflight(FOREIGN, endpoints.getFamilies.path));
    expect(res.statusCode).not.toBe(204);
    expect(corsHeaders(res.headers)).toEqual({});
    const call = await t.app.inject({
      method: "GET",
      url: endpoints.appConfigSetting.path,
      headers: { origin: FOREIGN },
    });
    expect(call.statusCode).toBe(200);
    expect(corsHeaders(call.headers)).toEqual({});
    // a look-alike of an allowed origin (other port, other scheme) is foreign
    for (const origin of ["https://localhost:8443", "http://localhost", "capacitor://localhost.evil.example"]) {
      const other = await t.app.inject(preflight(origin, "/connect/token"));
      expect(corsHeaders(other.headers), origin).toEqual({});
    }
  });

  it("leaves the browser's same-origin app and the web build's pages alone", async () => {
    const page = await t.app.inject({ method: "GET", url: "/", headers: { origin: ANDROID } });
    expect(page.statusCode).toBe(200);
    expect(corsHeaders(page.headers)).toEqual({});
    expect(page.headers["cross-origin-resource-policy"]).toBe("same-origin");
    const plain = await t.app.inject({ method: "GET", url: endpoints.appConfigSetting.path });
    expect(corsHeaders(plain.headers)).toEqual({});
    expect(plain.headers["cross-origin-resource-policy"]).toBe("same-origin");
  });

  it("lets a shell's <img> load uploads and the build's pictures (CORP cross-origin)", async () => {
    for (const url of [UPLOAD, "/device-images/softener.png"]) {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["cross-origin-resource-policy"], url).toBe("cross-origin");
    }
  });

  it("reads CORS_ORIGINS: the shells by default, a list, none; refuses wildcards and paths", () => {
    expect(loadConfig({}).CORS_ORIGINS).toEqual([ANDROID, IOS]);
    expect(loadConfig({ CORS_ORIGINS: "http://localhost:5173, https://app.example:8443" }).CORS_ORIGINS).toEqual([
      "http://localhost:5173",
      "https://app.example:8443",
    ]);
    expect(loadConfig({ CORS_ORIGINS: "none" }).CORS_ORIGINS).toEqual([]);
    for (const bad of ["*", "https://*.example", "https://app.example/path", "localhost"]) {
      expect(() => loadConfig({ CORS_ORIGINS: bad }), bad).toThrow(/CORS_ORIGINS/);
    }
  });
});
