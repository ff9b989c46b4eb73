import net from "node:net";
import { endpoints, LANGUAGES, type Language, TOKEN_PATH } from "@aquapilot/contract";
import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multipartBody, PNG_1X1 } from "../../test/api-fuzz-cases.ts";
import { call } from "../../test/call.ts";
import { ENGINES } from "../../test/databases.ts";
import { bearer, createTestApp, registerByEmail, type TestApp } from "../../test/helpers.ts";
import { EDGE_LIMITS } from "./edge.ts";
import { translate } from "./messages.ts";

/**
 * One input rule at the edge: a NUL or another control character in any part of a request — query, path,
 * JSON body, form body, header — is a 400 in the ABP envelope in the caller's language naming the field, the same on
 * SQLite and PostgreSQL (before, PostgreSQL answered 500 "invalid byte sequence for encoding UTF8: 0x00"); bodies,
 * URLs and path values over their limits, unreadable bodies and malformed URLs are answered in the envelope too.
 */

const FAMILY = "/api/run-lucky/device/app/family";

interface Envelope {
  success: boolean;
  error: { code: string; message: string; validationErrors: Array<{ message: string; members: string[] }> | null };
  __abp: true;
}

describe.each(ENGINES)("the edge on %s", (engine) => {
  let t: TestApp;
  let auth: string;
  let figures = 0;

  beforeAll(async () => {
    t = await createTestApp({ engine });
    await registerByEmail(t.app, "edge@example.com", "edge-pass-1");
    auth = await bearer(t.app, "edge@example.com", "edge-pass-1");
  });
  afterAll(async () => {
    console.log(`edge (${engine}): ${figures} refusals checked in ${LANGUAGES.length} languages, 0 × 5xx`);
    await t.close();
  });

  /** Sends a request and checks a 4xx envelope with `key` in `lang` naming `field` (when given). */
  const refused = async (
    lang: Language,
    request: InjectOptions,
    status: number,
    key: string,
    params: Record<string, string | number> = {},
    field?: string,
  ) => {
    const res = await t.app.inject({
      ...request,
      headers: { authorization: auth, "accept-language": lang, ...(request.headers as object) },
    });
    expect(res.statusCode, res.body).toBe(status);
    const body = res.json() as Envelope;
    expect(body.__abp).toBe(true);
    expect(body.success).toBe(false);
    const expected = translate(lang, key, { field: field ?? "", ...params });
    if (field) {
      expect(body.error.validationErrors).toContainEqual({ message: expected, members: [field] });
    } else expect(body.error.message).toBe(expected);
    figures++;
  };

  it.each(LANGUAGES)("refuses a NUL in a query value, a path value and a JSON field, naming it (%s)", async (lang) => {
    await refused(
      lang,
      { method: "GET", url: `${endpoints.getFamilyDevices.path}?familyId=a%00b` },
      400,
      "input.forbiddenCharacters",
      {},
      "familyId",
    );
    await refused(lang, { method: "GET", url: `${FAMILY}/a%00b` }, 400, "input.forbiddenCharacters", {}, "id");
    await refused(
      lang,
      { method: "POST", url: `${FAMILY}/`, payload: { name: "Ho\u0000me", address: "x", longitude: 1, latitude: 1 } },
      400,
      "input.forbiddenCharacters",
      {},
      "name",
    );
    // Other control characters, DEL, C1 and a lone surrogate are refused the same way.
    for (const name of ["a\u0001b", "a\u007fb", "a\u0085b", "a\ud800b", "a\nb"]) {
      await refused(
        lang,
        { method: "POST", url: `${FAMILY}/`, payload: { name, address: "x", longitude: 1, latitude: 1 } },
        400,
        "input.forbiddenCharacters",
        {},
        "name",
      );
    }
  });

  it("keeps line breaks where a field allows them (an after-sales description) and nowhere else", async () => {
    const family = await call(t, endpoints.createFamily, {
      as: auth,
      body: { name: "Home", address: "Rue de Rivoli", longitude: 2.35, latitude: 48.86 },
    });
    expect(family.status).toBe(200);
    const post = (description: string) =>
      call(t, endpoints.createAfterSale, { as: auth, lang: "en", body: { deviceId: "no-such-device", description } });
    // A multi-line description passes the rule (and reaches the service, which does not know the device).
    const multiline = await post("Line one\r\nline two\tindented");
    expect(multiline.status).toBe(404);
    const nul = await post("Line one\u0000line two");
    expect(nul.status).toBe(400);
    expect(nul.body.error.validationErrors?.[0]?.members).toEqual(["description"]);
  });

  it("refuses a NUL in the OAuth form body with invalid_request, not a 500", async () => {
    for (const lang of LANGUAGES) {
      const res = await t.app.inject({
        method: "POST",
        url: TOKEN_PATH,
        headers: { "content-type": "application/x-www-form-urlencoded", "accept-language": lang },
        payload: "grant_type=password&username=a%00b&password=whatever1&client_id=App",
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        error: "invalid_request",
        error_description: translate(lang, "token.invalidRequest"),
      });
      figures++;
    }
  });

  it.each(LANGUAGES)("refuses a control character in a header the server reads, naming it (%s)", async (lang) => {
    await refused(
      lang,
      { method: "GET", url: endpoints.getFamilies.path, headers: { "x-time-zone": "Europe/Paris\u0000" } },
      400,
      "input.badHeader",
      { header: "x-time-zone" },
      "x-time-zone",
    );
    // A header that names no known zone is not an error: the day is cut in UTC.
    const odd = await call(t, endpoints.getFamilies, {
      as: auth,
      headers: { "x-time-zone": "../../../etc/localtime" },
    });
    expect(odd.status).toBe(200);
  });

  it.each(LANGUAGES)("answers bodies, URLs and path values over their limits in the envelope (%s)", async (lang) => {
    const max = Math.round(EDGE_LIMITS.bodyBytes / 1024);
    await refused(
      lang,
      { method: "POST", url: `${FAMILY}/`, payload: { name: "x".repeat(EDGE_LIMITS.bodyBytes) } },
      413,
      "input.payloadTooLarge",
      { max },
    );
    await refused(
      lang,
      { method: "GET", url: `${endpoints.getFamilies.path}?pad=${"p".repeat(EDGE_LIMITS.urlLength)}` },
      414,
      "input.uriTooLong",
      { max: EDGE_LIMITS.urlLength },
    );
    await refused(
      lang,
      { method: "GET", url: `${FAMILY}/${"q".repeat(EDGE_LIMITS.paramLength + 1)}` },
      414,
      "input.uriTooLong",
      {
        max: EDGE_LIMITS.paramLength,
      },
    );
    await refused(lang, { method: "GET", url: `${FAMILY}/%ED%A0%80` }, 400, "input.badUrl");
    await refused(
      lang,
      { method: "POST", url: `${FAMILY}/`, headers: { "content-type": "application/json" }, payload: '{"name":' },
      400,
      "input.invalidBody",
    );
    await refused(
      lang,
      { method: "POST", url: `${FAMILY}/`, headers: { "content-type": "application/xml" }, payload: "<x/>" },
      415,
      "input.unsupportedMediaType",
    );
  });

  it("takes a body just under the limit to validation, and a text over its maximum as too long", async () => {
    const res = await call(t, endpoints.createFamily, {
      as: auth,
      lang: "en",
      body: { name: "x".repeat(EDGE_LIMITS.bodyBytes - 100) },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.validationErrors?.[0]).toEqual({
      message: translate("en", "validation.tooLong", { field: "name", max: "32" }),
      members: ["name"],
    });
  });

  it("answers a malformed multipart upload with 400, and still stores a good one", async () => {
    const good = multipartBody([{ name: "file", filename: "a\u0000b.png", type: "image/png", data: PNG_1X1 }]);
    const stored = await call(t, endpoints.uploadFile, {
      as: auth,
      headers: { "content-type": good.contentType },
      body: good.payload,
    });
    expect(stored.status, stored.text).toBe(200);
    expect(stored.result.fileUrl).toMatch(/^\/uploads\/files\/[0-9a-f]{32}\.png$/);
    for (const lang of LANGUAGES) {
      await refused(
        lang,
        {
          method: "POST",
          url: endpoints.uploadFile.path,
          headers: { "content-type": "multipart/form-data" },
          payload: "--x\r\n",
        },
        400,
        "input.invalidBody",
      );
      await refused(
        lang,
        {
          method: "POST",
          url: endpoints.uploadAvatar.path,
          headers: { "content-type": good.contentType },
          payload: good.payload.subarray(0, 60),
        },
        400,
        "input.invalidBody",
      );
    }
  });

  it("answers what Node's parser refuses on a real connection (header overflow, a NUL in a header) in the envelope", async () => {
    const address = await t.app.listen({ port: 0, host: "127.0.0.1" });
    const port = Number(new URL(address).port);
    const raw = (text: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = net.connect(port, "127.0.0.1", () => socket.write(text));
        let data = "";
        socket.on("data", (chunk) => {
          data += chunk;
        });
        socket.on("close", () => resolve(data));
        socket.on("error", reject);
      });
    const overflow = await raw(`GET /api/x HTTP/1.1\r\nHost: a\r\nX-Pad: ${"p".repeat(20_000)}\r\n\r\n`);
    expect(overflow).toMatch(/^HTTP\/1\.1 431 /);
    const body = JSON.parse(overflow.slice(overflow.indexOf("\r\n\r\n") + 4)) as Envelope;
    expect(body).toMatchObject({
      success: false,
      __abp: true,
      error: { message: translate("zh-Hans", "input.headersTooLarge") },
    });
    const nul = await raw("GET /api/x HTTP/1.1\r\nHost: a\r\nX-Time-Zone: a\u0000b\r\n\r\n");
    expect(nul).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(nul.slice(nul.indexOf("\r\n\r\n") + 4))).toMatchObject({ success: false, __abp: true });
    figures += 2;
  });
});
