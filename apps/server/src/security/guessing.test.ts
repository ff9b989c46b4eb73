import { endpoints } from "@aquapilot/contract";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { call, describeEndpoint } from "../../test/call.ts";
import { ENGINES } from "../../test/databases.ts";
import { insertFamily, insertUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/helpers.ts";
import { type SmtpSink, startSmtpSink } from "../../test/smtp-sink.ts";
import { hashPassword } from "../auth/passwords.ts";
import { CODE_MAX_ATTEMPTS, CODE_TRIES_PER_REQUESTER } from "../auth/verification-codes.ts";
import { DEFAULT_LIMITS } from "./limits.ts";

// Every argon2 verification of a sign-in goes through verifyPassword: counted here to prove that a refused attempt
// costs none.
const argon = vi.hoisted(() => ({ verifications: 0 }));
vi.mock("../auth/passwords.ts", async (importOriginal) => {
  const original = await importOriginal<typeof import("../auth/passwords.ts")>();
  return {
    ...original,
    verifyPassword: async (hashed: string | null, password: string) => {
      argon.verifications++;
      return original.verifyPassword(hashed, password);
    },
  };
});

const TOKEN = "/connect/token";
const S = DEFAULT_LIMITS.signIn;
const C = DEFAULT_LIMITS.codes;

/**
 * The guessing suite: the production limits (RATE_LIMIT_SCALE 1) of security/limits.ts hold against
 * wrong passwords, code pumping, registration and share-code guessing, per address and per account, with 429 +
 * Retry-After; and no answer tells whether an account exists. The clock (Date only) is faked so windows, delays and
 * lockouts can pass; the client address comes from inject's remoteAddress (call's `remoteAddress`).
 */
describe.each(ENGINES)("guessing on %s", (engine) => {
  let t: TestApp;
  let smtp: SmtpSink;
  const figures: string[] = [];
  const advance = (ms: number) => vi.setSystemTime(Date.now() + ms);

  const token = (username: string, password: string, ip: string, lang = "en") =>
    t.app.inject({
      method: "POST",
      url: TOKEN,
      remoteAddress: ip,
      headers: { "content-type": "application/x-www-form-urlencoded", "accept-language": lang },
      payload: new URLSearchParams({ grant_type: "password", username, password, client_id: "App" }).toString(),
    });
  const sendEmailCode = (email: string, ip: string, lang = "en") =>
    call(t, endpoints.sendEmailPasswordCode, { query: { email }, remoteAddress: ip, lang });
  const sendResetCode = (email: string, ip: string, lang = "en") =>
    call(t, endpoints.forgetPasswordSendEmailCode, { query: { email }, remoteAddress: ip, lang });
  const sendSmsCode = (phoneNumber: string, ip: string) =>
    call(t, endpoints.sendPhonePasswordCode, { query: { phoneNumber, countryCode: "86" }, remoteAddress: ip });
  const smsCount = async () =>
    (await t.db.selectFrom("outbox").select("id").where("channel", "=", "sms").execute()).length;

  let users = 0;
  /** A user with this e-mail and password, written straight to the database (registering would spend limits). */
  async function user(email: string, password: string): Promise<string> {
    const id = await insertUser(t.db, `guess-user-${++users}`, new Date().toISOString(), { email });
    await t.db
      .updateTable("users")
      .set({ password_hash: await hashPassword(password) })
      .where("id", "=", id)
      .execute();
    return id;
  }

  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2025-06-02T08:00:00Z"));
    smtp = await startSmtpSink();
    t = await createTestApp({ engine, env: { RATE_LIMIT_SCALE: "1", SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
    vi.useRealTimers();
    console.log(`guessing (${engine}): ${figures.join("; ")}`);
  });

  describe(`POST ${TOKEN} (password grant)`, () => {
    it("a burst of wrong passwords from one client: 5 are checked, the rest are 429 without an argon2 hash", async () => {
      await user("burst@example.com", "right-pass-1");
      const before = argon.verifications;
      const statuses: number[] = [];
      for (let i = 0; i < 25; i++)
        statuses.push((await token("burst@example.com", `wrong-${i}`, "198.51.100.1")).statusCode);
      const checked = statuses.filter((s) => s === 400).length;
      expect(statuses.slice(0, S.delayAfter)).toEqual(Array(S.delayAfter).fill(400));
      expect(statuses.slice(S.delayAfter)).toEqual(Array(25 - S.delayAfter).fill(429));
      expect(argon.verifications - before).toBe(S.delayAfter);

      const refused = await token("burst@example.com", "wrong", "198.51.100.1", "fr");
      expect(refused.statusCode).toBe(429);
      expect(refused.headers["retry-after"]).toBe("2");
      expect(refused.headers["cache-control"]).toBe("no-store");
      // The endpoint's OAuth error shape, worded in the caller's language.
      expect(refused.json()).toEqual({
        error: "invalid_grant",
        error_description: "Trop de connexions échouées. Attendez 2 s avant de réessayer.",
      });
      figures.push(`sequential burst: ${checked} of 25 wrong passwords checked`);
    });

    it("a concurrent burst cannot slip past the delay: at most 5 argon2 verifications", async () => {
      await user("parallel@example.com", "right-pass-1");
      const before = argon.verifications;
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) => token("parallel@example.com", `wrong-${i}`, "198.51.100.2")),
      );
      const checked = answers.filter((a) => a.statusCode === 400).length;
      expect(checked).toBeGreaterThan(0);
      expect(checked).toBeLessThanOrEqual(S.delayAfter);
      expect(answers.every((a) => a.statusCode === 400 || a.statusCode === 429)).toBe(true);
      expect(argon.verifications - before).toBe(checked);
      figures.push(`concurrent burst: ${checked} of 40 checked`);
    });

    it("growing delays after 5 failures, a 15-minute lockout after 10 even with the right password, then its end", async () => {
      await user("locked@example.com", "right-pass-1");
      const attacker = "198.51.100.3";
      const waits: number[] = [];
      for (let failure = 1; failure <= S.lockAfter; failure++) {
        const res = await token("locked@example.com", `wrong-${failure}`, attacker);
        expect(res.statusCode, `failure ${failure}`).toBe(400);
        if (failure < S.delayAfter || failure === S.lockAfter) continue;
        const early = await token("locked@example.com", "wrong", attacker);
        expect(early.statusCode).toBe(429);
        const wait = Number(early.headers["retry-after"]);
        waits.push(wait);
        advance(wait * 1000 - 1500);
        expect((await token("locked@example.com", "wrong", attacker)).statusCode, "still waiting").toBe(429);
        advance(1500);
      }
      expect(waits).toEqual([2, 4, 8, 16, 32]);

      // Locked: from a new address even the right password is refused, without a hash, for 15 minutes.
      const before = argon.verifications;
      const locked = await token("locked@example.com", "right-pass-1", "203.0.113.50", "ru");
      expect(locked.statusCode).toBe(429);
      expect(Number(locked.headers["retry-after"])).toBe(S.lockoutMs / 1000);
      expect(locked.json().error_description).toBe(
        "Слишком много неудачных попыток входа. Вход по паролю приостановлен; попробуйте снова через 15 минут или сбросьте пароль.",
      );
      advance(S.lockoutMs - 2000);
      expect((await token("locked@example.com", "right-pass-1", "203.0.113.51")).statusCode).toBe(429);
      expect(argon.verifications).toBe(before);

      // The end: the right password works and forgets the failures — the next wrong one is a plain 400 again.
      advance(2000);
      expect((await token("locked@example.com", "right-pass-1", "203.0.113.51")).statusCode).toBe(200);
      for (let i = 0; i < S.delayAfter; i++) {
        expect((await token("locked@example.com", "wrong", "203.0.113.51")).statusCode).toBe(400);
      }
      figures.push(`lockout: delays ${waits.join("/")} s, then ${S.lockoutMs / 60000} min`);
    });

    it("an address the owner signed in from still works during a lockout, after a short delay", async () => {
      await user("owner@example.com", "right-pass-1");
      const home = "192.0.2.10";
      expect((await token("owner@example.com", "right-pass-1", home)).statusCode).toBe(200);
      const attacker = "198.51.100.4";
      for (let failure = 1; failure <= S.lockAfter; failure++) {
        expect((await token("owner@example.com", `wrong-${failure}`, attacker)).statusCode).toBe(400);
        // Past each growing delay (the longest is 32 s), but not past the lockout that the 10th failure starts.
        if (failure >= S.delayAfter && failure < S.lockAfter) advance(60_000);
      }
      expect((await token("owner@example.com", "right-pass-1", attacker)).statusCode).toBe(429);
      const atHome = await token("owner@example.com", "right-pass-1", home);
      expect(atHome.statusCode).toBe(429);
      expect(Number(atHome.headers["retry-after"])).toBeLessThanOrEqual(S.knownAddressDelayMs / 1000);
      advance(S.knownAddressDelayMs);
      expect((await token("owner@example.com", "right-pass-1", home)).statusCode).toBe(200);
    });

    it("an unknown account is throttled exactly like an existing one, with the same answers", async () => {
      await user("exists@example.com", "right-pass-1");
      const run = async (login: string, ip: string) => {
        const out: string[] = [];
        for (let i = 0; i < S.delayAfter + 2; i++) {
          const res = await token(login, `wrong-${i}`, ip);
          out.push(`${res.statusCode} ${res.headers["retry-after"] ?? "-"} ${res.body}`);
        }
        return out;
      };
      const existing = await run("exists@example.com", "198.51.100.5");
      const unknown = await run("nobody-here@example.com", "198.51.100.6");
      expect(unknown).toEqual(existing);
      expect(existing.at(-1)).toMatch(/^429 2 /);
    });

    it("answers an unknown account as slowly as a wrong password (a dummy argon2 hash)", async () => {
      await user("timing-a@example.com", "right-pass-1");
      await user("timing-b@example.com", "right-pass-1");
      const known: number[] = [];
      const unknown: number[] = [];
      const timed = async (login: string, ip: string) => {
        const start = performance.now();
        expect((await token(login, "wrong-pass", ip)).statusCode).toBe(400);
        return performance.now() - start;
      };
      // Interleaved, each from its own address, fewer tries than the account delay; performance.now is not faked.
      for (let i = 0; i < 2 * (S.delayAfter - 1); i++) {
        known.push(await timed(i % 2 ? "timing-a@example.com" : "timing-b@example.com", `10.9.${i}.1`));
        unknown.push(await timed(`ghost-${i}@example.com`, `10.8.${i}.1`));
      }
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
      const [k, u] = [median(known), median(unknown)];
      // Without the dummy hash an unknown account answers in about 1 ms against tens of ms for a real verification.
      expect(u).toBeGreaterThan(k / 2);
      expect(u).toBeLessThan(k * 2);
      figures.push(`timing: wrong password ${k.toFixed(0)} ms, unknown account ${u.toFixed(0)} ms (medians)`);
    });

    it("password spraying from one address stops after 20 failures; other addresses and accounts are unaffected", async () => {
      const sprayer = "198.51.100.7";
      for (let i = 0; i < 10; i++) await user(`spray-${i}@example.com`, "right-pass-1");
      let checked = 0;
      let first429 = -1;
      for (let i = 0; i < 30; i++) {
        const res = await token(`spray-${i % 10}@example.com`, `wrong-${i}`, sprayer);
        if (res.statusCode === 400) checked++;
        else if (first429 < 0) first429 = i;
      }
      expect(checked).toBe(S.addressFailures);
      expect(first429).toBe(S.addressFailures);
      // The same accounts from another address: wrong is a plain 400, right signs in.
      expect((await token("spray-0@example.com", "wrong", "203.0.113.60")).statusCode).toBe(400);
      expect((await token("spray-1@example.com", "right-pass-1", "203.0.113.60")).statusCode).toBe(200);
      figures.push(`spraying: ${checked} of 30 checked from one address`);
    });

    it("at most 30 password grants per address and minute, whatever their outcome", async () => {
      await user("busy@example.com", "right-pass-1");
      const ip = "198.51.100.8";
      for (let i = 0; i < S.perAddress; i++)
        expect((await token("busy@example.com", "right-pass-1", ip)).statusCode).toBe(200);
      const over = await token("busy@example.com", "right-pass-1", ip);
      expect(over.statusCode).toBe(429);
      expect(Number(over.headers["retry-after"])).toBeLessThanOrEqual(60);
      expect((await token("busy@example.com", "right-pass-1", "198.51.100.9")).statusCode).toBe(200);
      advance(60_000);
      expect((await token("busy@example.com", "right-pass-1", ip)).statusCode).toBe(200);
    });

    it("X-Forwarded-For counts only from a loopback proxy (TRUST_PROXY default): a client cannot choose its address", async () => {
      const grant = (peer: string, forwarded: string, i: number) =>
        t.app.inject({
          method: "POST",
          url: TOKEN,
          remoteAddress: peer,
          headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": forwarded },
          payload: `grant_type=password&username=spoof-${peer}-${i}&password=wrong`,
        });
      // A direct client naming a new address each time is still one address: its failures count together.
      const direct: number[] = [];
      for (let i = 0; i <= S.addressFailures; i++)
        direct.push((await grant("198.51.100.10", `10.77.0.${i}`, i)).statusCode);
      expect(direct.slice(0, S.addressFailures).every((s) => s === 400)).toBe(true);
      expect(direct[S.addressFailures]).toBe(429);
      // Through a proxy on the same host, the forwarded addresses are the clients: none is limited.
      const proxied: number[] = [];
      for (let i = 0; i <= S.addressFailures; i++)
        proxied.push((await grant("127.0.0.1", `10.76.0.${i}`, i)).statusCode);
      expect(proxied.every((s) => s === 400)).toBe(true);
    });
  });

  describeEndpoint(endpoints.sendEmailPasswordCode, "and the reset and SMS codes", () => {
    it("code pumping per target and client: 5 codes an hour to one address from one client, whatever the purpose; another client has its own share", async () => {
      const target = "pumped@example.com";
      const ip = "198.51.101.1";
      const statuses: number[] = [];
      for (let i = 0; i <= C.perTargetAddress; i++) {
        statuses.push((await (i % 2 ? sendResetCode(target, ip) : sendEmailCode(target, ip))).status);
        advance(61_000);
      }
      expect(statuses).toEqual([...Array(C.perTargetAddress).fill(200), 429]);
      expect(smtp.to(target)).toHaveLength(C.perTargetAddress);
      const over = await sendEmailCode(target, ip, "es");
      expect(over.status).toBe(429);
      const retry = Number(over.headers["retry-after"]);
      expect(retry).toBeGreaterThan(C.perTargetWindowMs / 1000 - 7 * 61);
      expect(over.body).toMatchObject({
        success: false,
        __abp: true,
        error: {
          code: "TooManyRequests",
          message: `Demasiadas solicitudes. Inténtelo de nuevo dentro de ${Math.ceil(retry / 60)} minutos.`,
        },
      });
      // Another client's share of the same target is untouched.
      expect((await sendResetCode(target, "198.51.101.2")).status).toBe(200);
      advance(retry * 1000);
      expect((await sendEmailCode(target, ip)).status).toBe(200);
      figures.push(`per target and client: ${C.perTargetAddress} of ${C.perTargetAddress + 2} mails sent`);
    });

    it("code pumping per address: 10 codes an hour from one client; another client is unaffected", async () => {
      const ip = "198.51.102.1";
      const before = smtp.mails.length;
      const statuses: number[] = [];
      for (let i = 0; i < 30; i++) statuses.push((await sendEmailCode(`victim-${i}@example.com`, ip)).status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(C.perAddress);
      expect(statuses.indexOf(429)).toBe(C.perAddress);
      expect(smtp.mails.length - before).toBe(C.perAddress);
      expect((await sendSmsCode("13800000001", ip)).status).toBe(429);
      expect((await sendEmailCode("victim-0b@example.com", "198.51.102.2")).status).toBe(200);
      figures.push(`per address: ${C.perAddress} of 30 mails sent`);
    });

    it("code pumping globally: 100 e-mails and 20 SMS a minute from the whole server", async () => {
      advance(2 * 60_000);
      const mailsBefore = smtp.mails.length;
      const smsBefore = await smsCount();
      let sent = 0;
      let refused = 0;
      for (let i = 0; i < C.globalEmail + 10; i++) {
        const res = await sendEmailCode(`crowd-${i}@example.com`, `198.51.103.${Math.floor(i / C.perAddress)}`);
        if (res.status === 200) sent++;
        else if (res.status === 429) refused++;
      }
      expect(sent).toBe(C.globalEmail);
      expect(refused).toBe(10);
      expect(smtp.mails.length - mailsBefore).toBe(C.globalEmail);
      let sms = 0;
      for (let i = 0; i < C.globalSms + 5; i++) {
        const res = await sendSmsCode(`1390000${String(i).padStart(4, "0")}`, `198.51.104.${Math.floor(i / 5)}`);
        if (res.status === 200) sms++;
      }
      expect(sms).toBe(C.globalSms);
      expect((await smsCount()) - smsBefore).toBe(C.globalSms);
      advance(60_000);
      expect((await sendEmailCode("crowd-late@example.com", "198.51.103.200")).status).toBe(200);
      figures.push(`global: ${sent} of ${C.globalEmail + 10} e-mails and ${sms} of ${C.globalSms + 5} SMS in a minute`);
    });

    it("a registration code asked for an existing address answers like a new one; only the e-mail tells", async () => {
      const id = await user("member@example.com", "right-pass-1");
      await t.db.updateTable("users").set({ language_type: "ru" }).where("id", "=", id).execute();
      const existing = await sendEmailCode("Member@Example.com", "198.51.105.1", "fr");
      const fresh = await sendEmailCode("newcomer@example.com", "198.51.105.2", "fr");
      expect(existing.status).toBe(200);
      expect(existing.body).toEqual(fresh.body);
      const [notice] = smtp.to("member@example.com");
      expect(notice.subject).toBe("Ваша учётная запись AquaPilot");
      expect(notice.text).toContain("у вас уже есть учётная запись");
      expect(notice.text).not.toMatch(/\d{6}/);
      const [code] = smtp.to("newcomer@example.com");
      expect(code.subject).toBe("Votre code de vérification AquaPilot");
      expect(code.text).toMatch(/\b\d{6}\b/);
    });
  });

  describeEndpoint(endpoints.resetPassword, "a stranger cannot lock the owner out; guessing stays bounded", () => {
    const reset = (account: string, code: string, password: string, ip: string) =>
      call(t, endpoints.resetPassword, {
        query: { account, code, password, confirmPassword: password },
        remoteAddress: ip,
      });
    /** The newest 6-digit code mailed to `email`. */
    const mailedCode = (email: string) =>
      smtp
        .to(email)
        .at(-1)!
        .text.match(/\b(\d{6})\b/)![1];
    const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");
    /** `n` wrong tries on `email`'s reset code from `ip`: their error messages. */
    async function guess(email: string, code: string, ip: string, n: number): Promise<string[]> {
      const messages: string[] = [];
      for (let i = 0; i < n; i++) {
        const res = await reset(email, wrong(code), "stranger-pass-1", ip);
        expect(res.status).toBe(400);
        messages.push(res.body.error.message);
      }
      return messages;
    }
    const left = (n: number) => `Verification failed: wrong code. ${n} ${n === 1 ? "try" : "tries"} left.`;
    const dead = "Too many wrong tries. Please request a new code.";

    it("a stranger asking codes for the owner from several addresses does not use up the owner's: the owner's own request is served, from a new address too", async () => {
      const email = "probed@example.com";
      await user(email, "right-pass-1");
      for (let i = 1; i <= C.perTargetAddress; i++) {
        expect((await sendResetCode(email, `198.51.110.${i}`)).status).toBe(200);
        advance(61_000);
      }
      const own = await sendResetCode(email, "203.0.113.70");
      expect(own.status).toBe(200);
      // Every code the stranger asked for went to the owner's own mailbox.
      expect(smtp.to(email)).toHaveLength(C.perTargetAddress + 1);
    });

    it("the daily ceiling: 20 codes to one target from unknown addresses, then 429 for any new one; the owner's known address still gets a code", async () => {
      const email = "ceiling@example.com";
      await user(email, "right-pass-1");
      const home = "192.0.2.40";
      expect((await token(email, "right-pass-1", home)).statusCode).toBe(200);
      const addresses = C.targetCeiling / C.perTargetAddress;
      const statuses: number[] = [];
      for (let a = 0; a < addresses; a++) {
        for (let i = 0; i < C.perTargetAddress; i++) {
          statuses.push((await sendResetCode(email, `198.51.111.${a}`)).status);
          advance(61_000);
        }
      }
      expect(statuses).toEqual(Array(C.targetCeiling).fill(200));
      const over = await sendResetCode(email, "198.51.111.99");
      expect(over.status).toBe(429);
      expect(Number(over.headers["retry-after"])).toBeGreaterThan(C.targetCeilingWindowMs / 1000 - 25 * 61);
      expect((await sendEmailCode(email, "203.0.113.71")).status).toBe(429);
      expect(smtp.to(email)).toHaveLength(C.targetCeiling);
      // The owner at home: served, and the code works.
      expect((await sendResetCode(email, home)).status).toBe(200);
      expect(smtp.to(email)).toHaveLength(C.targetCeiling + 1);
      expect((await reset(email, mailedCode(email), "new-pass-1", home)).status).toBe(200);
      figures.push(`ceiling: ${C.targetCeiling} codes a day from unknown addresses, the owner's home served after`);
    });

    it("a stranger's wrong guesses leave the owner's code alive: 5 tries per address, then refused unchecked", async () => {
      const email = "guessed@example.com";
      await user(email, "right-pass-1");
      const owner = "203.0.113.72";
      expect((await sendResetCode(email, owner)).status).toBe(200);
      const code = mailedCode(email);
      const stranger = "198.51.112.1";
      expect(await guess(email, code, stranger, CODE_TRIES_PER_REQUESTER)).toEqual([
        left(4),
        left(3),
        left(2),
        left(1),
        dead,
      ]);
      // The stranger's sixth try is refused even with the right code.
      const sixth = await reset(email, code, "stranger-pass-1", stranger);
      expect(sixth.status).toBe(400);
      expect(sixth.body.error.message).toBe(dead);
      // The owner's try is their own first: the code works.
      expect((await reset(email, code, "new-pass-1", owner)).status).toBe(200);
      expect((await token(email, "new-pass-1", owner)).statusCode).toBe(200);
    });

    it("the code dies for everyone after 15 wrong tries from all addresses together", async () => {
      const email = "swarmed@example.com";
      await user(email, "right-pass-1");
      const owner = "203.0.113.73";
      expect((await sendResetCode(email, owner)).status).toBe(200);
      const code = mailedCode(email);
      expect(await guess(email, code, "198.51.113.1", 5)).toEqual([left(4), left(3), left(2), left(1), dead]);
      expect(await guess(email, code, "198.51.113.2", 5)).toEqual([left(4), left(3), left(2), left(1), dead]);
      expect(await guess(email, code, "198.51.113.3", 4)).toEqual([left(4), left(3), left(2), left(1)]);
      // The 15th wrong try, a fourth address's first, kills it: even the owner's right code is refused.
      expect(await guess(email, code, "198.51.113.4", 1)).toEqual([dead]);
      const late = await reset(email, code, "new-pass-1", owner);
      expect(late.status).toBe(400);
      expect(late.body.error.message).toBe(dead);
      figures.push(
        `code guessing: ${CODE_TRIES_PER_REQUESTER} tries per address, ${CODE_MAX_ATTEMPTS} per code; ${C.targetCeiling} codes a day from strangers`,
      );
    });

    it("a stranger's burst of wrong passwords: the owner resets the password with the mailed code and signs in at once from any address", async () => {
      const email = "burst-owner@example.com";
      await user(email, "right-pass-1");
      const attacker = "198.51.114.1";
      for (let failure = 1; failure <= S.lockAfter; failure++) {
        expect((await token(email, `wrong-${failure}`, attacker)).statusCode).toBe(400);
        if (failure >= S.delayAfter && failure < S.lockAfter) advance(60_000);
      }
      const locked = await token(email, "right-pass-1", "203.0.113.74");
      expect(locked.statusCode).toBe(429);
      expect(locked.json().error_description).toMatch(/reset your password/);
      expect((await sendResetCode(email, "203.0.113.75")).status).toBe(200);
      expect((await reset(email, mailedCode(email), "new-pass-1", "203.0.113.75")).status).toBe(200);
      // No wait: the new password works at once, from yet another address.
      expect((await token(email, "new-pass-1", "203.0.113.76")).statusCode).toBe(200);
      // The streak is over for the stranger too: a wrong password is a plain 400 again, not a 429.
      expect((await token(email, "wrong-again", attacker)).statusCode).toBe(400);
    });
  });

  describeEndpoint(endpoints.register, () => {
    it("registration: 10 attempts an hour per address, then 429; another address is unaffected", async () => {
      const register = (ip: string, lang = "en") =>
        call(t, endpoints.register, {
          remoteAddress: ip,
          lang,
          query: {
            bindType: "1",
            account: "reg@example.com",
            password: "pass-word-1",
            code: "000000",
            serviceRegion: "2",
          },
        });
      const statuses: number[] = [];
      for (let i = 0; i < DEFAULT_LIMITS.register.perAddress + 1; i++)
        statuses.push((await register("198.51.106.1")).status);
      expect(statuses).toEqual([...Array(DEFAULT_LIMITS.register.perAddress).fill(400), 429]);
      const over = await register("198.51.106.1", "zh-Hans");
      expect(over.headers["retry-after"]).toBe(String(DEFAULT_LIMITS.register.windowMs / 1000));
      expect(over.body.error.message).toBe("请求过于频繁，请 60 分钟后再试。");
      expect((await register("198.51.106.2")).status).toBe(400);
    });
  });

  describeEndpoint(endpoints.analysisCode, "share-code guessing", () => {
    it("joining by share code: 30 scans per 15 minutes per address, then 429; another address is unaffected", async () => {
      const admin = await user("admin@example.com", "right-pass-1");
      await insertFamily(t.db, "Admin", admin);
      await user("joiner@example.com", "right-pass-1");
      const signedIn = await token("joiner@example.com", "right-pass-1", "192.0.2.20");
      const authorization = `Bearer ${signedIn.json().access_token}`;
      const join = (ip: string, auth = true) =>
        call(t, endpoints.analysisCode, {
          as: auth ? authorization : null,
          remoteAddress: ip,
          query: { code: "AQF1.forged.code", preview: "true" },
        });
      // Anonymous callers are refused before they are counted.
      expect((await join("198.51.107.1", false)).status).toBe(401);
      const statuses: number[] = [];
      for (let i = 0; i <= DEFAULT_LIMITS.joinByCode.perAddress; i++)
        statuses.push((await join("198.51.107.1")).status);
      expect(statuses).toEqual([...Array(DEFAULT_LIMITS.joinByCode.perAddress).fill(400), 429]);
      expect((await join("198.51.107.2")).status).toBe(400);
      advance(DEFAULT_LIMITS.joinByCode.windowMs);
      expect((await join("198.51.107.1")).status).toBe(400);
    });
  });
});
