import { endpoints } from "@aquapilot/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../../test/call.ts";
import { createTestApp, latestCode, type TestApp } from "../../test/helpers.ts";
import { isSecretName, REDACTED, redactLogLine, redactText, redactValue } from "./log-redaction.ts";

describe("secret names, judged by rule", () => {
  it("takes any name with a secret word, wherever it stands and however it is written", () => {
    for (const name of [
      "password",
      "confirmPassword",
      "new_password",
      "OLD-PASSWORD",
      "client_secret",
      "refreshToken",
      "access_token",
      "authorization",
      "Cookie",
      "smsCode",
      "verification_code",
      "shareCode",
      "code",
      "apiKey",
      "x-api-key",
      "privateKey",
      "installationId",
      "totp",
      "setupTicket",
    ])
      expect(isSecretName(name), name).toBe(true);
  });

  it("leaves the names that describe rather than hold a secret", () => {
    for (const name of [
      "statusCode",
      "errorCode",
      "countryCode",
      "languageType",
      "account",
      "email",
      "mac",
      "deviceId",
      "userId",
      "url",
      "bindType",
      "",
    ])
      expect(isSecretName(name), name).toBe(false);
  });
});

describe("log lines, redacted", () => {
  it("redacts every secret parameter of a URL, including names no list foresaw", () => {
    expect(
      redactText(
        "/api/basic-data/app/account/reset_password?account=a%40b.c&code=123456&password=s3cret-1&confirmPassword=s3cret-1&countryCode=86",
      ),
    ).toBe(
      "/api/basic-data/app/account/reset_password?account=a%40b.c&code=[redacted]&password=[redacted]&confirmPassword=[redacted]&countryCode=86",
    );
    expect(
      redactText("GET /api/run-lucky/device/app/setup-ticket/AbC-_0123456789abcdefg?x=1 from /app/device/12"),
    ).toBe("GET /api/run-lucky/device/app/setup-ticket/[redacted]?x=1 from /app/device/12");
    expect(redactText("/files/share-code/k1/token/t2/plain/p3")).toBe(
      "/files/share-code/[redacted]/token/[redacted]/plain/p3",
    );
    expect(redactText("password=first&smsCode=4321 then limit=5")).toBe(
      "password=[redacted]&smsCode=[redacted] then limit=5",
    );
  });

  it("redacts credentials by their shape: bearer and basic schemes, JSON Web Tokens, passwords in URLs", () => {
    const jwt = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJl";
    expect(redactText(`Authorization: Bearer ${jwt}`)).toBe("Authorization: Bearer [redacted]");
    expect(redactText(`token in text ${jwt} here`)).toBe("token in text [redacted] here");
    expect(redactText("Basic YWxhZGRpbjpvcGVuc2VzYW1l")).toBe("Basic [redacted]");
    expect(redactText("smtp://mailer:hunter22@mail.example:587")).toBe("smtp://mailer:[redacted]@mail.example:587");
    expect(redactText("redis://:p4ss@127.0.0.1:6379/0")).toBe("redis://:[redacted]@127.0.0.1:6379/0");
  });

  it("walks a line's fields: a secret-named field is replaced whatever its value, an error keeps its own code", () => {
    expect(
      redactValue({
        statusCode: 200,
        body: { confirmPassword: "x1", nested: [{ smsCode: 1234 }], note: "no secret" },
        err: { code: "ECONNREFUSED", message: "connect to redis://:pw@host:6379 failed" },
        code: "654321",
        empty: { password: "" },
      }),
    ).toEqual({
      statusCode: 200,
      body: { confirmPassword: REDACTED, nested: [{ smsCode: REDACTED }], note: "no secret" },
      err: { code: "ECONNREFUSED", message: "connect to redis://:[redacted]@host:6379 failed" },
      code: REDACTED,
      empty: { password: "" },
    });
  });

  it("keeps the line a line: JSON in, JSON out with its newline; other text redacted as text", () => {
    const line = `${JSON.stringify({ level: 30, msg: "GET /x?token=abc", req: { url: "/x?password=p" } })}\n`;
    const out = redactLogLine(line);
    expect(out.endsWith("\n")).toBe(true);
    expect(JSON.parse(out)).toEqual({
      level: 30,
      msg: "GET /x?token=[redacted]",
      req: { url: "/x?password=[redacted]" },
    });
    expect(redactLogLine("not json ?code=99\n")).toBe("not json ?code=[redacted]\n");
  });
});

describe("the server's log, with real traffic", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it("holds none of the secrets a registration and a password reset carried, under any parameter name", async () => {
    const email = "redaction@example.com";
    const sent = await call(t.app, endpoints.sendEmailPasswordCode, { query: { email }, lang: null });
    expect(sent.status).toBe(200);
    const code = await latestCode(t.app, email);
    const password = "Reg1strat10n-secret";
    const registered = await call(t.app, endpoints.register, {
      query: { bindType: "1", account: email, password, code, serviceRegion: "2" },
      lang: null,
    });
    expect(registered.status).toBe(200);
    // A parameter the contract does not name (a confirmation beside the password) is refused, and logged all the same.
    const extra = "Extra-confirmation-7";
    const query = new URLSearchParams({ bindType: "1", account: email, password: extra, confirmPassword: extra, code });
    const refusedRegistration = await t.app.inject({ method: "POST", url: `${endpoints.register.path}?${query}` });
    expect(refusedRegistration.statusCode).toBe(400);
    // A mismatched confirmation, refused: the refused request is logged too, its secrets no more than the others.
    const mismatch = "Mismatch-secret-9";
    const refused = await call(t.app, endpoints.resetPassword, {
      query: { account: email, code: "000000", password: "Other-secret-8", confirmPassword: mismatch, bindType: "1" },
      lang: null,
    });
    expect(refused.status).toBeGreaterThanOrEqual(400);

    const log = t.logs.join("");
    expect(log).toContain("reset_password"); // the requests were logged, so the check below means something
    for (const secret of [password, extra, "Other-secret-8", mismatch]) expect(log).not.toContain(secret);
    expect(log).toContain(`confirmPassword=${REDACTED}`);
  });
});
