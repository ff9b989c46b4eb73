import { endpoints } from "@aquapilot/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../test/call.ts";
import { bearer, createTestApp, latestCode, registerByEmail, type TestApp } from "../test/helpers.ts";

describe("app: envelope, errors, languages, logs", () => {
  let t: TestApp;
  let auth: string;
  beforeAll(async () => {
    t = await createTestApp();
    await registerByEmail(t.app, "ann@example.com", "secret-pw-1");
    auth = await bearer(t.app, "ann@example.com", "secret-pw-1");
  });
  afterAll(() => t.close());

  it("wraps a success in the ABP envelope", async () => {
    const res = await call(t, endpoints.userBindTypeList, { lang: null });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      result: [
        { value: 1, name: "email" },
        { value: 2, name: "phone" },
      ],
      error: null,
      unAuthorizedRequest: false,
      __abp: true,
    });
    expect(res.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("answers 401 with unAuthorizedRequest true without a token, and with a forged one", async () => {
    for (const as of [undefined, "Bearer not.a.jwt"]) {
      const res = await call(t, endpoints.getProfile, { as, lang: null });
      expect(res.status).toBe(401);
      const body = res.body;
      expect(body).toMatchObject({ success: false, result: null, unAuthorizedRequest: true, __abp: true });
      expect(body.error.code).toBe("Unauthorized");
      expect(res.headers["www-authenticate"]).toBe("Bearer");
    }
  });

  it("serves the profile with a token, trailing slash or not", async () => {
    for (const url of ["/api/basic-data/app/profile/", "/api/basic-data/app/profile"]) {
      const res = await t.app.inject({ method: "GET", url, headers: { authorization: auth } });
      expect(res.statusCode).toBe(200);
      expect(res.json().result).toMatchObject({ email: "ann@example.com", serviceRegion: 2 });
      expect(res.json().result.userName).toMatch(/^ann_[0-9a-f]{6}$/);
    }
  });

  it("answers validation errors with field names, in the caller's language", async () => {
    const ask = (lang: string | null) =>
      call(t, endpoints.register, {
        query: { bindType: "1", account: "x@example.com", password: "123", serviceRegion: "2" },
        lang,
      });
    const en = (await ask("en-US,en;q=0.9")).body;
    const zh = (await ask("zh-CN")).body;
    const none = (await ask(null)).body;
    expect(en.success).toBe(false);
    expect(en.error.code).toBe("Validation");
    const members = en.error.validationErrors.map((v: { members: string[] }) => v.members[0]).sort();
    expect(members).toEqual(["code", "password"]);
    const enPassword = en.error.validationErrors.find((v: { members: string[] }) => v.members[0] === "password");
    expect(enPassword?.message).toBe("password must be at least 6 characters long.");
    const zhPassword = zh.error.validationErrors.find((v: { members: string[] }) => v.members[0] === "password");
    expect(zhPassword?.message).toBe("password 至少需要 6 个字符。");
    expect(en.error.message).not.toBe(zh.error.message);
    expect(none.error.message).toBe(zh.error.message);
    const enCode = en.error.validationErrors.find((v: { members: string[] }) => v.members[0] === "code");
    expect(enCode?.message).toBe("code is required.");
  });

  it("answers an unknown /api path with a 404 envelope", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/nothing-here", headers: { "accept-language": "fr" } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false, error: { code: "NotFound", message: "Introuvable." } });
  });

  it("keeps passwords, codes and tokens out of the logs", async () => {
    await call(t, endpoints.sendEmailPasswordCode, { query: { email: "logcheck@example.com" }, lang: null });
    const code = await latestCode(t.app, "logcheck@example.com");
    const before = t.logs.length;
    await call(t, endpoints.register, {
      query: { bindType: "1", account: "logcheck@example.com", password: "Very-Secret-77", code, serviceRegion: "1" },
      lang: null,
    });
    const token = await bearer(t.app, "logcheck@example.com", "Very-Secret-77");
    await call(t, endpoints.getProfile, { as: token, lang: null });
    const after = t.logs.slice(before).join("\n");
    expect(after).toContain(endpoints.register.path);
    expect(after).toContain("[redacted]");
    expect(after).not.toContain("Very-Secret-77");
    expect(after).not.toContain(code);
    expect(after).not.toContain(token.slice(7));
  });
});

describe("/dev/outbox", () => {
  it("exists outside production and lists newest first, filtered by recipient", async () => {
    let clock = Date.parse("2025-01-01T00:00:00Z");
    const t = await createTestApp({ now: () => new Date(clock) });
    try {
      for (const email of ["a@example.com", "b@example.com"]) {
        await call(t, endpoints.sendEmailPasswordCode, { query: { email }, lang: null });
        clock += 1000;
      }
      const all = (await t.app.inject({ method: "GET", url: "/dev/outbox" })).json();
      expect(all.map((e: { recipient: string }) => e.recipient)).toEqual(["b@example.com", "a@example.com"]);
      const onlyA = (await t.app.inject({ method: "GET", url: "/dev/outbox?recipient=A@example.com" })).json();
      expect(onlyA).toHaveLength(1);
      expect(onlyA[0].body).toMatch(/\b\d{6}\b/);
    } finally {
      await t.close();
    }
  });

  it("is absent when APP_ENV=production", async () => {
    const t = await createTestApp({ env: { APP_ENV: "production" } });
    try {
      const res = await t.app.inject({ method: "GET", url: "/dev/outbox" });
      expect(res.statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});
