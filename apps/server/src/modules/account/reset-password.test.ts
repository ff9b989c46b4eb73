import { endpoints } from "@aquapilot/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../../../test/call.ts";
import { createTestApp, latestCode, registerByEmail, type TestApp } from "../../../test/helpers.ts";
import { codeFor, otherCode, outbox, refreshAnswer, refreshStatus, signIn, startSmtpSink } from "../profile/testing.ts";

describe("find password (spec §5 Find password; §7 forget_password_*, reset_password)", () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let clock = Date.parse("2025-04-01T08:00:00Z");
  const advance = (seconds: number) => {
    clock += seconds * 1000;
  };
  const reset = (query: Record<string, string>, lang = "en") => call(t.app, endpoints.resetPassword, { query, lang });

  beforeAll(async () => {
    smtp = await startSmtpSink();
    t = await createTestApp({ now: () => new Date(clock), env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it("resets by e-mail: the mail goes out in the account's stored language, every session ends", async () => {
    await registerByEmail(t.app, "ana@example.com", "old-pass-1");
    const first = await signIn(t.app, "ana@example.com", "old-pass-1");
    const second = await signIn(t.app, "ana@example.com", "old-pass-1");
    const lang = await call(t.app, endpoints.changeLanguageType, {
      as: first.access,
      body: { languageType: "ru" },
    });
    expect(lang.status).toBe(200);

    const sent = await call(t.app, endpoints.forgetPasswordSendEmailCode, {
      query: { email: "Ana@Example.com" },
      lang: "fr",
    });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ success: true, result: null });
    // The real SMTP sink received it in Russian although the caller asked in French.
    const mail = smtp.mails.at(-1)!;
    expect(mail.to).toBe("ana@example.com");
    expect(mail.subject).toBe("Сброс пароля AquaPilot");
    const code = mail.text.match(/\b(\d{6})\b/)![1];
    expect(mail.text).toContain(`Ваш код для сброса пароля: ${code}.`);

    const mismatch = await reset({ account: "ana@example.com", code, password: "new-pass-1", confirmPassword: "x" });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error).toMatchObject({ code: "Validation", message: "Passwords do not match." });
    expect(mismatch.body.error.validationErrors[0].members).toEqual(["confirmPassword"]);

    const short = await reset({ account: "ana@example.com", code, password: "12345", confirmPassword: "12345" });
    expect(short.status).toBe(400);
    expect(short.body.error.validationErrors[0].members).toEqual(["password"]);

    const wrong = await reset({
      account: "ana@example.com",
      code: otherCode(code),
      password: "new-pass-1",
      confirmPassword: "new-pass-1",
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toMatchObject({
      code: "InvalidCode",
      message: "Verification failed: wrong code. 4 tries left.",
    });

    const ok = await reset({ account: "ana@example.com", code, password: "new-pass-1", confirmPassword: "new-pass-1" });
    expect(ok.status).toBe(200);

    // Every session ended: access tokens refused at once, refresh tokens revoked.
    expect((await call(t.app, endpoints.getProfile, { as: first.access })).status).toBe(401);
    expect((await call(t.app, endpoints.getProfile, { as: second.access })).status).toBe(401);
    expect(await refreshStatus(t.app, first.refresh)).toBe(400);
    expect(await refreshStatus(t.app, second.refresh)).toBe(400);
    expect((await refreshAnswer(t.app, second.refresh)).body.ended_reason).toBe("password-reset");
    await expect(signIn(t.app, "ana@example.com", "old-pass-1")).rejects.toThrow();
    await signIn(t.app, "ana@example.com", "new-pass-1");

    // The code works once.
    const reused = await reset({
      account: "ana@example.com",
      code,
      password: "other-pass",
      confirmPassword: "other-pass",
    });
    expect(reused.status).toBe(400);
    expect(reused.body.error.code).toBe("InvalidCode");
  });

  it("does not reveal whether an account exists: success, a notice without code, reset fails like a wrong code", async () => {
    const sent = await call(t.app, endpoints.forgetPasswordSendEmailCode, {
      query: { email: "nobody@example.com" },
      lang: "fr",
    });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual(
      (await call(t.app, endpoints.forgetPasswordSendEmailCode, { query: { email: "x@y.com" } })).body,
    );
    // The same work as for an account, so nothing tells the two apart: a message goes out, in the caller's language,
    // saying only that no account uses the address.
    const notice = smtp.to("nobody@example.com");
    expect(notice).toHaveLength(1);
    expect(notice[0].subject).toBe("Réinitialisation du mot de passe AquaPilot");
    expect(notice[0].text).toContain("aucun compte ne l'utilise");
    expect(notice[0].text).not.toMatch(/\d{6}/);
    // Same 60 s limit as for a real account.
    expect(
      (await call(t.app, endpoints.forgetPasswordSendEmailCode, { query: { email: "nobody@example.com" } })).status,
    ).toBe(429);

    const res = await reset({
      account: "nobody@example.com",
      code: "123456",
      password: "new-pass-1",
      confirmPassword: "new-pass-1",
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("InvalidCode");
  });

  it("refuses an expired code (10 minutes)", async () => {
    advance(120);
    await call(t.app, endpoints.forgetPasswordSendEmailCode, { query: { email: "ana@example.com" } });
    const code = await codeFor(t.app, "ana@example.com");
    advance(601);
    const res = await reset({ account: "ana@example.com", code, password: "late-pass", confirmPassword: "late-pass" });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(
      "The verification code has expired or was not requested. Please request a new code.",
    );
  });

  it("resets by phone: SMS to the registered number; the account may be given without country code", async () => {
    advance(120);
    await call(t.app, endpoints.sendPhonePasswordCode, {
      query: { phoneNumber: "13900139000", countryCode: "86" },
    });
    const regCode = await latestCode(t.app, "+8613900139000");
    const reg = await call(t.app, endpoints.register, {
      query: {
        bindType: "2",
        account: "13900139000",
        countryCode: "+86",
        password: "phone-pass",
        code: regCode,
        serviceRegion: "1",
      },
      lang: "zh-Hans",
    });
    expect(reg.status).toBe(200);
    advance(61);

    // A wrong country code is another number: success, and that number only learns that no account uses it.
    expect(
      (
        await call(t.app, endpoints.forgetPasswordSendPhoneCode, {
          query: { phoneNumber: "13900139000", countryCode: "44" },
        })
      ).status,
    ).toBe(200);
    const [notice] = await outbox(t.app, "+4413900139000");
    expect(notice.subject).toBe("AquaPilot password reset");
    expect(notice.body).not.toMatch(/\d{6}/);

    const sent = await call(t.app, endpoints.forgetPasswordSendPhoneCode, {
      query: { phoneNumber: "13900139000", countryCode: "+86" },
      lang: "en",
    });
    expect(sent.status).toBe(200);
    const [sms] = await outbox(t.app, "+8613900139000");
    expect(sms.channel).toBe("sms");
    expect(sms.subject).toBe("重置您的 AquaPilot 密码"); // registered in zh-Hans
    const code = await codeFor(t.app, "+8613900139000");
    const res = await reset({
      account: "13900139000",
      code,
      password: "phone-pass-2",
      confirmPassword: "phone-pass-2",
      bindType: "2",
    });
    expect(res.status).toBe(200);
    await signIn(t.app, "13900139000", "phone-pass-2");
  });
});
