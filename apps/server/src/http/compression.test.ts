import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import zlib from "node:zlib";
import { endpoints, HUB_PATHS } from "@aquapilot/contract";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/helpers.ts";
import { uploadsDir } from "../modules/files/service.ts";
import { registerHubs } from "../realtime/index.ts";
import { COMPRESSION_THRESHOLD_BYTES, skipsCompression, variesByEncoding } from "./compression.ts";
import { IMMUTABLE, NO_STORE, REVALIDATE } from "./security-headers.ts";

/**
 * Compression and caching, so a phone opens the app fast: the web app's precompressed files picked by
 * Accept-Encoding, the dynamic answers compressed by @fastify/compress, what stays uncompressed, and the onSend hooks
 * around them.
 */

/** The body of an answer decoded by its Content-Encoding (br, gzip or none). */
function decoded(res: LightMyRequestResponse): Buffer {
  const encoding = res.headers["content-encoding"];
  if (encoding === "br") return zlib.brotliDecompressSync(res.rawPayload);
  if (encoding === "gzip") return zlib.gunzipSync(res.rawPayload);
  expect(encoding, "unexpected content-encoding").toBeUndefined();
  return res.rawPayload;
}

/** Writes `file` under `dir` and, like the build (apps/web/vite-delivery.ts), its `.br` (quality 11) and `.gz` (-9). */
function writeWithVariants(dir: string, file: string, content: string | Buffer): Buffer {
  const bytes = Buffer.from(content);
  const full = path.join(dir, file);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, bytes);
  fs.writeFileSync(
    `${full}.br`,
    zlib.brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
  );
  fs.writeFileSync(`${full}.gz`, zlib.gzipSync(bytes, { level: 9 }));
  return bytes;
}

/** Text of `lines` numbered lines: compressible, distinct per file, large enough to be worth compressing. */
function text(kind: string, lines = 200): string {
  return Array.from({ length: lines }, (_, i) => `/* ${kind} line ${i} */ const v${i} = "${kind}-${i * 7}";`).join(
    "\n",
  );
}

describe("web app delivery: precompressed files by Accept-Encoding, cache headers by kind", () => {
  let t: TestApp;
  let web: string;
  const files = new Map<string, Buffer>();

  beforeAll(async () => {
    web = fs.mkdtempSync(path.join(os.tmpdir(), "aq-web-"));
    files.set(
      "index.html",
      writeWithVariants(web, "index.html", `<!doctype html><title>AquaPilot</title>${text("html")}`),
    );
    files.set("assets/index-Ab12Cd34.js", writeWithVariants(web, "assets/index-Ab12Cd34.js", text("js")));
    files.set("assets/index-Ef56Gh78.css", writeWithVariants(web, "assets/index-Ef56Gh78.css", text("css")));
    files.set("sw.js", writeWithVariants(web, "sw.js", text("sw")));
    files.set("manifest.webmanifest", writeWithVariants(web, "manifest.webmanifest", `{"name":"${text("m", 40)}"}`));
    files.set(
      "favicon.svg",
      writeWithVariants(web, "favicon.svg", `<svg xmlns="http://www.w3.org/2000/svg">${text("svg", 30)}</svg>`),
    );
    // Left uncompressed by the build: too small (version.json) or compressed already (pictures).
    fs.writeFileSync(path.join(web, "version.json"), '{"version":"1"}');
    fs.mkdirSync(path.join(web, "device-images"));
    fs.writeFileSync(path.join(web, "device-images", "softener.png"), Buffer.alloc(4096, 7));
    t = await createTestApp({ webDistDir: web });
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(web, { recursive: true, force: true });
  });

  const cases: Array<[url: string, file: string, type: RegExp, cacheControl: string]> = [
    ["/", "index.html", /^text\/html/, REVALIDATE],
    ["/index.html", "index.html", /^text\/html/, REVALIDATE],
    ["/assets/index-Ab12Cd34.js", "assets/index-Ab12Cd34.js", /javascript/, IMMUTABLE],
    ["/assets/index-Ef56Gh78.css", "assets/index-Ef56Gh78.css", /^text\/css/, IMMUTABLE],
    ["/sw.js", "sw.js", /javascript/, REVALIDATE],
    ["/manifest.webmanifest", "manifest.webmanifest", /manifest\+json/, REVALIDATE],
    ["/favicon.svg", "favicon.svg", /^image\/svg\+xml/, REVALIDATE],
  ];
  const encodings: Array<[acceptEncoding: string | undefined, expected: string | undefined]> = [
    ["gzip, deflate, br", "br"],
    ["br", "br"],
    ["gzip", "gzip"],
    ["br;q=0, gzip", "gzip"],
    ["identity", undefined],
    [undefined, undefined],
  ];

  it("sends the build's .br or .gz copy by Accept-Encoding, byte-identical once decoded, with Vary and its caching", async () => {
    for (const [url, file, type, cacheControl] of cases) {
      for (const [acceptEncoding, expected] of encodings) {
        const label = `${url} with ${acceptEncoding ?? "no Accept-Encoding"}`;
        const headers = acceptEncoding === undefined ? {} : { "accept-encoding": acceptEncoding };
        const res = await t.app.inject({ method: "GET", url, headers });
        expect(res.statusCode, label).toBe(200);
        expect(res.headers["content-encoding"], label).toBe(expected);
        expect(res.headers["content-type"], label).toMatch(type);
        expect(String(res.headers.vary), label).toMatch(/accept-encoding/i);
        expect(res.headers["cache-control"], label).toBe(cacheControl);
        expect(Number(res.headers["content-length"]), label).toBe(res.rawPayload.length);
        if (expected) expect(res.rawPayload.length, label).toBeLessThan(files.get(file)!.length);
        expect(decoded(res).equals(files.get(file)!), label).toBe(true);
      }
    }
  });

  it("answers a repeated request with 304 on its ETag, per encoding, for the revalidated files", async () => {
    for (const url of ["/", "/index.html", "/sw.js", "/manifest.webmanifest", "/version.json"]) {
      for (const acceptEncoding of ["br", "gzip", "identity"]) {
        const first = await t.app.inject({ method: "GET", url, headers: { "accept-encoding": acceptEncoding } });
        const etag = first.headers.etag;
        expect(etag, url).toBeTruthy();
        const again = await t.app.inject({
          method: "GET",
          url,
          headers: { "accept-encoding": acceptEncoding, "if-none-match": String(etag) },
        });
        expect(again.statusCode, `${url} ${acceptEncoding}`).toBe(304);
        expect(again.rawPayload.length).toBe(0);
        expect(again.headers["cache-control"]).toBe(REVALIDATE);
      }
    }
    // Each encoding is its own file, so its own ETag: a gzip copy never validates a brotli one.
    const br = await t.app.inject({ method: "GET", url: "/", headers: { "accept-encoding": "br" } });
    const gz = await t.app.inject({ method: "GET", url: "/", headers: { "accept-encoding": "gzip" } });
    expect(br.headers.etag).not.toBe(gz.headers.etag);
  });

  it("sends files the build left uncompressed as they are, without compressing them on the fly", async () => {
    for (const [url, type] of [
      ["/version.json", /json/],
      ["/device-images/softener.png", /^image\/png/],
    ] as const) {
      const res = await t.app.inject({ method: "GET", url, headers: { "accept-encoding": "gzip, deflate, br" } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["content-encoding"], url).toBeUndefined();
      expect(res.headers["content-type"], url).toMatch(type);
      expect(res.headers["cache-control"], url).toBe(REVALIDATE);
    }
  });

  it("sends uploads (images, compressed already) uncompressed, cached for a year", async () => {
    const dir = path.join(uploadsDir(t.config.DATA_DIR), "files");
    fs.mkdirSync(dir, { recursive: true });
    const name = "0123456789abcdef0123456789abcdef.png";
    fs.writeFileSync(path.join(dir, name), Buffer.alloc(8192, 1));
    const res = await t.app.inject({
      method: "GET",
      url: `/uploads/files/${name}`,
      headers: { "accept-encoding": "gzip, deflate, br" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.rawPayload.length).toBe(8192);
    expect(res.headers["cache-control"]).toBe(IMMUTABLE);
  });

  it("knows which files vary by encoding and which routes compression leaves alone", () => {
    expect(variesByEncoding("assets/index-Ab12Cd34.js")).toBe(true);
    expect(variesByEncoding("assets/index-Ab12Cd34.js.br")).toBe(true);
    expect(variesByEncoding("index.html.gz")).toBe(true);
    expect(variesByEncoding("manifest.webmanifest")).toBe(true);
    expect(variesByEncoding("device-images/softener.png")).toBe(false);
    expect(variesByEncoding("assets/font-1.woff2")).toBe(false);
    expect(skipsCompression("/*")).toBe(true);
    expect(skipsCompression(`${HUB_PATHS.message}/negotiate`)).toBe(true);
    expect(skipsCompression("/uploads/*")).toBe(true);
    expect(skipsCompression("/api/app/family")).toBe(false);
    expect(skipsCompression("/connect/token")).toBe(false);
  });
});

describe("dynamic answers compressed by @fastify/compress", () => {
  let t: TestApp;
  const regions = `${endpoints.getRegionChildren.path}?serviceRegion=2`;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it("compresses API JSON above the threshold by Accept-Encoding, keeping no-store and the security headers", async () => {
    const plain = await t.app.inject({ method: "POST", url: regions });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    // The region roots are well above the threshold, or this test would prove nothing.
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESSION_THRESHOLD_BYTES);
    for (const [acceptEncoding, expected] of [
      ["gzip, deflate, br", "br"],
      ["gzip", "gzip"],
      ["deflate", undefined],
      ["identity", undefined],
    ] as const) {
      const res = await t.app.inject({ method: "POST", url: regions, headers: { "accept-encoding": acceptEncoding } });
      expect(res.statusCode, acceptEncoding).toBe(200);
      expect(res.headers["content-encoding"], acceptEncoding).toBe(expected);
      if (expected) {
        expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
        expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
      }
      expect(decoded(res).equals(plain.rawPayload), acceptEncoding).toBe(true);
      expect(res.headers["cache-control"]).toBe(NO_STORE);
      expect(res.headers["x-request-id"]).toBeTruthy();
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(String(res.headers["content-security-policy"])).toContain("frame-ancestors 'none'");
    }
  });

  it("leaves answers below the threshold uncompressed", async () => {
    for (const [method, url] of [
      ["GET", "/api/abp/application-configuration"],
      ["GET", "/api/no-such-call"],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: { "accept-encoding": "gzip, deflate, br" } });
      expect(res.rawPayload.length, url).toBeLessThan(COMPRESSION_THRESHOLD_BYTES);
      expect(res.headers["content-encoding"], url).toBeUndefined();
      expect(res.headers["cache-control"], url).toBe(NO_STORE);
    }
  });

  it("stores the uncompressed answer for Idempotency-Key and replays it compressed alike", async () => {
    const headers = { "accept-encoding": "br", "idempotency-key": "compress-replay-1" };
    const first = await t.app.inject({ method: "POST", url: regions, headers });
    expect(first.statusCode).toBe(200);
    expect(first.headers["content-encoding"]).toBe("br");
    expect(first.headers["idempotency-replayed"]).toBeUndefined();
    const replay = await t.app.inject({ method: "POST", url: regions, headers });
    expect(replay.headers["idempotency-replayed"]).toBe("true");
    expect(replay.statusCode).toBe(200);
    expect(replay.headers["content-encoding"]).toBe("br");
    expect(decoded(replay).equals(decoded(first))).toBe(true);
    const stored = await t.db.selectFrom("idempotency_keys").select(["key", "response_body"]).execute();
    const row = stored.find((r) => r.key === "compress-replay-1");
    expect(row?.response_body).toBe(decoded(first).toString("utf8"));
  });
});

describe("compression around streams and the hubs", () => {
  let app: FastifyInstance;
  let close: () => Promise<void>;
  const csv = Array.from({ length: 2000 }, (_, i) => `2026-01-01T00:${String(i % 60).padStart(2, "0")}:00Z,${i}\n`);

  beforeAll(async () => {
    const t = await createTestApp({
      beforeReady: (built, bus) => {
        registerHubs(built, {
          bus,
          auth: {
            authenticate: async (token) => (token === "good" ? { userId: "u1", sessionId: "s1" } : null),
            familyIdsOf: async () => [],
            memberIdsOf: async () => [],
          },
        });
        // A streamed answer declared after buildApp, as the CSV export streams its rows (no Content-Length).
        built.get("/api/test/stream.csv", (_request, reply) =>
          reply.type("text/csv; charset=utf-8").send(Readable.from(csv, { objectMode: false })),
        );
      },
    });
    app = t.app;
    close = () => t.close();
  });
  afterAll(async () => {
    await close?.();
  });

  it("compresses a streamed answer on the fly, whole once decoded", async () => {
    const res = await getWith(app, "/api/test/stream.csv", "gzip, br");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.headers["content-length"]).toBeUndefined();
    expect(decoded(res).toString("utf8")).toBe(csv.join(""));
    const gz = await getWith(app, "/api/test/stream.csv", "gzip");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(decoded(gz).toString("utf8")).toBe(csv.join(""));
  });

  it("leaves the hubs' negotiation uncompressed and working", async () => {
    const res = await app.inject({
      method: "POST",
      url: `${HUB_PATHS.deviceChange}/negotiate?negotiateVersion=1`,
      headers: { authorization: "Bearer good", "accept-encoding": "gzip, deflate, br" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-encoding"]).toBeUndefined();
    const body = res.json() as { negotiateVersion: number; connectionToken?: string; availableTransports: unknown[] };
    expect(body.negotiateVersion).toBe(1);
    expect(body.connectionToken).toBeTruthy();
    expect(body.availableTransports).toEqual([{ transport: "WebSockets", transferFormats: ["Text"] }]);
    expect(res.headers["cache-control"]).toBe(NO_STORE);
  });
});

/** GET `url` of `app` with `acceptEncoding`. */
function getWith(app: FastifyInstance, url: string, acceptEncoding: string): Promise<LightMyRequestResponse> {
  return app.inject({ method: "GET", url, headers: { "accept-encoding": acceptEncoding } });
}
