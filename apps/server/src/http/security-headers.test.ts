import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { endpoints, HUB_PATHS } from "@aquapilot/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../../test/call.ts";
import { createTestApp, type TestApp } from "../../test/helpers.ts";
import { loadConfig } from "../config.ts";
import { uploadsDir } from "../modules/files/service.ts";
import { registerHubs } from "../realtime/index.ts";
import {
  contentSecurityPolicy,
  HSTS,
  IMMUTABLE,
  inlineScriptHashes,
  NO_STORE,
  PERMISSIONS_POLICY,
  REVALIDATE,
  webAppCacheControl,
} from "./security-headers.ts";

/** An answer's headers, names in lower case: what inject answers and what `call` answers alike. */
interface WithHeaders {
  headers: Record<string, string | string[] | number | undefined>;
}

/** The CSP header as directive → sources. */
function csp(res: WithHeaders): Map<string, string[]> {
  const header = String(res.headers["content-security-policy"] ?? "");
  return new Map(
    header
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...sources]) => [name, sources]),
  );
}

let checked = 0;
/** Headers only a page needs, never on the API's answers (a kilobyte of every answer otherwise). */
const PAGE_ONLY = [
  "cross-origin-opener-policy",
  "origin-agent-cluster",
  "x-dns-prefetch-control",
  "x-download-options",
  "x-permitted-cross-domain-policies",
  "x-xss-protection",
];

/**
 * The headers every answer carries: CSP that forbids framing, nosniff, DENY, a referrer policy. A page or
 * file: the page's CSP (`default-src 'self'`, no plugins). An answer of the API, /connect, the hubs' negotiation
 * (`api`): a CSP that allows nothing (`default-src 'none'`) and none of the page-only headers.
 */
function expectBaseHeaders(res: WithHeaders, kind: "page" | "api"): void {
  checked++;
  const policy = csp(res);
  expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
  if (kind === "api") {
    expect(policy.get("default-src")).toEqual(["'none'"]);
    expect([...policy.keys()].sort()).toEqual(["default-src", "frame-ancestors"]);
    for (const name of PAGE_ONLY) expect(res.headers[name], name).toBeUndefined();
    expect(res.headers["cross-origin-resource-policy"]).toBe("same-origin");
  } else {
    expect(policy.get("default-src")).toEqual(["'self'"]);
    expect(policy.get("object-src")).toEqual(["'none'"]);
    expect(res.headers["cross-origin-opener-policy"]).toBe("same-origin");
  }
  expect(res.headers["x-frame-options"]).toBe("DENY");
  expect(res.headers["x-content-type-options"]).toBe("nosniff");
  expect(res.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(res.headers["x-powered-by"]).toBeUndefined();
}

/** An inline boot script, and its CSP source: base64 of its SHA-256 (as `openssl sha256 -binary | base64` computes it). */
const BOOT = 'boot("é")';
const BOOT_SOURCE = `'sha256-${createHash("sha256").update(BOOT, "utf8").digest("base64")}'`;

describe("inlineScriptHashes", () => {
  it("names each inline classic script once, by the SHA-256 of its exact UTF-8 text, and skips scripts by URL", () => {
    const html = `<head><script data-entry="/a.js">${BOOT}</script><SCRIPT>x()</SCRIPT ><script src="/b.js"></script><script type="module" src="/c.js">ignored()</script><script>${BOOT}</script></head>`;
    expect(inlineScriptHashes(html)).toEqual([BOOT_SOURCE, "'sha256-D6IGS8VMvCoyaR/l0h9tERrBTATY01CoPS7l6xDv0kI='"]);
    expect(inlineScriptHashes("<title>x</title>")).toEqual([]);
  });
});

describe("security headers and caching", () => {
  let t: TestApp;
  let web: string;
  const asset = "assets/index-Ab12Cd34.js";

  beforeAll(async () => {
    web = fs.mkdtempSync(path.join(os.tmpdir(), "aq-web-"));
    fs.mkdirSync(path.join(web, "assets"));
    fs.mkdirSync(path.join(web, "device-images"));
    // As the build writes it: the boot script inline in the head, the rest by URL.
    fs.writeFileSync(
      path.join(web, "index.html"),
      `<!doctype html><title>AquaPilot</title><script data-entry="/${asset}">${BOOT}</script><script src="/x.js"></script>`,
    );
    fs.writeFileSync(path.join(web, "version.json"), '{"version":"1"}');
    fs.writeFileSync(path.join(web, "sw.js"), "self.addEventListener('push', () => {});");
    fs.writeFileSync(path.join(web, asset), "export {};");
    fs.writeFileSync(path.join(web, "device-images", "softener.png"), "png");
    t = await createTestApp({ webDistDir: web });
    const dir = path.join(uploadsDir(t.config.DATA_DIR), "files");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "0123456789abcdef0123456789abcdef.png"), "png");
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(web, { recursive: true, force: true });
    console.log(`security headers: ${checked} answers checked for CSP, framing, nosniff and referrer policy`);
  });

  it("answers the API with no-store and the security headers, success or error", async () => {
    for (const [url, answer] of [
      [endpoints.applicationConfiguration.path, () => call(t, endpoints.applicationConfiguration)],
      [endpoints.appConfigSetting.path, () => call(t, endpoints.appConfigSetting)],
      ["/api/no-such-call", () => t.app.inject({ method: "GET", url: "/api/no-such-call" })],
    ] as const) {
      const res = await answer();
      expectBaseHeaders(res, "api");
      expect(res.headers["cache-control"], url).toBe(NO_STORE);
    }
  });

  it("answers /connect/token with no-store, also when the grant fails", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/connect/token",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "grant_type=password&username=nobody%40x.test&password=wrong-pass&client_id=App",
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expectBaseHeaders(res, "api");
    expect(res.headers["cache-control"]).toBe(NO_STORE);
  });

  it("serves hashed assets immutable, and index.html, version.json, sw.js and pictures revalidated", async () => {
    const expected: Array<[string, string]> = [
      ["/", REVALIDATE],
      ["/index.html", REVALIDATE],
      ["/version.json", REVALIDATE],
      ["/sw.js", REVALIDATE],
      ["/device-images/softener.png", REVALIDATE],
      [`/${asset}`, IMMUTABLE],
    ];
    for (const [url, cacheControl] of expected) {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["cache-control"], url).toBe(cacheControl);
      expectBaseHeaders(res, "page");
    }
    expect(webAppCacheControl("assets/x-1.css")).toBe(IMMUTABLE);
    expect(webAppCacheControl("assets.html")).toBe(REVALIDATE);
  });

  it("serves uploads for a year, immutable, with nosniff (their names are random and never reused)", async () => {
    const res = await t.app.inject({ method: "GET", url: "/uploads/files/0123456789abcdef0123456789abcdef.png" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expectBaseHeaders(res, "page");
  });

  it("has a strict CSP: no inline or eval script, no inline style, hubs on the app's own origin, no framing", async () => {
    const res = await t.app.inject({ method: "GET", url: "/", headers: { host: "app.example.com:8443" } });
    const policy = csp(res);
    for (const directive of ["script-src", "style-src"]) {
      const sources = policy.get(directive) ?? [];
      expect(sources, directive).toContain("'self'");
      expect(sources.join(" "), directive).not.toMatch(/unsafe|\*|https?:$|data:/);
    }
    expect(policy.get("script-src-attr")).toEqual(["'none'"]);
    // No PUBLIC_ORIGIN configured: the hubs are 'self', and the request's host is not in the policy.
    expect(policy.get("connect-src")).toEqual(["'self'", "https://api.tianditu.gov.cn"]);
    expect(policy.get("img-src")).toEqual(expect.arrayContaining(["'self'", "data:", "blob:"]));
    expect(policy.get("worker-src")).toEqual(["'self'"]);
    expect(policy.get("base-uri")).toEqual(["'self'"]);
    // The default map provider (MAP_TYPE 4, Tianditu): its tile and web-service hosts, no JSONP host.
    expect(policy.get("img-src")).toContain("https://*.tianditu.gov.cn");
    // Scripts: the app's origin and the page's own inline boot script by its hash, nothing else.
    expect(policy.get("script-src")).toEqual(["'self'", BOOT_SOURCE]);
  });

  it("sends the same policy whatever Host or X-Forwarded-Host a request names, hostile ones included", async () => {
    const first = await t.app.inject({ method: "GET", url: "/" });
    const policy = first.headers["content-security-policy"];
    expect(policy).toBeTruthy();
    for (const host of [
      "app.example.com:8443",
      "evil.test; script-src *",
      "evil.test 'unsafe-inline'",
      "a,b",
      "[::1]:8080",
    ]) {
      const res = await t.app.inject({ method: "GET", url: "/", headers: { host, "x-forwarded-host": host } });
      expect(res.statusCode, host).toBe(200);
      expect(res.headers["content-security-policy"], host).toBe(policy);
    }
  });

  it("lets the hubs connect to the configured public origin's WebSocket address, and nothing else", () => {
    const withOrigin = (PUBLIC_ORIGIN: string | undefined) =>
      contentSecurityPolicy({ MAP_TYPE: 4, PUBLIC_ORIGIN }, [])["connect-src"];
    expect(withOrigin("https://app.example.com")).toEqual([
      "'self'",
      "wss://app.example.com",
      "https://api.tianditu.gov.cn",
    ]);
    expect(withOrigin("http://192.168.1.5:8080")).toEqual([
      "'self'",
      "ws://192.168.1.5:8080",
      "https://api.tianditu.gov.cn",
    ]);
    expect(withOrigin(undefined)).toEqual(["'self'", "https://api.tianditu.gov.cn"]);
    expect(() => loadConfig({ PUBLIC_ORIGIN: "https://app.example.com/path" })).toThrow(/PUBLIC_ORIGIN/);
    expect(() => loadConfig({ PUBLIC_ORIGIN: "https://evil.test; script-src *" })).toThrow(/PUBLIC_ORIGIN/);
    expect(loadConfig({ PUBLIC_ORIGIN: "https://app.example.com:8443" }).PUBLIC_ORIGIN).toBe(
      "https://app.example.com:8443",
    );
  });

  it("sends a Permissions-Policy on pages: camera, geolocation and Bluetooth for the app only, the rest for nobody", async () => {
    const res = await t.app.inject({ method: "GET", url: "/" });
    expect(res.headers["permissions-policy"]).toBe(PERMISSIONS_POLICY);
    const features = new Map(
      String(res.headers["permissions-policy"])
        .split(", ")
        .map((entry) => entry.split("=") as [string, string]),
    );
    expect(features.get("camera")).toBe("(self)");
    expect(features.get("geolocation")).toBe("(self)");
    expect(features.get("bluetooth")).toBe("(self)");
    for (const feature of ["microphone", "payment", "usb"]) expect(features.get(feature), feature).toBe("()");
  });

  it("sends HSTS only when the request came over TLS (X-Forwarded-Proto through the trusted proxy)", async () => {
    const plain = await call(t, endpoints.applicationConfiguration);
    expect(plain.headers["strict-transport-security"]).toBeUndefined();
    const tls = await call(t, endpoints.applicationConfiguration, { headers: { "x-forwarded-proto": "https" } });
    expect(tls.headers["strict-transport-security"]).toBe(HSTS);
    const page = await t.app.inject({ method: "GET", url: "/", headers: { "x-forwarded-proto": "https" } });
    expect(page.headers["strict-transport-security"]).toBe(HSTS);
  });
});

describe("security headers on the hubs' negotiation and per map provider", () => {
  it("answers a hub negotiation (refused here) with no-store and the headers", async () => {
    // registerHubs must run before ready: a second app with the hubs mounted.
    const hubs = await createTestApp({
      env: { MAP_TYPE: "2" },
      beforeReady: (built, bus) =>
        registerHubs(built, {
          bus,
          auth: { authenticate: async () => null, familyIdsOf: async () => [], memberIdsOf: async () => [] },
        }),
    });
    const { app } = hubs;
    try {
      const res = await app.inject({ method: "POST", url: `${HUB_PATHS.deviceChange}/negotiate?negotiateVersion=1` });
      expect(res.statusCode).toBe(401);
      expectBaseHeaders(res, "api");
      expect(res.headers["cache-control"]).toBe(NO_STORE);
      // MAP_TYPE 2 (Baidu), in the pages' policy: its tiles and its JSONP web service, nothing of the other vendors.
      const page = await app.inject({ method: "GET", url: "/no-such-page" });
      expectBaseHeaders(page, "page");
      const policy = csp(page);
      expect(policy.get("script-src")).toEqual(["'self'", "https://api.map.baidu.com"]);
      expect(policy.get("img-src")).toContain("https://*.bdimg.com");
      expect(String(page.headers["content-security-policy"])).not.toMatch(/tianditu|autonavi|gtimg|qq\.com/);
    } finally {
      await hubs.close();
    }
  });
});
