import type { MutationModule } from "../modules.ts";

/**
 * Mutation-tested rules of the server's access control: object-level authorization and permissions (spec §6),
 * idempotent submits, verification codes, share codes, the abuse limits with the sign-in lockout and the counters
 * they stand on (mutation/modules.ts gives the shape of an entry). Each module's suites are pure: no database, no
 * server socket, no real timers.
 */
const modules: MutationModule[] = [
  {
    name: "server-access",
    title: "Object-level authorization and grantedPolicies (spec §6: members, the one administrator, own objects)",
    // requireAccess and its helpers (the NOT_FOUND keys from line 26 on), the membership read it decides on, and the
    // permissions map; family-lock.ts is a row lock (database plumbing, tested by the concurrency suites).
    mutate: [
      "apps/server/src/auth/access.ts:26-187",
      "apps/server/src/auth/membership.ts",
      "apps/server/src/auth/policies.ts",
    ],
    tests: {
      root: "apps/server",
      include: ["src/auth/access.rules.test.ts", "src/auth/policies.test.ts"],
    },
    equivalent: {},
  },
  {
    name: "server-idempotency",
    title:
      "Idempotent submits: keyed requests, per-caller keys, same-request fingerprint, replay, 5xx not kept, 24 h window",
    // The key, caller, fingerprint and keep rules of idempotency.ts and the repeat verdict of idempotency-store.ts
    // (with its window constants); the hooks' claim loop and the store's queries are plumbing (idempotency.data.test.ts).
    mutate: ["apps/server/src/http/idempotency.ts:24-77", "apps/server/src/http/idempotency-store.ts:1-56"],
    tests: {
      root: "apps/server",
      include: ["src/http/idempotency.rules.test.ts"],
    },
    equivalent: {},
  },
  {
    name: "server-codes",
    title:
      "Verification codes (spec §5: 6 random digits, hashed, 10 min, one per minute; 5 wrong tries per requester, dead after 15) and Retry-After",
    // The code rules of verification-codes.ts (its service's queries are plumbing, tested by the account suites) and
    // retryAfterSeconds of rate-limit.ts.
    mutate: ["apps/server/src/auth/verification-codes.ts:67-124", "apps/server/src/http/rate-limit.ts:422-425"],
    tests: {
      root: "apps/server",
      include: ["src/auth/verification-codes.rules.test.ts"],
    },
    equivalent: {
      "verification-codes.ts: lastCreatedAt === undefined → false":
        "without a last code the fall-through computes new Date(undefined) = NaN, and NaN > 0 is false: it answers 0 too",
      "verification-codes.ts: waitMs > 0 → waitMs >= 0":
        "at waitMs 0 both branches answer 0 (Math.ceil(0 / 1000) is 0)",
    },
  },
  {
    name: "server-share-codes",
    title:
      "Household share codes (spec §4, §9: signed join-family code, valid 15 minutes, shown again while 3 min left)",
    // The code's form, checks and clock; share-codes.ts (the rows: create, join, list, revoke) is database code,
    // tested by the family-user suites.
    mutate: ["apps/server/src/modules/family-user/share-code-token.ts"],
    tests: {
      root: "apps/server",
      include: ["src/modules/family-user/share-codes.rules.test.ts"],
    },
    equivalent: {},
  },
  {
    name: "server-limits",
    title:
      "HTTP abuse limits and sign-in lockout (docs/security.md: per address, target, channel; 2^n delays, 15 min lockout; owner escapes)",
    // scaleLimits, tooManyRequests, signInAccountKey and the guards built on the rate-limit plugin's counters; the
    // counters themselves (http/rate-limit.ts) are the plugin's plumbing, run for real (in memory) by the suite.
    mutate: ["apps/server/src/security/limits.ts:78-333"],
    tests: {
      root: "apps/server",
      include: ["src/security/limits.rules.test.ts"],
    },
    equivalent: {
      "limits.ts: n < s.delayAfter → false":
        "below delayAfter waitFor then peeks the gate of that count, and gates are opened only from delayAfter on: empty, so it answers 0 as the guard does",
      "limits.ts: wait === 0 → false":
        "wait is 0 only below delayAfter, whose gates are never opened: the peek finds the gate empty and answers 0 as well",
      "limits.ts: gate.count === 0 → false":
        "an empty gate reads ttl 0 (createCounter clamps it), so elapsed is the whole gate window; every wait is at most that window, so 0 is left",
      "limits.ts: count >= s.delayAfter → true":
        "gates below delayAfter would be opened but are never read: waitAfter answers 0 there before any peek",
      "limits.ts: userId !== null → true":
        "an unknown login would peek the known-address key `null|<address>`, which nothing writes (succeeded records only an existing account)",
      "limits.ts: attempt.userId → true":
        "succeeded is called only for an existing account (its password matched), whose attempt always has a userId",
      "limits.ts: Math.max(s.delayAfter, count - 100) → Math.min(s.delayAfter, count - 100)":
        "the extra gates reset (at a success or a forgiving) are below delayAfter (never opened) or over 100 attempts old: each of those attempts waited at least knownAddressDelayMs (1 min), so they are past their window (at most lockoutMs, 15 min)",
    },
  },
  {
    name: "server-rate-limit",
    title:
      "Fixed-window counters and limiters (docs/security.md: max per key and window, Retry-After, uncounted keyless requests)",
    // createCounter and createLimiter, run on the plugin's in-memory store; the store wiring above them (memory or
    // Redis) is covered by redis-limits.test.ts.
    mutate: ["apps/server/src/http/rate-limit.ts:333-420"],
    tests: {
      root: "apps/server",
      include: ["src/http/rate-limit.rules.test.ts"],
    },
    equivalent: {
      "rate-limit.ts: outcome.isAllowed → false":
        "the plugin answers isAllowed only for an allow-listed key, and createCounter sets no allowList: the branch is unreachable",
      "rate-limit.ts: { count: 0, ttlMs: 0 } → {}": "the same unreachable allow-list branch",
      "rate-limit.ts: keys.delete(request); → ;":
        "every run sets the request's key before asking the plugin, so a stale entry is never read (and the WeakMap drops it with the request)",
      "rate-limit.ts: { keys.delete(request); } → {}": "the same: a stale key entry is never read",
      "rate-limit.ts: store?.reset → store.reset":
        "checker() on the line before makes the plugin create the counter's store, handed over synchronously through onStore: store is never undefined there",
    },
  },
];

export default modules;
