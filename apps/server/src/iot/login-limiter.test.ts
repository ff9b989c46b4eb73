import { createHash } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { addressKey, DEFAULT_LOGIN_LIMITS, LoginLimiter, loginDelayMs } from "./login-limiter.ts";

const sha = (s: string) => createHash("sha256").update(s).digest();
const fast = { baseDelayMs: 1, maxDelayMs: 4 };
const figures = { attempts: 0, checks: 0, blocked: 0 };

afterAll(() => {
  console.log(
    `login limiter: ${figures.attempts} attempts, ${figures.checks} password checks, ${figures.blocked} refused by a block`,
  );
});

function tally(limiter: LoginLimiter, attempts: number) {
  figures.attempts += attempts;
  figures.checks += limiter.stats.checks;
  figures.blocked += limiter.stats.blocked;
}

describe("MQTT login limiter", () => {
  it("grows the delay with failures and caps it", () => {
    const d = (n: number, step = 1) => loginDelayMs(n, step, DEFAULT_LOGIN_LIMITS);
    expect([0, 1, 2, 3, 4, 5, 6, 9].map((n) => d(n))).toEqual([0, 100, 200, 400, 800, 1600, 2000, 2000]);
    expect([9, 10, 19, 20, 30].map((n) => d(n, 10))).toEqual([0, 100, 100, 200, 400]);
  });

  it("blocks a client id after 10 failures for 15 minutes, then lets it try again", async () => {
    let now = 1_000_000;
    const blocks: string[] = [];
    const limiter = new LoginLimiter(
      fast,
      () => now,
      (kind, key) => blocks.push(`${kind}:${key}`),
    );
    const keys = { client: "02AA00000001", address: "10.0.0.1" };
    const outcomes = [];
    for (let i = 0; i < 15; i++) outcomes.push(await limiter.attempt(keys, sha("wrong"), async () => false));
    expect(outcomes.filter((o) => o === "refused")).toHaveLength(10);
    expect(outcomes.slice(10)).toEqual(Array(5).fill("blocked"));
    expect(limiter.stats).toMatchObject({ checks: 10, failures: 10, blocked: 5, blocksStarted: 1 });
    expect(blocks).toEqual(["client:02AA00000001"]);
    // The right password is not even checked while blocked (the device never logged in since start).
    let checked = false;
    const right = async () => {
      checked = true;
      return true;
    };
    expect(await limiter.attempt(keys, sha("right"), right)).toBe("blocked");
    expect(checked).toBe(false);
    now += DEFAULT_LOGIN_LIMITS.blockMs + 1;
    expect(await limiter.attempt(keys, sha("right"), right)).toBe("ok");
    tally(limiter, 17);
  });

  it("lets a device that logged in before through a block on its MAC and on its address", async () => {
    const limiter = new LoginLimiter({ ...fast, addressFailures: 5 });
    const device = { client: "02AA00000002", address: "10.0.0.2" };
    expect(await limiter.attempt(device, sha("secret"), async () => true)).toBe("ok");
    for (let i = 0; i < 12; i++) await limiter.attempt(device, sha(`guess${i}`), async () => false);
    expect(limiter.isBlocked(device)).toBe(true);
    expect(await limiter.attempt(device, sha("secret"), async () => true)).toBe("ok");
    // Another, never-seen device behind the same (now blocked) address is refused; the known one is not.
    expect(await limiter.attempt({ client: "02AA00000003", address: "10.0.0.2" }, sha("x"), async () => true)).toBe(
      "blocked",
    );
    // Known good skips the limits, not the check: a changed secret still fails.
    expect(await limiter.attempt(device, sha("secret"), async () => false)).toBe("refused");
    tally(limiter, 16);
  });

  it("counts a parallel burst as it goes: 200 guesses at once, at most 10 password checks", async () => {
    const limiter = new LoginLimiter(fast);
    let running = 0;
    let most = 0;
    const check = async () => {
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 2));
      running--;
      return false;
    };
    const outcomes = await Promise.all(
      Array.from({ length: 200 }, () => limiter.attempt({ client: "02AA00000004", address: "10.0.0.4" }, null, check)),
    );
    expect(outcomes.filter((o) => o === "refused")).toHaveLength(10);
    expect(outcomes.filter((o) => o === "blocked")).toHaveLength(190);
    expect(limiter.stats.checks).toBe(10);
    expect(most).toBe(1); // one check at a time per client id
    tally(limiter, 200);
  });

  it("blocks an address guessing across many MACs, one client id failing at a time", async () => {
    const limiter = new LoginLimiter({ ...fast, addressFailures: 30 });
    const outcomes = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        limiter.attempt({ client: `02BB${String(i).padStart(8, "0")}`, address: "10.0.0.5" }, null, async () => false),
      ),
    );
    expect(outcomes.filter((o) => o === "refused").length).toBeLessThanOrEqual(
      30 + DEFAULT_LOGIN_LIMITS.addressConcurrency,
    );
    expect(outcomes.filter((o) => o === "blocked").length).toBeGreaterThanOrEqual(
      60 - 30 - DEFAULT_LOGIN_LIMITS.addressConcurrency,
    );
    expect(limiter.isBlocked({ address: "10.0.0.5" })).toBe(true);
    expect(limiter.isBlocked({ address: "10.0.0.6" })).toBe(false);
    tally(limiter, 60);
  });

  it("forgets failures after the window and keeps its maps bounded", async () => {
    let now = 0;
    const limiter = new LoginLimiter({ ...fast, maxEntries: 50 }, () => now);
    for (let i = 0; i < 9; i++) await limiter.attempt({ client: "C", address: "A" }, null, async () => false);
    now += DEFAULT_LOGIN_LIMITS.windowMs + 1;
    for (let i = 0; i < 9; i++) await limiter.attempt({ client: "C", address: "A" }, null, async () => false);
    expect(limiter.isBlocked({ client: "C", address: "A" })).toBe(false);
    for (let i = 0; i < 500; i++) limiter.recordFailure({ client: `K${i}`, address: `10.1.${i >> 8}.${i & 255}` });
    const internals = limiter as unknown as { clients: Map<string, unknown>; addresses: Map<string, unknown> };
    expect(internals.clients.size).toBeLessThanOrEqual(50);
    expect(internals.addresses.size).toBeLessThanOrEqual(50);
    tally(limiter, 518);
  });

  it("keys IPv4 (also mapped) by address and IPv6 by its /64", () => {
    expect(addressKey("203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8:1:2:bbbb:cccc:dddd:eeee")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    expect(addressKey(undefined)).toBe("unknown");
  });
});
