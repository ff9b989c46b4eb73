import { endpoints } from "@aquapilot/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, describeEndpoint, type QueryOptions } from "../../../test/call.ts";
import { createTestApp, latestCode, passwordGrant, type TestApp } from "../../../test/helpers.ts";

describe("account: codes and registration (spec §5 Register)", () => {
  let t: TestApp;
  let clock = Date.parse("2025-03-01T08:00:00Z");
  const advance = (seconds: number) => {
    clock += seconds * 1000;
  };
  const send = (email: string, lang = "en") => call(t, endpoints.sendEmailPasswordCode, { query: { email }, lang });
  const register = (query: QueryOptions<typeof endpoints.register>, lang = "en") =>
    call(t, endpoints.register, {
      query: { bindType: "1", serviceRegion: "2", password: "pass-word-1", ...query },
      lang,
    });
  const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date(clock) });
  });
  afterAll(() => t.close());

  describeEndpoint(endpoints.register, "codes sent by send_email/send_phone_password_code", () => {
    it("registers by e-mail with the code from the outbox, in the caller's language; the code works once", async () => {
      const sent = await send("New.User@Example.com", "fr");
      expect(sent.status).toBe(200);
      expect(sent.body).toMatchObject({ success: true, result: null });
      const [mail] = (await t.app.inject({ method: "GET", url: "/dev/outbox?recipient=new.user@example.com" })).json();
      expect(mail.subject).toBe("Votre code de vérification AquaPilot");
      const code = await latestCode(t.app, "new.user@example.com");
      const stored = await t.db.selectFrom("verification_codes").selectAll().execute();
      expect(stored).toHaveLength(1);
      expect(stored[0].code_hash).not.toContain(code);
      expect(stored[0].code_hash).toMatch(/^[0-9a-f]{64}$/);

      const res = await register({ account: "new.user@example.com", code, serviceRegion: "1" });
      expect(res.status).toBe(200);
      // Without a chosen user name the server makes one that is neither an e-mail nor a phone number.
      expect(res.result.userName).toMatch(/^new\.user_[0-9a-f]{6}$/);
      const user = await t.db
        .selectFrom("users")
        .selectAll()
        .where("email", "=", "new.user@example.com")
        .executeTakeFirstOrThrow();
      expect(user.service_region).toBe(1);
      // Without a chosen display name (an older client) the server makes a readable one, without a random suffix.
      expect(user.name).toBe("New User");
      expect(user.password_hash.startsWith("$argon2id$")).toBe(true);
      expect((await passwordGrant(t.app, "new.user@example.com", "pass-word-1")).status).toBe(200);

      // Reuse: the same code cannot register another account.
      const reuse = await register({ account: "new.user@example.com", code, userName: "someone-else" });
      expect(reuse.status).toBe(400);
      expect(reuse.body.error.code).toBe("InvalidCode");
    });

    it("answers 409 when the user name is taken, leaving the code unspent", async () => {
      advance(120);
      await send("second@example.com");
      const code = await latestCode(t.app, "second@example.com");
      // The first user's e-mail as a user name clashes: sign-in accepts e-mails and user names alike.
      const clash = await register({ account: "second@example.com", code, userName: "new.user@example.com" });
      expect(clash.status).toBe(409);
      expect(await t.db.selectFrom("users").select("id").where("email", "=", "second@example.com").execute()).toEqual(
        [],
      );
      const ok = await register({ account: "second@example.com", code });
      expect(ok.status).toBe(200);
    });

    it("kills a code after 5 wrong tries", async () => {
      advance(120);
      await send("fourth@example.com");
      const code = await latestCode(t.app, "fourth@example.com");
      const messages: string[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await register({ account: "fourth@example.com", code: wrongCode(code) });
        expect(res.status).toBe(400);
        messages.push(res.body.error.message);
      }
      expect(messages[0]).toBe("Verification failed: wrong code. 4 tries left.");
      expect(messages[4]).toBe("Too many wrong tries. Please request a new code.");
      const dead = await register({ account: "fourth@example.com", code });
      expect(dead.status).toBe(400);
      expect(dead.body.error.message).toBe("Too many wrong tries. Please request a new code.");
      expect(await t.db.selectFrom("users").select("id").where("email", "=", "fourth@example.com").execute()).toEqual(
        [],
      );
    });

    it("lets a code expire after 10 minutes", async () => {
      advance(120);
      await send("fifth@example.com");
      const code = await latestCode(t.app, "fifth@example.com");
      advance(601);
      const res = await register({ account: "fifth@example.com", code }, "zh-Hans");
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe("验证码已过期或未获取，请重新获取验证码。");
    });

    it("registers by phone with a country code; sign-in by phone number", async () => {
      const sent = await call(t, endpoints.sendPhonePasswordCode, {
        query: { phoneNumber: "13800138000", countryCode: "86" },
      });
      expect(sent.status).toBe(200);
      const code = await latestCode(t.app, "+8613800138000");
      const noCc = await register({ bindType: "2", account: "13800138000", code });
      expect(noCc.status).toBe(400);
      expect(noCc.body.error.validationErrors[0].members).toEqual(["countryCode"]);
      const res = await register({ bindType: "2", account: "13800138000", code, countryCode: "+86" });
      expect(res.status).toBe(200);
      const user = await t.db
        .selectFrom("users")
        .selectAll()
        .where("phone_number", "=", "13800138000")
        .executeTakeFirstOrThrow();
      expect(user.country_code).toBe("+86");
      // No display name given: "User" and the last 4 digits, never the whole number.
      expect(user.name).toBe("User 8000");
      expect((await passwordGrant(t.app, "13800138000", "pass-word-1")).status).toBe(200);
    });
  });

  describeEndpoint(endpoints.register, "the display name chosen at sign-up", () => {
    const userByEmail = (email: string) =>
      t.db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirstOrThrow();

    it("stores the chosen name, trimmed, as the display name; the unique user name stays apart", async () => {
      advance(120);
      await send("first.last@example.com");
      const code = await latestCode(t.app, "first.last@example.com");
      const res = await register({ account: "first.last@example.com", code, name: "  Ann Lee  " });
      expect(res.status).toBe(200);
      expect(res.result.userName).toMatch(/^first\.last_[0-9a-f]{6}$/);
      const user = await userByEmail("first.last@example.com");
      expect(user.name).toBe("Ann Lee");
      expect(user.user_name).toBe(res.result.userName);
      // What the app and household members read: the profile's name.
      const signIn = await passwordGrant(t.app, "first.last@example.com", "pass-word-1");
      const profile = await call(t, endpoints.getProfile, { as: `Bearer ${signIn.body.access_token}` });
      expect(profile.result).toMatchObject({ name: "Ann Lee", userName: res.result.userName });
    });

    it("lets two users share a display name (only the user name is unique)", async () => {
      advance(120);
      await send("other.ann@example.com");
      const code = await latestCode(t.app, "other.ann@example.com");
      const res = await register({ account: "other.ann@example.com", code, name: "Ann Lee" });
      expect(res.status).toBe(200);
      expect((await userByEmail("other.ann@example.com")).name).toBe("Ann Lee");
      expect((await userByEmail("first.last@example.com")).name).toBe("Ann Lee");
    });

    it("takes exactly 32 characters, and a phone account's default in the caller's language", async () => {
      advance(120);
      await send("long.name@example.com");
      const code = await latestCode(t.app, "long.name@example.com");
      const longest = "Ж".repeat(32);
      expect((await register({ account: "long.name@example.com", code, name: longest })).status).toBe(200);
      expect((await userByEmail("long.name@example.com")).name).toBe(longest);

      await call(t, endpoints.sendPhonePasswordCode, { query: { phoneNumber: "612345678", countryCode: "33" } });
      const phoneCode = await latestCode(t.app, "+33612345678");
      const phone = await register({ bindType: "2", account: "612345678", code: phoneCode, countryCode: "33" }, "fr");
      expect(phone.status).toBe(200);
      const user = await t.db
        .selectFrom("users")
        .select("name")
        .where("phone_number", "=", "612345678")
        .executeTakeFirstOrThrow();
      expect(user.name).toBe("Utilisateur 5678");
    });

    it("refuses a blank, too long or multi-line name with 400 in the caller's language, leaving the code unspent", async () => {
      advance(120);
      await send("bad.name@example.com");
      const code = await latestCode(t.app, "bad.name@example.com");
      const tooLong = await register({ account: "bad.name@example.com", code, name: "x".repeat(33) }, "fr");
      expect(tooLong.status).toBe(400);
      expect(tooLong.body.success).toBe(false);
      expect(tooLong.body.error.code).toBe("Validation");
      expect(tooLong.body.error.validationErrors[0]).toEqual({
        message: "name doit contenir au plus 32 caractères.",
        members: ["name"],
      });
      const blank = await register({ account: "bad.name@example.com", code, name: "   " }, "zh-Hans");
      expect(blank.status).toBe(400);
      expect(blank.body.error.validationErrors[0].members).toEqual(["name"]);
      expect(blank.body.error.validationErrors[0].message).toMatch(/[\u4e00-\u9fff]/);
      const twoLines = await register({ account: "bad.name@example.com", code, name: "Ann\nLee" });
      expect(twoLines.status).toBe(400);
      expect(twoLines.body.error.validationErrors[0].members).toEqual(["name"]);
      expect(await t.db.selectFrom("users").select("id").where("email", "=", "bad.name@example.com").execute()).toEqual(
        [],
      );
      // The code was not spent by the refused calls.
      expect((await register({ account: "bad.name@example.com", code, name: "Bea" })).status).toBe(200);
      expect((await userByEmail("bad.name@example.com")).name).toBe("Bea");
    });
  });

  describeEndpoint(endpoints.sendEmailPasswordCode, "known addresses, resend interval", () => {
    it("answers an already registered address like a new one; only the e-mail says so, without a code", async () => {
      advance(120);
      const existing = await send("New.User@example.com", "es");
      const fresh = await send("brand.new@example.com", "es");
      expect(existing.status).toBe(200);
      expect(existing.body).toEqual(fresh.body);
      const [mail] = (await t.app.inject({ method: "GET", url: "/dev/outbox?recipient=new.user@example.com" })).json();
      // In the account's language (registered in English above), not the caller's.
      expect(mail.subject).toBe("Your AquaPilot account");
      expect(mail.body).toContain("you already have an account. Sign in, or reset your password");
      expect(mail.body).not.toMatch(/\d{6}/);
      // The same 60 s rule as for a new address.
      advance(30);
      expect((await send("new.user@example.com")).status).toBe(429);
      expect((await send("brand.new@example.com")).status).toBe(429);
    });

    it("refuses a resend within 60 s with 429, allows it after", async () => {
      advance(120);
      expect((await send("third@example.com")).status).toBe(200);
      advance(30);
      const again = await send("third@example.com");
      expect(again.status).toBe(429);
      expect(again.body.error).toMatchObject({
        code: "TooManyRequests",
        message: "A code was just sent. Please wait 30 s before requesting another one.",
      });
      advance(31);
      expect((await send("third@example.com")).status).toBe(200);
    });
  });
});
