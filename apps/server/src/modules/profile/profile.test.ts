import { endpoints } from "@aquapilot/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, describeEndpoint } from "../../../test/call.ts";
import { createTestApp, registerByEmail, type TestApp } from "../../../test/helpers.ts";
import { codeFor, otherCode, outbox, refreshAnswer, refreshStatus, signIn } from "./testing.ts";

const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d4948445200000001000000010806000000" +
    "1f15c4890000000d49444154789c6300010000000500010d0a2db40000000049454e44ae426082",
  "hex",
);

function multipart(file: Buffer, filename: string, type: string): { payload: Buffer; contentType: string } {
  const boundary = "----aquapilot-test-boundary";
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
        `Content-Type: ${type}\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, contentType: `multipart/form-data; boundary=${boundary}` };
}

describe("profile (spec §7 /api/basic-data/app/profile)", () => {
  let t: TestApp;
  let clock = Date.parse("2025-05-01T08:00:00Z");
  const advance = (seconds: number) => {
    clock += seconds * 1000;
  };
  let alice: { access: string; refresh: string };
  let bob: { access: string; refresh: string };

  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date(clock) });
    await registerByEmail(t.app, "alice@example.com", "alice-pass");
    await registerByEmail(t.app, "bob@example.com", "bob-pass-1");
    alice = await signIn(t.app, "alice@example.com", "alice-pass");
    bob = await signIn(t.app, "bob@example.com", "bob-pass-1");
  });
  afterAll(() => t.close());

  describeEndpoint(endpoints.updateProfile, "user name, name, avatar", () => {
    it("changes user name, name and avatar; answers the profile", async () => {
      const { payload, contentType } = multipart(PNG, "me.png", "image/png");
      const uploaded = await call(t.app, endpoints.uploadAvatar, {
        as: alice.access,
        body: payload,
        headers: { "content-type": contentType },
      });
      const avatar = uploaded.result as string;
      const res = await call(t.app, endpoints.updateProfile, {
        as: alice.access,
        body: { userName: "  Alice W ", name: "Alice", avatar },
      });
      expect(res.status).toBe(200);
      expect(res.result).toMatchObject({ userName: "Alice W", name: "Alice", avatar });
      const again = await call(t.app, endpoints.getProfile, { as: alice.access });
      expect(again.result.userName).toBe("Alice W");
      // Sign-in by the new user name works.
      await signIn(t.app, "Alice W", "alice-pass");
    });

    it("answers 409 for a taken user name (another user's name or e-mail) and changes nothing", async () => {
      const taken = await call(t.app, endpoints.updateProfile, {
        as: bob.access,
        body: { userName: "Alice W", name: "B" },
      });
      expect(taken.status).toBe(409);
      expect(taken.body.error).toMatchObject({ code: "Conflict", message: "This user name is already taken." });
      const email = await call(t.app, endpoints.updateProfile, {
        as: bob.access,
        body: { userName: "alice@example.com" },
      });
      expect(email.status).toBe(409);
      const unchanged = (await call(t.app, endpoints.getProfile, { as: bob.access })).result;
      expect(unchanged.userName).toMatch(/^bob_[0-9a-f]{6}$/);
      // The display name given at sign-up without one ("bob@example.com" → "Bob"), not the refused "B".
      expect(unchanged.name).toBe("Bob");
    });

    it("refuses a user name outside 2–64 characters and a bad avatar reference", async () => {
      const short = await call(t.app, endpoints.updateProfile, { as: bob.access, body: { userName: "b" } });
      expect(short.status).toBe(400);
      expect(short.body.error.validationErrors[0].members).toEqual(["userName"]);
      const long = await call(t.app, endpoints.updateProfile, { as: bob.access, body: { userName: "b".repeat(65) } });
      expect(long.status).toBe(400);
      // Only the caller's own uploads: no path outside them, no outside URL, no file of another user.
      const alicesAvatar = (await call(t.app, endpoints.getProfile, { as: alice.access })).result.avatar;
      expect(alicesAvatar).toMatch(/^\/uploads\/avatars\//);
      for (const avatar of [
        "../etc/passwd",
        "/uploads/../secret",
        "javascript:alert(1)",
        "https://cdn.example.com/a.png",
        "http://169.254.169.254/latest/meta-data",
        "//evil.example/a.png",
        "/uploads/avatars/0123456789abcdef0123456789abcdef.png",
        alicesAvatar,
      ]) {
        const bad = await call(t.app, endpoints.updateProfile, { as: bob.access, body: { avatar } });
        expect(bad.status, String(avatar)).toBe(400);
      }
      expect((await call(t.app, endpoints.getProfile, { as: bob.access })).result.avatar).toBeNull();
    });

    it("keeps a display name within the sign-up limit of 32 (a pasted longer one is refused, not cut)", async () => {
      const fits = await call(t.app, endpoints.updateProfile, {
        as: bob.access,
        body: { name: ` ${"n".repeat(32)} ` },
      });
      expect(fits.status).toBe(200);
      expect(fits.result.name).toBe("n".repeat(32));
      const long = await call(t.app, endpoints.updateProfile, { as: bob.access, body: { name: "m".repeat(33) } });
      expect(long.status).toBe(400);
      expect(long.body.error.validationErrors[0].members).toEqual(["name"]);
      expect((await call(t.app, endpoints.getProfile, { as: bob.access })).result.name).toBe("n".repeat(32));
    });

    it("needs a token", async () => {
      expect((await call(t.app, endpoints.updateProfile, { body: { name: "x" } })).status).toBe(401);
    });
  });

  describeEndpoint(endpoints.uploadAvatar, "avatar upload", () => {
    const upload = (token: string | undefined, file: Buffer, name: string, type: string) => {
      const { payload, contentType } = multipart(file, name, type);
      return call(t.app, endpoints.uploadAvatar, {
        as: token,
        body: payload,
        headers: { "content-type": contentType },
      });
    };

    it("stores a PNG under DATA_DIR/uploads/avatars and serves it read-only at the answered path", async () => {
      const res = await upload(alice.access, PNG, "me.png", "image/png");
      expect(res.status).toBe(200);
      const path = res.result as string;
      expect(path).toMatch(/^\/uploads\/avatars\/[0-9a-f]{32}\.png$/);
      const got = await t.app.inject({ method: "GET", url: path });
      expect(got.statusCode).toBe(200);
      expect(got.headers["content-type"]).toBe("image/png");
      expect(got.headers["x-content-type-options"]).toBe("nosniff");
      expect(got.rawPayload.equals(PNG)).toBe(true);
      expect((await t.app.inject({ method: "PUT", url: path, payload: "x" })).statusCode).toBe(404);
      expect((await t.app.inject({ method: "DELETE", url: path })).statusCode).toBe(404);
      const set = await call(t.app, endpoints.updateProfile, { as: alice.access, body: { avatar: path } });
      expect(set.result.avatar).toBe(path);
    });

    it("refuses a file that is not PNG, JPEG or WebP by its bytes, one over 2 MB, none, and anonymous callers", async () => {
      const fake = await upload(alice.access, Buffer.from("<svg onload=alert(1)>"), "x.png", "image/png");
      expect(fake.status).toBe(400);
      expect(fake.body.error.message).toBe("The image must be a PNG, JPEG or WebP file.");
      const gif = await upload(alice.access, Buffer.from("GIF89a......"), "x.gif", "image/gif");
      expect(gif.status).toBe(400);
      const big = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]);
      const tooBig = await upload(alice.access, big, "big.png", "image/png");
      expect(tooBig.status).toBe(400);
      expect(tooBig.body.error.message).toBe("The image must be at most 2 MB.");
      const none = await call(t.app, endpoints.uploadAvatar, { as: alice.access, body: { file: "x" } });
      expect(none.status).toBe(400);
      expect(none.body.error.message).toBe("Choose an image file to upload.");
      expect((await upload(undefined, PNG, "me.png", "image/png")).status).toBe(401);
    });
  });

  describeEndpoint(endpoints.changeLanguageType, () => {
    it("stores one of the five languages; refuses others", async () => {
      const bad = await call(t.app, endpoints.changeLanguageType, {
        as: bob.access,
        body: { languageType: "de" },
      });
      expect(bad.status).toBe(400);
      const ok = await call(t.app, endpoints.changeLanguageType, {
        as: bob.access,
        body: { languageType: "es" },
      });
      expect(ok.status).toBe(200);
      expect((await call(t.app, endpoints.getProfile, { as: bob.access })).result.languageType).toBe("es");
    });
  });

  describeEndpoint(endpoints.changePassword, () => {
    it("refuses a wrong old password with a clear message, and a short new one", async () => {
      const wrong = await call(t.app, endpoints.changePassword, {
        as: bob.access,
        body: { currentPassword: "not-it", newPassword: "bob-pass-2" },
      });
      expect(wrong.status).toBe(400);
      expect(wrong.body.error.message).toBe("The current password is wrong.");
      expect(wrong.body.error.validationErrors[0].members).toEqual(["currentPassword"]);
      const zh = await call(t.app, endpoints.changePassword, {
        as: bob.access,
        body: { currentPassword: "not-it", newPassword: "bob-pass-2" },
        lang: "zh-Hans",
      });
      expect(zh.body.error.message).toBe("当前密码错误。");
      const short = await call(t.app, endpoints.changePassword, {
        as: bob.access,
        body: { currentPassword: "bob-pass-1", newPassword: "12345" },
      });
      expect(short.status).toBe(400);
      expect(short.body.error.validationErrors[0].members).toEqual(["newPassword"]);
      const missing = await call(t.app, endpoints.changePassword, {
        as: bob.access,
        body: { newPassword: "bob-pass-2" },
      });
      expect(missing.status).toBe(400);
      await signIn(t.app, "bob@example.com", "bob-pass-1");
    });

    it("changes the password and ends every session: access and refresh tokens of all devices", async () => {
      const other = await signIn(t.app, "bob@example.com", "bob-pass-1");
      const res = await call(t.app, endpoints.changePassword, {
        as: bob.access,
        body: { currentPassword: "bob-pass-1", newPassword: "bob-pass-2" },
      });
      expect(res.status).toBe(200);
      for (const s of [bob, other]) {
        expect((await call(t.app, endpoints.getProfile, { as: s.access })).status).toBe(401);
        expect(await refreshStatus(t.app, s.refresh)).toBe(400);
      }
      // The other phone's refresh is refused with the reason, so the app can say why it must sign in again.
      expect(await refreshAnswer(t.app, other.refresh)).toEqual({
        status: 400,
        body: {
          error: "invalid_grant",
          error_description: "Your password was changed on another device. Sign in again.",
          ended_reason: "password-changed",
        },
      });
      expect((await refreshAnswer(t.app, other.refresh, "fr")).body.error_description).toBe(
        "Votre mot de passe a été modifié sur un autre appareil. Reconnectez-vous.",
      );
      // A token nobody issued says nothing more than "invalid".
      expect((await refreshAnswer(t.app, "not-a-token")).body).toEqual({
        error: "invalid_grant",
        error_description: "The refresh token is invalid or expired. Please sign in again.",
      });
      await expect(signIn(t.app, "bob@example.com", "bob-pass-1")).rejects.toThrow();
      bob = await signIn(t.app, "bob@example.com", "bob-pass-2");
    });
  });

  describe("change phone or e-mail (ticket, code, update)", () => {
    const verify = (token: string, password: string) =>
      call(t.app, endpoints.updatePhoneOrEmailVerification, { as: token, query: { password } });
    const sendNew = (token: string, query: Record<string, string>) =>
      call(t.app, endpoints.sendUserIdentityVerification, { as: token, query });

    it("refuses the ticket for a wrong password", async () => {
      const res = await verify(alice.access, "wrong");
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe("The current password is wrong.");
    });

    it("changes the e-mail: ticket, code to the new address (in the user's language), update; ticket and code spent", async () => {
      await call(t.app, endpoints.changeLanguageType, { as: alice.access, body: { languageType: "fr" } });
      const v = await verify(alice.access, "alice-pass");
      expect(v.status).toBe(200);
      const { ticket, expiresIn } = v.result;
      expect(expiresIn).toBe(600);

      const taken = await sendNew(alice.access, { ticket, email: "bob@example.com" });
      expect(taken.status).toBe(409);
      expect(taken.body.error.message).toBe("This e-mail or phone number already belongs to another account.");
      const same = await sendNew(alice.access, { ticket, email: "alice@example.com" });
      expect(same.status).toBe(400);
      const both = await sendNew(alice.access, { ticket, email: "a2@example.com", phoneNumber: "5550100" });
      expect(both.status).toBe(400);
      expect(both.body.error.message).toBe("Enter an e-mail, or a phone number with its country code.");
      const noTicket = await sendNew(alice.access, { email: "a2@example.com" });
      expect(noTicket.status).toBe(400);
      expect(noTicket.body.error.code).toBe("InvalidCode");
      // Bob cannot use Alice's ticket.
      const stolen = await sendNew(bob.access, { ticket, email: "b2@example.com" });
      expect(stolen.status).toBe(400);
      expect(stolen.body.error.message).toBe(
        "The password verification has expired or is not valid. Please verify your password again.",
      );
      const tampered = await sendNew(alice.access, { ticket: `${ticket.slice(0, -2)}AA`, email: "a2@example.com" });
      expect(tampered.status).toBe(400);

      const sent = await sendNew(alice.access, { ticket, email: "A2@Example.com" });
      expect(sent.status).toBe(200);
      expect(sent.result).toEqual({ sentTo: "a2***@example.com" });
      const [mail] = await outbox(t.app, "a2@example.com");
      expect(mail.subject).toBe("Confirmez vos nouvelles coordonnées AquaPilot");
      const code = await codeFor(t.app, "a2@example.com");

      const wrong = await call(t.app, endpoints.updateEmail, {
        as: alice.access,
        query: { ticket, email: "a2@example.com", code: otherCode(code) },
      });
      expect(wrong.status).toBe(400);
      expect(wrong.body.error.code).toBe("InvalidCode");

      // Bob, with his own ticket, cannot use the code Alice received for that address.
      const bobTicket = (await verify(bob.access, "bob-pass-2")).result.ticket;
      const bobTry = await call(t.app, endpoints.updateEmail, {
        as: bob.access,
        query: { ticket: bobTicket, email: "a2@example.com", code },
      });
      expect(bobTry.status).toBe(400);
      expect(bobTry.body.error.code).toBe("InvalidCode");

      const ok = await call(t.app, endpoints.updateEmail, {
        as: alice.access,
        query: { ticket, email: "a2@example.com", code },
      });
      expect(ok.status).toBe(200);
      expect(ok.result.email).toBe("a2@example.com");
      await signIn(t.app, "a2@example.com", "alice-pass");
      await expect(signIn(t.app, "alice@example.com", "alice-pass")).rejects.toThrow();

      // The ticket was bound to the old e-mail: spent.
      const again = await sendNew(alice.access, { ticket, email: "a3@example.com" });
      expect(again.status).toBe(400);
      expect(again.body.error.code).toBe("InvalidCode");
    });

    it("refuses an expired ticket (10 minutes)", async () => {
      const { ticket } = (await verify(alice.access, "alice-pass")).result;
      advance(601);
      const res = await sendNew(alice.access, { ticket, email: "late@example.com" });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("InvalidCode");
    });

    it("changes the phone number by SMS code; a code is single use; a number of another account is refused", async () => {
      advance(61);
      const { ticket } = (await verify(alice.access, "alice-pass")).result;
      const sent = await sendNew(alice.access, { ticket, phoneNumber: "612345678", countryCode: "34" });
      expect(sent.status).toBe(200);
      expect(sent.result.sentTo).toBe("+34*****5678");
      const [sms] = await outbox(t.app, "+34612345678");
      expect(sms.channel).toBe("sms");
      const code = await codeFor(t.app, "+34612345678");
      const missingCc = await call(t.app, endpoints.updatePhone, {
        as: alice.access,
        query: { ticket, phoneNumber: "612345678", code },
      });
      expect(missingCc.status).toBe(400);
      const ok = await call(t.app, endpoints.updatePhone, {
        as: alice.access,
        query: { ticket, phoneNumber: "612345678", countryCode: "+34", code },
      });
      expect(ok.status).toBe(200);
      expect(ok.result).toMatchObject({ phoneNumber: "612345678", countryCode: "+34" });
      await signIn(t.app, "612345678", "alice-pass");

      // Reused code with a fresh ticket: refused.
      const fresh = (await verify(alice.access, "alice-pass")).result.ticket;
      const reused = await call(t.app, endpoints.updatePhone, {
        as: alice.access,
        query: { ticket: fresh, phoneNumber: "612345679", countryCode: "+34", code },
      });
      expect(reused.status).toBe(400);
      expect(reused.body.error.code).toBe("InvalidCode");

      // Bob cannot take Alice's number.
      const bobTicket = (await verify(bob.access, "bob-pass-2")).result.ticket;
      const taken = await sendNew(bob.access, { ticket: bobTicket, phoneNumber: "612345678", countryCode: "34" });
      expect(taken.status).toBe(409);
    });

    it("a password change kills an outstanding ticket", async () => {
      advance(61);
      const { ticket } = (await verify(bob.access, "bob-pass-2")).result;
      await call(t.app, endpoints.changePassword, {
        as: bob.access,
        body: { currentPassword: "bob-pass-2", newPassword: "bob-pass-3" },
      });
      bob = await signIn(t.app, "bob@example.com", "bob-pass-3");
      const res = await sendNew(bob.access, { ticket, email: "bob2@example.com" });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("InvalidCode");
    });
  });
});

describe("uploads next to the built web app", () => {
  it("serves /uploads/… and the web app at / side by side", async () => {
    const fs = await import("node:fs");
    const os = await import("node:os");
    const path = await import("node:path");
    const web = fs.mkdtempSync(path.join(os.tmpdir(), "aq-web-"));
    fs.writeFileSync(path.join(web, "index.html"), "<!doctype html><title>web</title>");
    const t = await createTestApp({ webDistDir: web });
    try {
      fs.writeFileSync(path.join(t.config.DATA_DIR, "uploads", "avatars", "known.png"), PNG);
      expect((await t.app.inject({ method: "GET", url: "/" })).body).toContain("<title>web</title>");
      const img = await t.app.inject({ method: "GET", url: "/uploads/avatars/known.png" });
      expect(img.statusCode).toBe(200);
      expect(img.headers["content-type"]).toBe("image/png");
      expect((await t.app.inject({ method: "GET", url: "/uploads/avatars/missing.png" })).statusCode).toBe(404);
      expect((await t.app.inject({ method: "GET", url: "/uploads/../aquapilot.sqlite" })).statusCode).not.toBe(200);
    } finally {
      await t.close();
      fs.rmSync(web, { recursive: true, force: true });
    }
  });
});
