import { timingSafeEqual } from "node:crypto";
import { isIPv6 } from "node:net";

/**
 * Limits on guessing MQTT passwords (docs/device-protocol.md §2 "Guessing"), in memory: a server restart
 * starts with a clean slate, so devices reconnecting after a restart are never held back by an old block.
 *
 * Per client id (a device's MAC) and per remote address: every failed password check is counted; while failures are
 * recent, each further check waits first (a growing delay), and at the limit the key is blocked — every login under
 * it is refused at once, without a password check, until the block ends. Checks run one at a time per client id and
 * a few at a time per address (a slot is held only for the check, not the delay), so a burst of parallel attempts is
 * counted as it goes instead of all being checked before the first failure is known. A device that logged in successfully since the server started ("known good":
 * the SHA-256 of the password that worked) skips delays and blocks — its password is still checked — so an attacker
 * hammering a MAC or sharing an address (a NAT) cannot lock the real device out.
 */

/** The limits; {@link DEFAULT_LOGIN_LIMITS} are what the server uses. */
export interface LoginLimits {
  /** Failed checks of one client id (within `windowMs` of each other) that block it. */
  clientFailures: number;
  /** Failed checks from one address that block it (higher: many devices may share an address behind a NAT). */
  addressFailures: number;
  /** How long a block lasts, ms. */
  blockMs: number;
  /** Failures are forgotten after this long without a new one, ms. */
  windowMs: number;
  /** Delay before the check after the first failure, ms; it doubles with each further failure (per address: with
   * every `addressDelayStep` failures). */
  baseDelayMs: number;
  /** The delay never exceeds this, ms. */
  maxDelayMs: number;
  /** Failures of an address per doubling of its delay. */
  addressDelayStep: number;
  /** Password checks running at once for one address. */
  addressConcurrency: number;
  /** Logins waiting for a check slot of one key; beyond, refused as busy. */
  maxWaiting: number;
  /** Keys remembered per kind (failures, known good passwords); the oldest are forgotten beyond. */
  maxEntries: number;
}

/**
 * 10 failures of a client id, or 100 from an address, within 15 min → blocked for 15 min. Delays: 100 ms after the
 * first failure, doubling up to 2 s (per address: 100 ms after 10 failures, doubling every 10).
 */
export const DEFAULT_LOGIN_LIMITS: LoginLimits = {
  clientFailures: 10,
  addressFailures: 100,
  blockMs: 15 * 60_000,
  windowMs: 15 * 60_000,
  baseDelayMs: 100,
  maxDelayMs: 2000,
  addressDelayStep: 10,
  addressConcurrency: 4,
  maxWaiting: 200,
  maxEntries: 100_000,
};

/** How one login went: "ok" (password right), "refused" (wrong), "blocked" (not checked), "busy" (too many waiting). */
export type LoginOutcome = "ok" | "refused" | "blocked" | "busy";

/** Counts since start, for tests and diagnostics. */
export interface LoginLimiterStats {
  /** Password checks that ran. */
  checks: number;
  /** Checks that failed. */
  failures: number;
  /** Checks that waited a delay first. */
  delayed: number;
  /** Logins refused by a block, without a check. */
  blocked: number;
  /** Logins refused because too many were waiting. */
  busy: number;
  /** Blocks started (client ids and addresses). */
  blocksStarted: number;
}

interface Entry {
  failures: number;
  lastFailureAt: number;
  blockedUntil: number;
}

interface Gate {
  active: number;
  waiting: Array<() => void>;
}

/**
 * The key of a remote address: IPv4 (also IPv4-mapped IPv6) as it is; IPv6 by its /64 prefix, since one subscriber
 * usually holds a whole /64. Unknown → "unknown".
 */
export function addressKey(address: string | undefined): string {
  if (!address) return "unknown";
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  if (!isIPv6(address)) return address;
  const [head, tail = ""] = address.split("%")[0].split("::");
  const left = head ? head.split(":") : [];
  const right = address.includes("::") && tail ? tail.split(":") : [];
  const groups = address.includes("::")
    ? [...left, ...Array(8 - left.length - right.length).fill("0"), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(":")}::/64`;
}

/** The growing delay of {@link LoginLimits}: none below `step` failures, then base × 2^(⌊failures/step⌋ − 1), capped. */
export function loginDelayMs(failures: number, step: number, limits: Pick<LoginLimits, "baseDelayMs" | "maxDelayMs">) {
  const level = Math.floor(failures / step);
  if (level < 1) return 0;
  return Math.min(limits.maxDelayMs, limits.baseDelayMs * 2 ** Math.min(30, level - 1));
}

/** The in-memory limiter described at the top of this file. */
export class LoginLimiter {
  readonly limits: LoginLimits;
  private readonly clients = new Map<string, Entry>();
  private readonly addresses = new Map<string, Entry>();
  private readonly knownGood = new Map<string, Buffer>();
  private readonly gates = new Map<string, Gate>();
  private readonly counts: LoginLimiterStats = {
    checks: 0,
    failures: 0,
    delayed: 0,
    blocked: 0,
    busy: 0,
    blocksStarted: 0,
  };

  private readonly now: () => number;
  private readonly onBlock: (kind: "client" | "address", key: string, untilMs: number) => void;
  /**
   * @param limits overrides of {@link DEFAULT_LOGIN_LIMITS}
   * @param now the clock of blocks and windows, epoch ms (tests move it)
   * @param onBlock told when a client id or an address gets blocked (for the log)
   */
  constructor(
    limits: Partial<LoginLimits> = {},
    now: () => number = Date.now,
    onBlock: (kind: "client" | "address", key: string, untilMs: number) => void = () => {},
  ) {
    this.now = now;
    this.onBlock = onBlock;
    this.limits = { ...DEFAULT_LOGIN_LIMITS, ...limits };
  }

  /** Counts since start (a copy). */
  get stats(): LoginLimiterStats {
    return { ...this.counts };
  }

  /** Whether `client` logged in with exactly this password digest since start (constant-time comparison). */
  isKnownGood(client: string, passwordDigest: Buffer): boolean {
    const good = this.knownGood.get(client);
    return good !== undefined && good.length === passwordDigest.length && timingSafeEqual(good, passwordDigest);
  }

  /** Whether logins under `client` or from `address` are blocked now. */
  isBlocked(keys: { client?: string; address: string }): boolean {
    const t = this.now();
    return (
      (keys.client !== undefined && (this.clients.get(keys.client)?.blockedUntil ?? 0) > t) ||
      (this.addresses.get(keys.address)?.blockedUntil ?? 0) > t
    );
  }

  /**
   * Runs one login's password `check` under the limits. `passwordDigest` (SHA-256 of the password) is remembered as
   * known good for `client` when the check succeeds, and lets a known-good login skip delays and blocks.
   * @returns the {@link LoginOutcome}; rejects only when `check` rejects (not counted as a failure).
   */
  async attempt(
    keys: { client?: string; address: string },
    passwordDigest: Buffer | null,
    check: () => Promise<boolean>,
  ): Promise<LoginOutcome> {
    const known = keys.client !== undefined && passwordDigest !== null && this.isKnownGood(keys.client, passwordDigest);
    if (known) return this.finish(keys, passwordDigest, await this.count(check));
    if (this.refusedAsBlocked(keys)) return "blocked";
    // The client id's gate first: attempts on one MAC wait for each other there, holding nothing an address shares.
    const clientGate = keys.client !== undefined ? `c|${keys.client}` : null;
    if (clientGate && !(await this.acquire(clientGate, 1))) {
      this.counts.busy++;
      return "busy";
    }
    try {
      if (this.refusedAsBlocked(keys)) return "blocked";
      const delay = Math.max(
        loginDelayMs(this.recent(this.clients, keys.client), 1, this.limits),
        loginDelayMs(this.recent(this.addresses, keys.address), this.limits.addressDelayStep, this.limits),
      );
      if (delay > 0) {
        this.counts.delayed++;
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
      // Then a slot of the address, held only for the check itself (the delay above holds none).
      const addressGate = `a|${keys.address}`;
      if (!(await this.acquire(addressGate, this.limits.addressConcurrency))) {
        this.counts.busy++;
        return "busy";
      }
      try {
        if (this.refusedAsBlocked(keys)) return "blocked";
        return this.finish(keys, passwordDigest, await this.count(check));
      } finally {
        this.release(addressGate);
      }
    } finally {
      if (clientGate) this.release(clientGate);
    }
  }

  /** Counts a login refused before any password check (a malformed user name, a wrong client id) as a failure. */
  recordFailure(keys: { client?: string; address: string }): void {
    this.counts.failures++;
    if (keys.client !== undefined) this.fail(this.clients, "client", keys.client, this.limits.clientFailures);
    this.fail(this.addresses, "address", keys.address, this.limits.addressFailures);
  }

  /** Whether the login is blocked now ({@link isBlocked}), counted as a refusal by block when it is. */
  private refusedAsBlocked(keys: { client?: string; address: string }): boolean {
    if (!this.isBlocked(keys)) return false;
    this.counts.blocked++;
    return true;
  }

  private async count(check: () => Promise<boolean>): Promise<boolean> {
    this.counts.checks++;
    return check();
  }

  private finish(keys: { client?: string; address: string }, digest: Buffer | null, ok: boolean): LoginOutcome {
    if (!ok) {
      this.recordFailure(keys);
      return "refused";
    }
    if (keys.client !== undefined && digest !== null) {
      this.knownGood.delete(keys.client);
      this.trim(this.knownGood);
      this.knownGood.set(keys.client, digest);
    }
    return "ok";
  }

  /** Recent failures of a key (0 when none or forgotten). */
  private recent(map: Map<string, Entry>, key: string | undefined): number {
    if (key === undefined) return 0;
    const e = map.get(key);
    if (!e) return 0;
    return this.now() - e.lastFailureAt > this.limits.windowMs ? 0 : e.failures;
  }

  private fail(map: Map<string, Entry>, kind: "client" | "address", key: string, limit: number): void {
    const t = this.now();
    const previous = map.get(key);
    const failures = (previous && t - previous.lastFailureAt <= this.limits.windowMs ? previous.failures : 0) + 1;
    const entry: Entry = { failures, lastFailureAt: t, blockedUntil: previous?.blockedUntil ?? 0 };
    if (failures >= limit && entry.blockedUntil <= t) {
      entry.blockedUntil = t + this.limits.blockMs;
      entry.failures = 0; // a new count starts with the block; failures after it ends block again
      this.counts.blocksStarted++;
      this.onBlock(kind, key, entry.blockedUntil);
    }
    map.delete(key);
    this.trim(map);
    map.set(key, entry);
  }

  /** Keeps a map below maxEntries: expired entries go first, then the oldest. */
  private trim(map: Map<string, unknown>): void {
    if (map.size < this.limits.maxEntries) return;
    const t = this.now();
    for (const [key, value] of map) {
      const e = value as Partial<Entry>;
      if (e.lastFailureAt !== undefined && t - e.lastFailureAt > this.limits.windowMs && (e.blockedUntil ?? 0) <= t) {
        map.delete(key);
      }
    }
    while (map.size >= this.limits.maxEntries) {
      const oldest = map.keys().next();
      if (oldest.done) break;
      map.delete(oldest.value);
    }
  }

  private async acquire(key: string, concurrency: number): Promise<boolean> {
    let gate = this.gates.get(key);
    if (!gate) {
      gate = { active: 0, waiting: [] };
      this.gates.set(key, gate);
    }
    if (gate.active < concurrency) {
      gate.active++;
      return true;
    }
    if (gate.waiting.length >= this.limits.maxWaiting) return false;
    const g = gate;
    await new Promise<void>((resolve) => g.waiting.push(resolve));
    return true; // the slot was handed over by release()
  }

  private release(key: string): void {
    const gate = this.gates.get(key);
    if (!gate) return;
    const next = gate.waiting.shift();
    if (next) {
      next(); // hand the slot over: active stays the same
      return;
    }
    gate.active--;
    if (gate.active === 0) this.gates.delete(key);
  }
}
