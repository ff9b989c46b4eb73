import { createHash } from "node:crypto";
import Fastify, { type FastifyRequest } from "fastify";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { registerRateLimiting } from "../http/rate-limit.ts";
import {
  createGuards,
  DEFAULT_LIMITS,
  type Guards,
  type Limits,
  type SignInGuard,
  scaleLimits,
  signInAccountKey,
  tooManyRequests,
} from "./limits.ts";

// Pure suites of the HTTP abuse limits and the sign-in lockout (docs/security.md; OWASP account-lockout guidance):
// the real @fastify/rate-limit plugin counting in memory on an app that never listens, with a fake Date (its
// in-memory store reads Date.now), so windows pass without waiting. Redis counting is covered by redis-limits.test.ts.

const SECOND = 1000;
const MINUTE = 60 * SECOND;

/** A request from client address `ip` (all the guards and the plugin read of a request: the address and route). */
const from = (ip: string) => ({ ip, routeOptions: {} }) as FastifyRequest;

/** The guards of a fresh app on `limits`. */
async function guardsOn(limits: Limits): Promise<Guards> {
  const app = Fastify();
  registerRateLimiting(app);
  await app.ready();
  return createGuards(app, limits);
}

/** Expects a 429 whose Retry-After is `seconds`. */
async function refusedFor(promise: Promise<unknown>, seconds: number) {
  await expect(promise).rejects.toMatchObject({ status: 429, params: { seconds } });
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date("2026-03-10T12:00:00.000Z"));
});
afterEach(() => {
  vi.useRealTimers();
});

describe("scaleLimits: RATE_LIMIT_SCALE multiplies counts, never windows or delays", () => {
  it("scale 1 answers the production limits", () => {
    expect(scaleLimits(1)).toEqual(DEFAULT_LIMITS);
  });

  it("scale 2 doubles every count and keeps every window and delay", () => {
    const s = scaleLimits(2);
    expect(s.signIn).toEqual({
      ...DEFAULT_LIMITS.signIn,
      perAddress: 60,
      addressFailures: 40,
      delayAfter: 10,
      lockAfter: 20,
    });
    expect(s.codes).toEqual({
      ...DEFAULT_LIMITS.codes,
      perTargetAddress: 10,
      targetCeiling: 40,
      perAddress: 20,
      globalEmail: 200,
      globalSms: 40,
    });
    expect(s.register).toEqual({ perAddress: 20, windowMs: 60 * MINUTE });
    expect(s.joinByCode).toEqual({ perAddress: 60, windowMs: 15 * MINUTE });
  });

  it("rounds to the nearest whole count and never goes below 1", () => {
    const half = scaleLimits(0.5);
    expect(half.signIn.delayAfter).toBe(3); // 2.5
    expect(half.codes.perTargetAddress).toBe(3); // 2.5
    expect(half.codes.targetCeiling).toBe(10);
    expect(half.codes.triesWindowMs).toBe(10 * MINUTE);
    expect(half.codes.globalSms).toBe(10);
    const tiny = scaleLimits(0.001);
    expect(tiny.signIn.perAddress).toBe(1);
    expect(tiny.codes.globalEmail).toBe(1);
    expect(tiny.signIn.lockoutMs).toBe(15 * MINUTE);
  });

  it("scales a given set of limits rather than the defaults", () => {
    const own = { ...DEFAULT_LIMITS, register: { perAddress: 4, windowMs: 7 } };
    expect(scaleLimits(3, own).register).toEqual({ perAddress: 12, windowMs: 7 });
  });
});

describe("tooManyRequests: the 429 of a limit", () => {
  it("under two minutes, says the seconds", () => {
    expect(tooManyRequests(42)).toMatchObject({
      status: 429,
      code: "TooManyRequests",
      messageKey: "limits.retrySeconds",
      params: { seconds: 42, minutes: 1 },
    });
    expect(tooManyRequests(119)).toMatchObject({ messageKey: "limits.retrySeconds", params: { seconds: 119 } });
  });

  it("from two minutes on, says the minutes, rounded up", () => {
    expect(tooManyRequests(120)).toMatchObject({
      messageKey: "limits.retryMinutes",
      params: { seconds: 120, minutes: 2 },
    });
    expect(tooManyRequests(121)).toMatchObject({
      messageKey: "limits.retryMinutes",
      params: { seconds: 121, minutes: 3 },
    });
  });
});

describe("signInAccountKey", () => {
  it("an existing account is keyed by its id; an unknown login by its trimmed, lower-cased text, hashed", () => {
    expect(signInAccountKey({ userId: "u-1" })).toBe("u:u-1");
    const hashed = `n:${createHash("sha256").update("ghost@example.com").digest("base64url")}`;
    expect(signInAccountKey({ unknownLogin: "ghost@example.com" })).toBe(hashed);
    expect(signInAccountKey({ unknownLogin: "  Ghost@Example.COM " })).toBe(hashed);
  });
});

describe("code sending, registration and share-code scans: counts per address, target and channel", () => {
  const limits: Limits = {
    ...DEFAULT_LIMITS,
    codes: {
      ...DEFAULT_LIMITS.codes,
      perAddress: 3,
      perTargetAddress: 2,
      targetCeiling: 3,
      globalEmail: 4,
      globalSms: 1,
    },
    register: { perAddress: 2, windowMs: 10 * MINUTE },
    joinByCode: { perAddress: 1, windowMs: 90 * SECOND },
  };

  it("one address gets perTargetAddress codes per hour to a target, however it is written; another address has its own share", async () => {
    const guards = await guardsOn({ ...limits, codes: { ...limits.codes, targetCeiling: 10 } });
    const ip = from("198.51.100.1");
    await guards.codeSend(ip, "email", "a@example.com");
    vi.advanceTimersByTime(20 * MINUTE);
    await guards.codeSend(ip, "email", " A@Example.com ");
    await refusedFor(guards.codeSend(ip, "email", "a@example.com"), 2400);
    await guards.codeSend(from("198.51.100.2"), "email", "a@example.com");
    // The hour of the first address ends 40 minutes later.
    vi.advanceTimersByTime(40 * MINUTE);
    await guards.codeSend(ip, "email", "a@example.com");
  });

  it("targets that differ only in case share a count; lower-casing keeps ß and ss apart", async () => {
    const guards = await guardsOn({ ...limits, codes: { ...limits.codes, perAddress: 10, globalEmail: 100 } });
    const ip = from("198.51.100.1");
    await guards.codeSend(ip, "email", "Straße@example.com");
    await guards.codeSend(ip, "email", "straße@example.com");
    await refusedFor(guards.codeSend(ip, "email", "STRAßE@example.com"), 3600);
    // Upper-casing would make ß "SS": strasse@ is another target, with its own share at the same address.
    await guards.codeSend(ip, "email", "strasse@example.com");
  });

  it("all addresses together get targetCeiling codes per day to a target; a refusal there is per target", async () => {
    const guards = await guardsOn(limits);
    await guards.codeSend(from("198.51.100.1"), "email", "c@example.com");
    await guards.codeSend(from("198.51.100.2"), "email", "C@example.com");
    vi.advanceTimersByTime(2 * 60 * MINUTE);
    await guards.codeSend(from("198.51.100.2"), "email", "c@example.com", "someone-else");
    await refusedFor(guards.codeSend(from("198.51.100.3"), "email", "c@example.com"), 22 * 3600);
    await guards.codeSend(from("198.51.100.3"), "email", "d@example.com");
    vi.advanceTimersByTime(22 * 60 * MINUTE);
    await guards.codeSend(from("198.51.100.4"), "email", "c@example.com");
  });

  it("an address the target's account signed in from is neither held nor counted by the ceiling; its own share still holds", async () => {
    const guards = await guardsOn({ ...limits, codes: { ...limits.codes, perAddress: 10, globalEmail: 100 } });
    const home = from("192.0.2.30");
    const ok = await guards.signIn.admit(home, { userId: "owner" });
    if (!("count" in ok)) throw new Error("refused");
    await guards.signIn.succeeded(home, ok);
    for (const ip of ["198.51.100.1", "198.51.100.2", "198.51.100.3"])
      await guards.codeSend(from(ip), "email", "owner@example.com", "owner");
    await refusedFor(guards.codeSend(from("198.51.100.4"), "email", "owner@example.com", "owner"), 24 * 3600);
    await guards.codeSend(home, "email", "owner@example.com", "owner");
    await guards.codeSend(home, "email", "owner@example.com", "owner");
    await refusedFor(guards.codeSend(home, "email", "owner@example.com", "owner"), 3600);
    // Known to "owner" only: for another account, or without one, the home address is held like any other.
    await refusedFor(guards.codeSend(from("192.0.2.30"), "email", "owner@example.com", "other"), 3600);
    await refusedFor(guards.codeSend(from("192.0.2.30"), "email", "owner@example.com", null), 3600);
  });

  it("the ceiling does not count codes of an owner's known address", async () => {
    const guards = await guardsOn({ ...limits, codes: { ...limits.codes, perAddress: 10, globalEmail: 100 } });
    const home = from("192.0.2.31");
    const ok = await guards.signIn.admit(home, { userId: "owner" });
    if (!("count" in ok)) throw new Error("refused");
    await guards.signIn.succeeded(home, ok);
    await guards.codeSend(home, "email", "owner@example.com", "owner");
    await guards.codeSend(home, "sms", "owner@example.com", "owner");
    for (const ip of ["198.51.100.1", "198.51.100.2", "198.51.100.3"])
      await guards.codeSend(from(ip), "email", "owner@example.com", "owner");
    await refusedFor(guards.codeSend(from("198.51.100.5"), "email", "owner@example.com"), 24 * 3600);
  });

  it("a code requester's tries are counted per code and address, for triesWindowMs", async () => {
    const guards = await guardsOn(DEFAULT_LIMITS);
    const a = guards.codeRequester(from("198.51.100.1"));
    expect(await a.tryCode("code-1")).toBe(1);
    expect(await a.tryCode("code-1")).toBe(2);
    expect(await a.tryCode("code-2")).toBe(1);
    expect(await guards.codeRequester(from("198.51.100.2")).tryCode("code-1")).toBe(1);
    expect(await guards.codeRequester(from("198.51.100.1")).tryCode("code-1")).toBe(3);
    vi.advanceTimersByTime(10 * MINUTE);
    expect(await a.tryCode("code-1")).toBe(1);
  });

  it("an address asks perAddress codes per hour; a refused request counts on no later limit", async () => {
    const guards = await guardsOn(limits);
    const ip = from("198.51.100.9");
    await guards.codeSend(ip, "email", "a@example.com");
    await guards.codeSend(ip, "email", "b@example.com");
    vi.advanceTimersByTime(30 * MINUTE);
    await guards.codeSend(ip, "email", "c@example.com");
    await refusedFor(guards.codeSend(ip, "email", "d@example.com"), 1800);
    // d@ was not counted by the refused request: two more sends to it from elsewhere pass.
    await guards.codeSend(from("198.51.100.10"), "email", "d@example.com");
    await guards.codeSend(from("198.51.100.11"), "email", "d@example.com");
    await guards.codeSend(from("198.51.100.12"), "email", "d@example.com");
    // The address's hour ends 30 minutes later.
    vi.advanceTimersByTime(30 * MINUTE);
    await guards.codeSend(ip, "email", "e@example.com");
  });

  it("each channel has its own server-wide count per minute", async () => {
    const guards = await guardsOn(limits);
    await guards.codeSend(from("203.0.113.1"), "sms", "+4911");
    await refusedFor(guards.codeSend(from("203.0.113.2"), "sms", "+4922"), 60);
    for (let i = 3; i <= 6; i++) await guards.codeSend(from(`203.0.113.${i}`), "email", `${i}@example.com`);
    await refusedFor(guards.codeSend(from("203.0.113.7"), "email", "7@example.com"), 60);
    vi.advanceTimersByTime(MINUTE);
    await guards.codeSend(from("203.0.113.8"), "sms", "+4988");
  });

  it("registrations: perAddress per window, then again once the window ends", async () => {
    const guards = await guardsOn(limits);
    await guards.register(from("192.0.2.1"));
    await guards.register(from("192.0.2.1"));
    await refusedFor(guards.register(from("192.0.2.1")), 600);
    await guards.register(from("192.0.2.2"));
    vi.advanceTimersByTime(10 * MINUTE);
    await guards.register(from("192.0.2.1"));
  });

  it("share-code scans: perAddress per window", async () => {
    const guards = await guardsOn(limits);
    await guards.joinByCode(from("192.0.2.1"));
    vi.advanceTimersByTime(30 * SECOND);
    await refusedFor(guards.joinByCode(from("192.0.2.1")), 60);
    await guards.joinByCode(from("192.0.2.2"));
  });
});

describe("sign-in guard", () => {
  const admitted = expect.objectContaining({ count: expect.any(Number) });

  it("an address makes perAddress password grants per minute, whatever their outcome", async () => {
    const guards = await guardsOn({ ...DEFAULT_LIMITS, signIn: { ...DEFAULT_LIMITS.signIn, perAddress: 2 } });
    const ip = from("198.51.100.7");
    expect(await guards.signIn.admit(ip, { userId: "u1" })).toEqual(admitted);
    expect(await guards.signIn.admit(ip, { userId: "u2" })).toEqual(admitted);
    vi.advanceTimersByTime(20 * SECOND);
    expect(await guards.signIn.admit(ip, { userId: "u3" })).toEqual({ reason: "address", retryAfterSeconds: 40 });
    expect(await guards.signIn.admit(from("198.51.100.8"), { userId: "u3" })).toEqual(admitted);
  });

  it("an address with addressFailures failures may not try again until its failure window ends", async () => {
    const guards = await guardsOn({ ...DEFAULT_LIMITS, signIn: { ...DEFAULT_LIMITS.signIn, addressFailures: 2 } });
    const ip = from("198.51.100.7");
    const first = await guards.signIn.admit(ip, { userId: "u1" });
    if (!("count" in first)) throw new Error("refused");
    await guards.signIn.failed(ip, first);
    const second = await guards.signIn.admit(ip, { unknownLogin: "someone" });
    if (!("count" in second)) throw new Error("refused");
    // One failure is below the limit.
    vi.advanceTimersByTime(MINUTE);
    expect(await guards.signIn.admit(ip, { userId: "u2" })).toEqual(admitted);
    await guards.signIn.failed(ip, second);
    vi.advanceTimersByTime(MINUTE);
    expect(await guards.signIn.admit(ip, { userId: "u3" })).toEqual({ reason: "address", retryAfterSeconds: 13 * 60 });
    vi.advanceTimersByTime(13 * MINUTE);
    expect(await guards.signIn.admit(ip, { userId: "u3" })).toEqual(admitted);
  });

  it("an admitted attempt tells its account key, address, user and failure count", async () => {
    const guards = await guardsOn(DEFAULT_LIMITS);
    expect(await guards.signIn.admit(from("192.0.2.5"), { userId: "u1" })).toEqual({
      accountKey: "u:u1",
      address: "192.0.2.5",
      userId: "u1",
      count: 1,
    });
    expect(await guards.signIn.admit(from("192.0.2.5"), { unknownLogin: "ghost" })).toEqual({
      accountKey: signInAccountKey({ unknownLogin: "ghost" }),
      address: "192.0.2.5",
      userId: null,
      count: 1,
    });
  });

  /**
   * Makes `n` failed attempts on `account`, each from a new address and as soon as the guard lets it (so address
   * limits never interfere), and answers the waits the guard imposed before each, in seconds.
   */
  async function failTimes(guards: Guards, account: { userId: string } | { unknownLogin: string }, n: number) {
    const waits: number[] = [];
    for (let i = 0; i < n; i++) {
      const ip = from(`10.0.${Math.floor(i / 200)}.${i % 200}`);
      let outcome = await guards.signIn.admit(ip, account);
      if ("reason" in outcome) {
        waits.push(outcome.retryAfterSeconds);
        vi.advanceTimersByTime(outcome.retryAfterSeconds * SECOND);
        outcome = await guards.signIn.admit(ip, account);
      } else waits.push(0);
      if ("reason" in outcome) throw new Error(`refused after waiting: ${JSON.stringify(outcome)}`);
      await guards.signIn.failed(ip, outcome);
    }
    return waits;
  }

  it("from 5 failures on an account waits 2, 4, 8, 16, 32 s; from 10 on it is locked 15 minutes per try", async () => {
    const guards = await guardsOn(DEFAULT_LIMITS);
    expect(await failTimes(guards, { userId: "victim" }, 12)).toEqual([0, 0, 0, 0, 0, 2, 4, 8, 16, 32, 900, 900]);
    const next = await guards.signIn.admit(from("10.9.9.9"), { userId: "victim" });
    expect(next).toEqual({ reason: "lockout", retryAfterSeconds: 900 });
  });

  it("a delayed account tells the time left of its delay, not the whole delay", async () => {
    const guards = await guardsOn(DEFAULT_LIMITS);
    await failTimes(guards, { userId: "victim" }, 7);
    // The 7th attempt was let through 4 s after the 6th; the 8th must wait 8 s after the 7th.
    vi.advanceTimersByTime(3 * SECOND);
    expect(await guards.signIn.admit(from("10.8.8.8"), { userId: "victim" })).toEqual({
      reason: "delay",
      retryAfterSeconds: 5,
    });
  });

  it("an unknown login is throttled like an account, however it is written", async () => {
    const guards = await guardsOn(DEFAULT_LIMITS);
    await failTimes(guards, { unknownLogin: "Ghost" }, 5);
    expect(await guards.signIn.admit(from("10.7.7.7"), { unknownLogin: " ghost " })).toEqual({
      reason: "delay",
      retryAfterSeconds: 2,
    });
  });

  it("forgiving an account (a password reset) ends its lockout and its delays at once, for that account only", async () => {
    const guards = await guardsOn(DEFAULT_LIMITS);
    await failTimes(guards, { userId: "owner" }, 11);
    await failTimes(guards, { userId: "other" }, 10);
    await guards.signIn.forgive(from("10.5.5.5"), "owner");
    expect(await guards.signIn.admit(from("10.5.5.6"), { userId: "owner" })).toEqual(
      expect.objectContaining({ count: 1 }),
    );
    expect(await guards.signIn.admit(from("10.5.5.6"), { userId: "other" })).toEqual({
      reason: "lockout",
      retryAfterSeconds: 900,
    });
    // That attempt started a new streak: its fifth failure on waits as from the first.
    expect(await failTimes(guards, { userId: "owner" }, 5)).toEqual([0, 0, 0, 0, 2]);
  });

  it("forgiving at the delay threshold closes that count's delay too, so the next streak waits in full", async () => {
    const guards = await guardsOn(DEFAULT_LIMITS);
    await failTimes(guards, { userId: "owner" }, 5);
    await guards.signIn.forgive(from("192.0.2.71"), "owner");
    vi.advanceTimersByTime(SECOND);
    await failTimes(guards, { userId: "owner" }, 5);
    expect(await guards.signIn.admit(from("10.3.3.4"), { userId: "owner" })).toEqual({
      reason: "delay",
      retryAfterSeconds: 2,
    });
  });

  it("forgiving an account without failures changes nothing", async () => {
    const guards = await guardsOn(DEFAULT_LIMITS);
    await guards.signIn.forgive(from("192.0.2.72"), "fresh");
    expect(await failTimes(guards, { userId: "fresh" }, 6)).toEqual([0, 0, 0, 0, 0, 2]);
  });

  it("a known address is one the account signed in from within knownAddressWindowMs", async () => {
    const guards = await guardsOn(DEFAULT_LIMITS);
    const home = from("192.0.2.33");
    expect(await guards.signIn.isKnownAddress(home, "owner")).toBe(false);
    const ok = await guards.signIn.admit(home, { userId: "owner" });
    if (!("count" in ok)) throw new Error("refused");
    expect(await guards.signIn.isKnownAddress(home, "owner")).toBe(false);
    await guards.signIn.succeeded(home, ok);
    expect(await guards.signIn.isKnownAddress(home, "owner")).toBe(true);
    expect(await guards.signIn.isKnownAddress(home, "other")).toBe(false);
    expect(await guards.signIn.isKnownAddress(from("192.0.2.34"), "owner")).toBe(false);
    vi.advanceTimersByTime(30 * 24 * 60 * MINUTE);
    expect(await guards.signIn.isKnownAddress(home, "owner")).toBe(false);
  });

  it("a successful sign-in forgets the account's failures", async () => {
    const guards = await guardsOn(DEFAULT_LIMITS);
    await failTimes(guards, { userId: "owner" }, 6);
    vi.advanceTimersByTime(4 * SECOND);
    const ok = await guards.signIn.admit(from("192.0.2.80"), { userId: "owner" });
    if (!("count" in ok)) throw new Error("refused");
    expect(ok.count).toBe(7);
    await guards.signIn.succeeded(from("192.0.2.80"), ok);
    expect(await failTimes(guards, { userId: "owner" }, 7)).toEqual([0, 0, 0, 0, 0, 2, 4]);
  });

  it("the owner's known address waits only a minute past the lockout threshold; elsewhere it stays locked", async () => {
    const guards = await guardsOn(DEFAULT_LIMITS);
    const home = from("192.0.2.50");
    const ok = await guards.signIn.admit(home, { userId: "owner" });
    if (!("count" in ok)) throw new Error("refused");
    await guards.signIn.succeeded(home, ok);
    await failTimes(guards, { userId: "owner" }, 11);
    expect(await guards.signIn.admit(from("10.6.6.6"), { userId: "owner" })).toEqual({
      reason: "lockout",
      retryAfterSeconds: 900,
    });
    vi.advanceTimersByTime(30 * SECOND);
    expect(await guards.signIn.admit(home, { userId: "owner" })).toEqual({ reason: "delay", retryAfterSeconds: 30 });
    vi.advanceTimersByTime(30 * SECOND);
    expect(await guards.signIn.admit(home, { userId: "owner" })).toEqual(admitted);
    // A known address is the account's own: another account is locked there as anywhere.
    await failTimes(guards, { userId: "other" }, 11);
    expect(await guards.signIn.admit(home, { userId: "other" })).toEqual({ reason: "lockout", retryAfterSeconds: 900 });
  });
  it("the lockout starts at exactly lockAfter failures, also at the owner's known address (there: one minute)", async () => {
    const guards = await guardsOn(DEFAULT_LIMITS);
    const home = from("192.0.2.60");
    const ok = await guards.signIn.admit(home, { userId: "owner" });
    if (!("count" in ok)) throw new Error("refused");
    await guards.signIn.succeeded(home, ok);
    await failTimes(guards, { userId: "owner" }, 10);
    expect(await guards.signIn.admit(from("10.4.4.4"), { userId: "owner" })).toEqual({
      reason: "lockout",
      retryAfterSeconds: 900,
    });
    expect(await guards.signIn.admit(home, { userId: "owner" })).toEqual({ reason: "delay", retryAfterSeconds: 60 });
  });

  it("below the lockout, the known address waits the same growing delays as anywhere", async () => {
    const guards = await guardsOn(DEFAULT_LIMITS);
    const home = from("192.0.2.61");
    const ok = await guards.signIn.admit(home, { userId: "owner" });
    if (!("count" in ok)) throw new Error("refused");
    await guards.signIn.succeeded(home, ok);
    await failTimes(guards, { userId: "owner" }, 5);
    expect(await guards.signIn.admit(home, { userId: "owner" })).toEqual({ reason: "delay", retryAfterSeconds: 2 });
  });

  it("a success at the delay threshold closes that count's delay too, so the next streak waits in full", async () => {
    const guards = await guardsOn(DEFAULT_LIMITS);
    await failTimes(guards, { userId: "owner" }, 4);
    // The fifth attempt (the first to open a 2 s delay) succeeds.
    const fifth = await guards.signIn.admit(from("192.0.2.70"), { userId: "owner" });
    if (!("count" in fifth)) throw new Error("refused");
    expect(fifth.count).toBe(5);
    await guards.signIn.succeeded(from("192.0.2.70"), fifth);
    // One second later a new streak reaches 5 failures: its delay is the whole 2 s, not what was left of the old one.
    vi.advanceTimersByTime(SECOND);
    await failTimes(guards, { userId: "owner" }, 5);
    expect(await guards.signIn.admit(from("10.3.3.3"), { userId: "owner" })).toEqual({
      reason: "delay",
      retryAfterSeconds: 2,
    });
  });

  /** Fires `n` admits on `account` at the same moment, from distinct addresses. */
  const burst = (guards: Guards, account: { userId: string }, n: number) =>
    Promise.all(Array.from({ length: n }, (_, k) => guards.signIn.admit(from(`172.16.0.${k + 1}`), account)));
  const admittedOf = (outcomes: Awaited<ReturnType<SignInGuard["admit"]>>[]) => outcomes.filter((o) => "count" in o);
  const refusalsOf = (outcomes: Awaited<ReturnType<SignInGuard["admit"]>>[]) => outcomes.filter((o) => "reason" in o);

  it("a concurrent burst below the delay threshold all goes through", async () => {
    const guards = await guardsOn(DEFAULT_LIMITS);
    expect(admittedOf(await burst(guards, { userId: "u" }, 3))).toHaveLength(3);
  });

  it("a concurrent burst cannot slip past the delay: at most one goes through, the rest wait the delay", async () => {
    const guards = await guardsOn(DEFAULT_LIMITS);
    await failTimes(guards, { userId: "victim" }, 4);
    const outcomes = await burst(guards, { userId: "victim" }, 2);
    expect(admittedOf(outcomes).length).toBeLessThanOrEqual(1);
    expect(refusalsOf(outcomes).length).toBeGreaterThanOrEqual(1);
    for (const r of refusalsOf(outcomes)) expect(r).toEqual({ reason: "delay", retryAfterSeconds: 2 });
  });

  it("a concurrent burst into the lockout: the rest are locked out, except at the owner's known address", async () => {
    const guards = await guardsOn(DEFAULT_LIMITS);
    await failTimes(guards, { userId: "victim" }, 9);
    vi.advanceTimersByTime(32 * SECOND);
    const outcomes = await burst(guards, { userId: "victim" }, 2);
    expect(admittedOf(outcomes).length).toBeLessThanOrEqual(1);
    expect(refusalsOf(outcomes).length).toBeGreaterThanOrEqual(1);
    for (const r of refusalsOf(outcomes)) expect(r).toEqual({ reason: "lockout", retryAfterSeconds: 900 });

    const home = from("192.0.2.90");
    const ok = await guards.signIn.admit(home, { userId: "owner" });
    if (!("count" in ok)) throw new Error("refused");
    await guards.signIn.succeeded(home, ok);
    await failTimes(guards, { userId: "owner" }, 9);
    vi.advanceTimersByTime(32 * SECOND);
    const atHome = await Promise.all([
      guards.signIn.admit(home, { userId: "owner" }),
      guards.signIn.admit(home, { userId: "owner" }),
    ]);
    expect(admittedOf(atHome).length).toBeLessThanOrEqual(1);
    expect(refusalsOf(atHome).length).toBeGreaterThanOrEqual(1);
    for (const r of refusalsOf(atHome)) expect(r).toEqual({ reason: "delay", retryAfterSeconds: 60 });
  });
});
