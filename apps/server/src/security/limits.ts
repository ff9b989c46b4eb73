import { createHash } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { CodeRequester } from "../auth/verification-codes.ts";
import { AppError, ErrorCode } from "../http/errors.ts";
import { type Counter, clientAddressKey, createCounter, retryAfterSeconds } from "../http/rate-limit.ts";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * The HTTP rate limits and sign-in lockout, production values (counts are multiplied by the config's
 * RATE_LIMIT_SCALE, see {@link scaleLimits}; windows and delays never are). Counted by @fastify/rate-limit's stores
 * (memory, or Redis with REDIS_URL): http/rate-limit.ts. What each protects is in docs/security.md.
 */
export const DEFAULT_LIMITS = {
  signIn: {
    /** Password grants per client address per minute, whatever their outcome: a ceiling on argon2 work per address. */
    perAddress: 30,
    perAddressWindowMs: MINUTE,
    /** Failed password grants per client address (any accounts) before the address may not try again … */
    addressFailures: 20,
    /** … until this window, started by the address's first failure, ends. */
    addressFailureWindowMs: 15 * MINUTE,
    /** From this many failures of one account on, each further try waits a growing delay … */
    delayAfter: 5,
    /** … of delayBaseMs × 2^(failures − delayAfter): 2, 4, 8, 16, 32 s … */
    delayBaseMs: 2 * SECOND,
    /** … and from this many failures on, password sign-in is locked for lockoutMs after each further one … */
    lockAfter: 10,
    lockoutMs: 15 * MINUTE,
    /**
     * … except from an address the account signed in from successfully within knownAddressWindowMs, which waits
     * only knownAddressDelayMs between tries (an attacker elsewhere cannot lock the owner out of their home).
     */
    knownAddressDelayMs: MINUTE,
    knownAddressWindowMs: 30 * 24 * HOUR,
    /** An account's failures are forgotten this long after the first of them, or at its next successful sign-in. */
    failureWindowMs: 24 * HOUR,
  },
  codes: {
    /**
     * Verification codes sent to one e-mail address or phone number at the request of one client address, whatever
     * the purpose: a stranger's address uses up only its own share of the owner's codes …
     */
    perTargetAddress: 5,
    perTargetWindowMs: HOUR,
    /**
     * … and all addresses together may have at most this many codes sent to one target per day (mail and SMS
     * bombing, code guessing), except an address the target's account signed in from within
     * signIn.knownAddressWindowMs, which is not counted here: the owner at home still gets a code.
     */
    targetCeiling: 20,
    targetCeilingWindowMs: 24 * HOUR,
    /** Code requests from one client address (any targets) … */
    perAddress: 10,
    perAddressWindowMs: HOUR,
    /** E-mails and SMS with codes from the whole server (every process with Redis) per minute. */
    globalEmail: 100,
    globalSms: 20,
    globalWindowMs: MINUTE,
    /**
     * How long a client address's tries on one code are remembered (auth/verification-codes.ts
     * CODE_TRIES_PER_REQUESTER): a code's lifetime, CODE_TTL_SECONDS.
     */
    triesWindowMs: 10 * MINUTE,
  },
  /** Registrations (POST …/account/register, each trying a code) per client address. */
  register: { perAddress: 10, windowMs: HOUR },
  /** Share-code scans and joins (GET …/family-user/analysis-code) per client address. */
  joinByCode: { perAddress: 30, windowMs: 15 * MINUTE },
} as const;

type Widen<T> = { -readonly [K in keyof T]: T[K] extends number ? number : Widen<T[K]> };
/** A set of limits shaped like {@link DEFAULT_LIMITS}. */
export type Limits = Widen<typeof DEFAULT_LIMITS>;

const COUNT_FIELDS = new Set([
  "perAddress",
  "addressFailures",
  "delayAfter",
  "lockAfter",
  "perTargetAddress",
  "targetCeiling",
  "globalEmail",
  "globalSms",
]);

/**
 * The limits with every count (not windows or delays) multiplied by `scale` (config RATE_LIMIT_SCALE) and rounded,
 * at least 1. Scale 1 answers {@link DEFAULT_LIMITS}.
 */
export function scaleLimits(scale: number, limits: Limits = DEFAULT_LIMITS): Limits {
  const scaled = (group: Record<string, number>) =>
    Object.fromEntries(
      Object.entries(group).map(([k, v]) => [k, COUNT_FIELDS.has(k) ? Math.max(1, Math.round(v * scale)) : v]),
    );
  return {
    signIn: scaled(limits.signIn) as Limits["signIn"],
    codes: scaled(limits.codes) as Limits["codes"],
    register: scaled(limits.register) as Limits["register"],
    joinByCode: scaled(limits.joinByCode) as Limits["joinByCode"],
  };
}

/** Whom a password grant is for: an existing account's id, or the login text of an account that does not exist. */
export type SignInAccount = { userId: string } | { unknownLogin: string };

/** A password grant let through by {@link SignInGuard.admit}: report its outcome with failed / succeeded. */
export interface SignInAttempt {
  readonly accountKey: string;
  readonly address: string;
  readonly userId: string | null;
  /** The account's failure count including this attempt. */
  readonly count: number;
}

/** Why {@link SignInGuard.admit} refused, with the seconds to wait. */
export interface SignInRefusal {
  reason: "address" | "delay" | "lockout";
  retryAfterSeconds: number;
}

/**
 * Sign-in throttling (OWASP ASVS V6.3 / the OWASP account-lockout guidance): per client address and per
 * account, decided BEFORE the password is checked, so a refused attempt costs no argon2 hash. An unknown account is
 * throttled exactly like an existing one (keyed by its login text), so throttling does not tell which accounts exist.
 */
export interface SignInGuard {
  /**
   * Counts a password grant and answers whether it may go on to the password check: refused when the address made
   * too many grants this minute or too many failures (limits.signIn), or the account must wait its growing delay or
   * is locked out (an address the account recently signed in from waits a short delay instead of the lockout).
   * The account's count is raised here, before the check, so concurrent tries cannot slip past the delay.
   */
  admit(request: FastifyRequest, account: SignInAccount): Promise<SignInAttempt | SignInRefusal>;
  /** Records a wrong password for an admitted attempt (the address's failure count). */
  failed(request: FastifyRequest, attempt: SignInAttempt): Promise<void>;
  /** Records a successful sign-in: the account's failures are forgotten and the address becomes known to it. */
  succeeded(request: FastifyRequest, attempt: SignInAttempt): Promise<void>;
  /**
   * Ends the failure streak of the account `userId` (its failures and delays are forgotten, as at a successful
   * sign-in) after its owner proved control of the account otherwise: a password reset with an e-mailed or texted
   * code. A stranger's burst of wrong passwords then locks the owner out only until they reset the password.
   */
  forgive(request: FastifyRequest, userId: string): Promise<void>;
  /** Whether the client address of `request` signed in to the account `userId` within knownAddressWindowMs. */
  isKnownAddress(request: FastifyRequest, userId: string): Promise<boolean>;
}

/** The abuse limits of the HTTP API, one set per app; see {@link createGuards}. */
export interface Guards {
  limits: Limits;
  signIn: SignInGuard;
  /**
   * Counts one verification code about to be sent to `target` (normalised e-mail or +CC phone) by `channel`, per
   * client address, per target and client address, per target across addresses (not counted for an address the
   * account `userId`, the target's owner when it has one, signed in from recently) and globally per channel, in
   * that order (a request refused by one limit is not counted by the next).
   * @throws AppError TooManyRequests (429, limits.retrySeconds / limits.retryMinutes with `seconds`, which the error
   *   handler also sends as Retry-After).
   */
  codeSend(request: FastifyRequest, channel: "email" | "sms", target: string, userId?: string | null): Promise<void>;
  /**
   * The client address of `request` as a {@link CodeRequester}: its tries per code are counted in the rate-limit
   * store for codes.triesWindowMs.
   */
  codeRequester(request: FastifyRequest): CodeRequester;
  /** Counts one registration attempt of the client address. @throws AppError TooManyRequests as {@link codeSend}. */
  register(request: FastifyRequest): Promise<void>;
  /** Counts one share-code scan or join of the client address. @throws AppError TooManyRequests as {@link codeSend}. */
  joinByCode(request: FastifyRequest): Promise<void>;
}

/**
 * The 429 AppError of a limit, worded by how long the wait is: "… in 42 s" under two minutes, else in minutes.
 * `params.seconds` is the Retry-After value (http/error-handler.ts sends it as the header).
 */
export function tooManyRequests(seconds: number): AppError {
  const minutes = Math.ceil(seconds / 60);
  return new AppError(ErrorCode.TooManyRequests, seconds < 120 ? "limits.retrySeconds" : "limits.retryMinutes", {
    seconds,
    minutes,
  });
}

/** A short fixed-length key for free text (login names, targets): SHA-256, base64url. */
function digest(text: string): string {
  return createHash("sha256").update(text).digest("base64url");
}

/**
 * The counter key of a sign-in account: the user id for an existing account (every name it is reached by counts
 * together), else the trimmed, lower-cased login text, hashed.
 */
export function signInAccountKey(account: SignInAccount): string {
  return "userId" in account ? `u:${account.userId}` : `n:${digest(account.unknownLogin.trim().toLowerCase())}`;
}

/**
 * Builds the {@link Guards} of `app` on its rate-limit plugin (http/rate-limit.ts `registerRateLimiting` must have
 * been called). The counters are named `signin-*`, `code-*`, `register-address` and `join-address`.
 */
export function createGuards(app: FastifyInstance, limits: Limits): Guards {
  const s = limits.signIn;
  const c = limits.codes;
  const bigCache = 100_000;
  const counter = (name: string, windowMs: number | ((key: string) => number), cacheSize?: number): Counter =>
    createCounter(app, { name, windowMs, cacheSize });

  const signInByAddress = counter("signin-address", s.perAddressWindowMs, bigCache);
  const failuresByAddress = counter("signin-address-failures", s.addressFailureWindowMs, bigCache);
  const failuresByAccount = counter("signin-account-failures", s.failureWindowMs, bigCache);
  const knownAddresses = counter("signin-known-addresses", s.knownAddressWindowMs, bigCache);
  // One key per account and failure count ("<account>#<n>"), hit when the n-th counted attempt starts; its window is
  // the wait that n failures impose, so the time since that attempt is window − ttl.
  const gateWindow = (n: number) => (n >= s.lockAfter ? s.lockoutMs : s.delayBaseMs * 2 ** (n - s.delayAfter));
  const gates = counter("signin-gates", (key) => gateWindow(Number(key.slice(key.lastIndexOf("#") + 1))), bigCache);
  /** The wait after the n-th failure, ms (0 below delayAfter). */
  const waitAfter = (n: number, known: boolean) =>
    n < s.delayAfter ? 0 : n >= s.lockAfter && known ? Math.min(s.knownAddressDelayMs, s.lockoutMs) : gateWindow(n);

  /** Ms still to wait before an attempt on `accountKey` with `n` counted failures (0: go). */
  async function waitFor(request: FastifyRequest, accountKey: string, n: number, known: boolean): Promise<number> {
    const wait = waitAfter(n, known);
    if (wait === 0) return 0;
    const gate = await gates.peek(request, `${accountKey}#${n}`);
    if (gate.count === 0) return 0;
    const elapsed = gateWindow(n) - gate.ttlMs;
    return Math.max(0, wait - elapsed);
  }

  async function isKnownAddress(request: FastifyRequest, userId: string): Promise<boolean> {
    return (await knownAddresses.peek(request, `${userId}|${clientAddressKey(request)}`)).count > 0;
  }

  /** Forgets the failures of `accountKey`, whose streak reached `count`, and the gates of that streak. */
  async function endStreak(request: FastifyRequest, accountKey: string, count: number): Promise<void> {
    await failuresByAccount.reset(request, accountKey);
    // The gates of this streak's counts go too (at most the last 100), so the next streak starts clean.
    for (let n = count; n >= Math.max(s.delayAfter, count - 100); n--) {
      await gates.reset(request, `${accountKey}#${n}`);
    }
  }

  const refusal = (reason: SignInRefusal["reason"], ms: number): SignInRefusal => ({
    reason,
    retryAfterSeconds: retryAfterSeconds(ms),
  });

  const signIn: SignInGuard = {
    async admit(request, account) {
      const address = clientAddressKey(request);
      const perAddress = await signInByAddress.hit(request, address);
      if (perAddress.count > s.perAddress) return refusal("address", perAddress.ttlMs);
      const addressFailures = await failuresByAddress.peek(request, address);
      if (addressFailures.count >= s.addressFailures) return refusal("address", addressFailures.ttlMs);

      const accountKey = signInAccountKey(account);
      const userId = "userId" in account ? account.userId : null;
      const known = userId !== null && (await isKnownAddress(request, userId));
      const before = (await failuresByAccount.peek(request, accountKey)).count;
      const reason = before >= s.lockAfter && !known ? "lockout" : "delay";
      const wait = await waitFor(request, accountKey, before, known);
      if (wait > 0) return refusal(reason, wait);

      // Count the attempt now (atomic in either store) and open the gate of its count, so a concurrent attempt sees
      // both; an attempt that another one overtook meanwhile in the delayed range is refused (and stays counted).
      const count = (await failuresByAccount.hit(request, accountKey)).count;
      if (count >= s.delayAfter) await gates.hit(request, `${accountKey}#${count}`);
      const prior = count - 1;
      if (prior > before && prior >= s.delayAfter) {
        return refusal(prior >= s.lockAfter && !known ? "lockout" : "delay", waitAfter(prior, known));
      }
      return { accountKey, address, userId, count };
    },

    async failed(request, attempt) {
      await failuresByAddress.hit(request, attempt.address);
    },

    async succeeded(request, attempt) {
      await endStreak(request, attempt.accountKey, attempt.count);
      if (attempt.userId) await knownAddresses.hit(request, `${attempt.userId}|${attempt.address}`);
    },

    async forgive(request, userId) {
      const accountKey = signInAccountKey({ userId });
      await endStreak(request, accountKey, (await failuresByAccount.peek(request, accountKey)).count);
    },

    isKnownAddress,
  };

  const codesByAddress = counter("code-address", c.perAddressWindowMs, bigCache);
  const codesByTargetAddress = counter("code-target-address", c.perTargetWindowMs, bigCache);
  const codesByTarget = counter("code-target", c.targetCeilingWindowMs, bigCache);
  const triesByCode = counter("code-tries", c.triesWindowMs, bigCache);
  const codesGlobal = counter("code-global", c.globalWindowMs);
  const registerByAddress = counter("register-address", limits.register.windowMs, bigCache);
  const joinByAddress = counter("join-address", limits.joinByCode.windowMs, bigCache);

  /** Counts `key` on `counter`; throws the 429 once the count passes `max`. */
  async function enforce(request: FastifyRequest, on: Counter, key: string, max: number): Promise<void> {
    const state = await on.hit(request, key);
    if (state.count > max) throw tooManyRequests(retryAfterSeconds(state.ttlMs));
  }

  return {
    limits,
    signIn,
    async codeSend(request, channel, target, userId) {
      const address = clientAddressKey(request);
      const targetKey = digest(target.trim().toLowerCase());
      await enforce(request, codesByAddress, address, c.perAddress);
      await enforce(request, codesByTargetAddress, `${targetKey}|${address}`, c.perTargetAddress);
      if (!userId || !(await isKnownAddress(request, userId))) {
        await enforce(request, codesByTarget, targetKey, c.targetCeiling);
      }
      await enforce(request, codesGlobal, channel, channel === "email" ? c.globalEmail : c.globalSms);
    },
    codeRequester(request) {
      const address = clientAddressKey(request);
      return { tryCode: async (codeId) => (await triesByCode.hit(request, `${codeId}|${address}`)).count };
    },
    async register(request) {
      await enforce(request, registerByAddress, clientAddressKey(request), limits.register.perAddress);
    },
    async joinByCode(request) {
      await enforce(request, joinByAddress, clientAddressKey(request), limits.joinByCode.perAddress);
    },
  };
}
