import { endpoints } from "@aquapilot/contract";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  familyWithDevices,
  joinWithShareCode,
  signUpOwner,
  signUpUser,
  type TestFamily,
  type TestUser,
} from "../../test/api-factories.ts";
import { call } from "../../test/call.ts";
import { createTestApp, type TestApp } from "../../test/helpers.ts";
import { familyDeviceRows } from "../modules/family-device/service.ts";
import { signIn } from "../modules/profile/testing.ts";
import { familyTag, InvalidatedCache, sessionTag, userTag } from "./request-cache.ts";

/** A promise settled from outside. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((res) => {
    resolve = res;
  });
  return { promise, resolve };
}

describe("InvalidatedCache (per-process cache with bus invalidation)", () => {
  /** A cache on a hand-moved clock and a loader that counts its calls. */
  function setup(ttlMs = 1000, maxEntries?: number) {
    let clock = 0;
    const cache = new InvalidatedCache<string | null>({ ttlMs, maxEntries, clock: () => clock });
    const loads: string[] = [];
    const load = (key: string, value: string | null = `v:${key}`) =>
      cache.getOrLoad(
        key,
        async () => {
          loads.push(key);
          return value;
        },
        (v) => (v === null ? null : [`tag:${key}`, "tag:all"]),
      );
    return { cache, loads, load, advance: (ms: number) => (clock += ms) };
  }

  it("serves a stored value within its lifetime and loads again after it", async () => {
    const { loads, load, advance } = setup(1000);
    expect(await load("a")).toBe("v:a");
    advance(999);
    expect(await load("a")).toBe("v:a");
    expect(loads).toEqual(["a"]);
    advance(1);
    expect(await load("a")).toBe("v:a");
    expect(loads).toEqual(["a", "a"]);
  });

  it("drops exactly the entries carrying an invalidated tag", async () => {
    const { cache, loads, load } = setup();
    await load("a");
    await load("b");
    cache.invalidate("tag:a");
    await load("a");
    await load("b");
    expect(loads).toEqual(["a", "b", "a"]);
    cache.invalidate("tag:all");
    expect(cache.size).toBe(0);
  });

  it("does not store what tagsOf refuses (e.g. a refusal)", async () => {
    const { cache, loads, load } = setup();
    expect(await load("x", null)).toBeNull();
    expect(await load("x", null)).toBeNull();
    expect(loads).toEqual(["x", "x"]);
    expect(cache.size).toBe(0);
  });

  it("never stores a load that overlapped an invalidation (a read from before a change)", async () => {
    const cache = new InvalidatedCache<string>({ ttlMs: 1000, clock: () => 0 });
    const gate = deferred<string>();
    const slow = cache.getOrLoad(
      "k",
      () => gate.promise,
      () => ["tag:k"],
    );
    cache.invalidate("tag:other"); // any invalidation while the read runs
    gate.resolve("old");
    expect(await slow).toBe("old");
    expect(cache.get("k")).toBeUndefined();
    expect(
      await cache.getOrLoad(
        "k",
        async () => "new",
        () => ["tag:k"],
      ),
    ).toBe("new");
    expect(cache.get("k")).toBe("new");
  });

  it("holds at most maxEntries, pushing out the oldest", async () => {
    const { cache, loads, load } = setup(1000, 2);
    await load("a");
    await load("b");
    await load("c");
    expect(cache.size).toBe(2);
    await load("b");
    await load("a");
    expect(loads).toEqual(["a", "b", "c", "a"]);
  });

  it("with ttlMs 0 keeps nothing", async () => {
    const { cache, loads, load } = setup(0);
    await load("a");
    await load("a");
    expect(loads).toEqual(["a", "a"]);
    expect(cache.enabled).toBe(false);
    expect(cache.size).toBe(0);
  });

  it("names its tags by kind", () => {
    expect([userTag("u"), sessionTag("s"), familyTag("f")]).toEqual(["user:u", "session:s", "family:f"]);
  });
});

/**
 * Counts the reads of each table: queries built with `selectFrom`, and compiled queries run with `executeQuery` (the
 * family device list is compiled once, family-device/service) by the first table after their `from`.
 */
function countReads(t: TestApp) {
  const spy = vi.spyOn(t.db, "selectFrom");
  const run = vi.spyOn(t.db, "executeQuery");
  const of = (table: string) =>
    spy.mock.calls.filter(([from]) => String(from).split(" ")[0] === table).length +
    run.mock.calls.filter(([q]) => /^select .*? from "?(\w+)"?/.exec("sql" in q ? q.sql : "")?.[1] === table).length;
  return {
    of,
    reset: () => {
      spy.mockClear();
      run.mockClear();
    },
    restore: () => {
      spy.mockRestore();
      run.mockRestore();
    },
  };
}

describe("the family device list and its checks, cached per process", () => {
  let t: TestApp;
  let owner: TestUser;
  let home: TestFamily;
  const list = (as: string, familyId = home.id) => call(t, endpoints.getFamilyDevices, { as, query: { familyId } });

  beforeAll(async () => {
    t = await createTestApp();
    owner = await signUpOwner(t.app);
    home = await familyWithDevices(t, owner, 2);
  });
  afterAll(() => t.close());
  afterEach(() => vi.restoreAllMocks());

  it("N requests with one token read the user, the membership and the devices once", async () => {
    const s = await signIn(t.app, owner.email, owner.password); // a token this process has not checked yet
    await familyDeviceRows(t.db, home.id); // the list query compiled once (its build is not a read)
    t.app.familyDeviceLists.clear();
    const reads = countReads(t);
    for (let i = 0; i < 20; i++) expect((await list(`Bearer ${s.access}`)).status).toBe(200);
    expect(reads.of("users")).toBe(1);
    expect(reads.of("family_members")).toBe(1);
    expect(reads.of("devices")).toBe(1);
    // An event about the household's devices (here a new order made on another process) drops the list.
    t.bus.publish({ type: "family.devices-changed", familyId: home.id });
    expect((await list(`Bearer ${s.access}`)).status).toBe(200);
    expect(reads.of("devices")).toBe(2);
    expect(reads.of("users")).toBe(1);
  });

  it("a logout refuses the session's access token on the very next request (401)", async () => {
    const s = await signIn(t.app, owner.email, owner.password);
    expect((await list(`Bearer ${s.access}`)).status).toBe(200);
    const out = await t.app.inject({
      method: "POST",
      url: "/connect/revocation",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({ token: s.refresh }).toString(),
    });
    expect(out.statusCode).toBe(200);
    const next = await list(`Bearer ${s.access}`);
    expect(next.status).toBe(401);
    expect(next.body.unAuthorizedRequest).toBe(true);
    expect(await t.app.auth.verifyAccessToken(s.access)).toBeNull(); // the hubs' check too
    expect((await list(owner.token)).status).toBe(200); // another session of the same user is untouched
  });

  it("a removed member is refused on the very next list (404 family.notFound, as a stranger)", async () => {
    const member = await signUpUser(t.app);
    await joinWithShareCode(t.app, home, owner, member);
    expect((await list(member.token)).status).toBe(200);
    expect((await list(member.token)).status).toBe(200);
    const users = (await call(t, endpoints.getFamilyUsers, { as: owner, query: { familyId: home.id } })).result;
    const row = users.find((u: { userId: string }) => u.userId === member.userId);
    if (!row) throw new Error("the member is not listed");
    expect((await call(t, endpoints.removeFamilyUser, { as: owner, params: { id: row.id } })).status).toBe(200);
    const next = await list(member.token);
    expect(next.status).toBe(404);
    expect(next.body.error).toMatchObject({ code: "NotFound", message: "Household not found." });
    expect(next.text).not.toContain("Softener 1");
  });

  it("a member who leaves is refused at once, also on the device's own routes", async () => {
    const member = await signUpUser(t.app);
    await joinWithShareCode(t.app, home, owner, member);
    const deviceId = home.devices[0].id;
    const detail = () => call(t, endpoints.getDeviceDetail, { as: member, query: { deviceId } });
    expect((await detail()).status).toBe(200);
    expect((await call(t, endpoints.withdrawFromFamily, { as: member, query: { familyId: home.id } })).status).toBe(
      200,
    );
    expect((await detail()).status).toBe(404);
    expect((await list(member.token)).status).toBe(404);
  });

  it("a device moved out of the household is refused to its members at once (devices are never cached)", async () => {
    const member = await signUpUser(t.app);
    await joinWithShareCode(t.app, home, owner, member);
    const deviceId = home.devices[1].id;
    const detail = () => call(t, endpoints.getDeviceDetail, { as: member, query: { deviceId } });
    expect((await detail()).status).toBe(200);
    expect((await call(t, endpoints.deleteDevice, { as: owner, query: { deviceId } })).status).toBe(200);
    expect((await detail()).status).toBe(404);
    await t.db.updateTable("devices").set({ family_id: home.id }).where("id", "=", deviceId).execute();
    expect((await detail()).status).toBe(200);
  });

  it("a transferred administrator role is seen at once: the old administrator loses admin-only calls", async () => {
    const other = await signUpOwner(t.app);
    const cabin = await familyWithDevices(t, other, 0, { name: "Cabin" });
    const heir = await signUpUser(t.app);
    await joinWithShareCode(t.app, cabin, other, heir);
    const share = () => call(t, endpoints.getShareCode, { as: other, query: { familyId: cabin.id } });
    expect((await share()).status).toBe(200);
    const transfer = await call(t, endpoints.transferAdministrator, {
      as: other,
      query: { familyId: cabin.id, userId: heir.userId },
    });
    expect(transfer.status).toBe(200);
    const refused = await share();
    expect(refused.status).toBe(403);
    expect((await call(t, endpoints.getShareCode, { as: heir, query: { familyId: cabin.id } })).status).toBe(200);
  });

  it("a password change refuses the old tokens of every session on the very next request", async () => {
    const user = await signUpOwner(t.app);
    const mine = await familyWithDevices(t, user, 1, { name: "Flat" });
    const second = await signIn(t.app, user.email, user.password);
    expect((await list(user.token, mine.id)).status).toBe(200);
    expect((await list(`Bearer ${second.access}`, mine.id)).status).toBe(200);
    const changed = await call(t, endpoints.changePassword, {
      as: user,
      body: { currentPassword: user.password, newPassword: "new-pass-word-2" },
    });
    expect(changed.status).toBe(200);
    expect((await list(user.token, mine.id)).status).toBe(401);
    expect((await list(`Bearer ${second.access}`, mine.id)).status).toBe(401);
    const fresh = await signIn(t.app, user.email, "new-pass-word-2");
    expect((await list(`Bearer ${fresh.access}`, mine.id)).status).toBe(200);
  });

  it("a profile change is seen by the next request of the same token (bus user.changed)", async () => {
    const user = await signUpUser(t.app);
    const who = async () => (await call(t, endpoints.applicationConfiguration, { as: user })).result.currentUser;
    const before = await who();
    expect(before.userName).not.toBe("renamed-user");
    const renamed = await call(t, endpoints.updateProfile, { as: user, body: { userName: "renamed-user" } });
    expect(renamed.status).toBe(200);
    expect((await who()).userName).toBe("renamed-user");
  });
});

describe("cache lifetime and token expiry", () => {
  it("a change made outside the server (no bus event) is seen within AUTH_CACHE_MS", async () => {
    const t = await createTestApp({ env: { AUTH_CACHE_MS: "200" } });
    try {
      const owner = await signUpOwner(t.app);
      const home = await familyWithDevices(t, owner, 1);
      const list = () => call(t, endpoints.getFamilyDevices, { as: owner, query: { familyId: home.id } });
      expect((await list()).status).toBe(200);
      await t.db.deleteFrom("family_members").where("family_id", "=", home.id).execute();
      await vi.waitFor(async () => expect((await list()).status).toBe(404), { timeout: 2000, interval: 50 });
    } finally {
      await t.close();
    }
  });

  it("AUTH_CACHE_MS 0 reads the user and the membership on every request", async () => {
    const t = await createTestApp({ env: { AUTH_CACHE_MS: "0" } });
    try {
      const owner = await signUpOwner(t.app);
      const home = await familyWithDevices(t, owner, 1);
      const reads = countReads(t);
      for (let i = 0; i < 5; i++) {
        expect((await call(t, endpoints.getFamilyDevices, { as: owner, query: { familyId: home.id } })).status).toBe(
          200,
        );
      }
      expect(reads.of("users")).toBe(5);
      expect(reads.of("family_members")).toBe(5);
      reads.restore();
    } finally {
      await t.close();
    }
  });

  it("a cached token is still refused once it expires", async () => {
    let at = Date.parse("2026-06-01T08:00:00Z");
    const t = await createTestApp({ now: () => new Date(at) });
    try {
      const owner = await signUpOwner(t.app);
      const home = await familyWithDevices(t, owner, 1);
      const list = () => call(t, endpoints.getFamilyDevices, { as: owner, query: { familyId: home.id } });
      expect((await list()).status).toBe(200);
      expect(t.app.auth.cachedTokenChecks).toBe(1);
      at += 3600 * 1000; // the access token's whole lifetime (ACCESS_TOKEN_SECONDS)
      expect((await list()).status).toBe(401);
      expect(await t.app.auth.verifyAccessToken(owner.token.slice(7))).toBeNull();
    } finally {
      await t.close();
    }
  });
});
