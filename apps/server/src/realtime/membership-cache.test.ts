import { describe, expect, it } from "vitest";
import { MembershipCache, type MembershipLogger, type MembershipSource } from "./membership-cache.ts";

/** A promise settled from outside. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: Error) => void } {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets every already settled promise callback run. */
const flush = () => new Promise((resolve) => setImmediate(resolve));

/** A membership source over plain tables, counting its calls; `memberIdsOf` only when `withMembers`. */
function tableSource(families: Record<string, string[]>, withMembers: boolean) {
  const calls = { familyIdsOf: [] as string[], memberIdsOf: [] as string[] };
  const source: MembershipSource = {
    familyIdsOf: async (userId) => {
      calls.familyIdsOf.push(userId);
      return [...(families[userId] ?? [])];
    },
  };
  if (withMembers) {
    source.memberIdsOf = async (familyId) => {
      calls.memberIdsOf.push(familyId);
      return Object.keys(families).filter((userId) => families[userId].includes(familyId));
    };
  }
  return { source, calls };
}

function recordingLog(): MembershipLogger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, warn: (_obj, msg) => warnings.push(msg) };
}

/** Connects `connection` of `userId` the way the hubs do: load the families, then add. */
async function connect<C>(cache: MembershipCache<C>, userId: string, connection: C): Promise<void> {
  cache.add(userId, connection, await cache.loadFamilies(userId));
}

describe("MembershipCache", () => {
  for (const withMembers of [false, true]) {
    it(`tells onLost which families a connected user lost, with the connections made before (${withMembers ? "memberIdsOf" : "familyIdsOf"})`, async () => {
      const families: Record<string, string[]> = { ann: ["home", "cabin"], bob: ["home"] };
      const { source } = tableSource(families, withMembers);
      const lost: { userId: string; familyIds: string[]; connections: string[] }[] = [];
      const cache: MembershipCache<string> = new MembershipCache<string>(source, recordingLog(), undefined, (u, f) =>
        lost.push({ userId: u, familyIds: f, connections: [...cache.connectionsOf(u)] }),
      );
      await connect(cache, "ann", "a1");
      await connect(cache, "bob", "b1");

      // a join (bob to cabin) takes nothing away; ann's removal from home does
      families.bob = ["home", "cabin"];
      await cache.membersChanged("cabin");
      expect(lost).toEqual([]);
      families.ann = ["cabin"];
      await cache.membersChanged("home");
      expect(lost).toEqual([{ userId: "ann", familyIds: ["home"], connections: ["a1"] }]);

      // a newer load brought by another connection (before the event reached this process): the earlier ones only
      families.bob = ["home"];
      await connect(cache, "bob", "b2");
      expect(lost[1]).toEqual({ userId: "bob", familyIds: ["cabin"], connections: ["b1"] });
      expect([...cache.connectionsOf("bob")]).toEqual(["b1", "b2"]);
      expect(lost).toHaveLength(2);
    });
  }

  it("indexes a connected user's families both ways and counts the user's connections", async () => {
    const { source } = tableSource({ ann: ["home", "cabin"], bob: ["home"] }, true);
    const cache = new MembershipCache<string>(source, recordingLog());
    await connect(cache, "ann", "ann-hub1");
    await connect(cache, "ann", "ann-hub2");
    await connect(cache, "bob", "bob-hub1");

    expect([...cache.familiesOf("ann")].sort()).toEqual(["cabin", "home"]);
    expect([...cache.membersOf("home")].sort()).toEqual(["ann", "bob"]);
    expect([...cache.membersOf("cabin")]).toEqual(["ann"]);
    expect([...cache.connectionsOf("ann")]).toEqual(["ann-hub1", "ann-hub2"]);
    expect(cache.connectionCount("ann")).toBe(2);
    expect(cache.connectionCount("bob")).toBe(1);
    expect(cache.connectionCount("cat")).toBe(0);
    expect(cache.membersOf("elsewhere").size).toBe(0);
  });

  it("keeps a user until the last connection leaves, then drops the user from every family", async () => {
    const { source } = tableSource({ ann: ["home", "cabin"], bob: ["home"] }, true);
    const cache = new MembershipCache<string>(source, recordingLog());
    await connect(cache, "ann", "a1");
    await connect(cache, "ann", "a2");
    await connect(cache, "bob", "b1");

    expect(cache.remove("ann", "a1")).toBe(false);
    expect([...cache.membersOf("home")].sort()).toEqual(["ann", "bob"]);
    expect(cache.remove("ann", "unknown")).toBe(false);
    expect(cache.remove("ann", "a2")).toBe(true);
    expect([...cache.membersOf("home")]).toEqual(["bob"]);
    expect(cache.membersOf("cabin").size).toBe(0);
    expect(cache.familiesOf("ann").size).toBe(0);
    expect(cache.connectionsOf("ann").size).toBe(0);
    // A second remove of the same connection is not a departure.
    expect(cache.remove("ann", "a2")).toBe(false);
  });

  it("never lets an older family load overwrite a newer one", async () => {
    const families: Record<string, string[]> = { ann: ["old-home"] };
    const { source } = tableSource(families, true);
    const cache = new MembershipCache<string>(source, recordingLog());
    const older = await cache.loadFamilies("ann");
    families.ann = ["new-home"];
    const newer = await cache.loadFamilies("ann");
    expect(newer.seq).toBeGreaterThan(older.seq);

    cache.add("ann", "a2", newer);
    cache.add("ann", "a1", older); // the slower connect attaches last
    expect([...cache.familiesOf("ann")]).toEqual(["new-home"]);
    expect(cache.membersOf("old-home").size).toBe(0);
    expect(cache.connectionCount("ann")).toBe(2);
  });

  it("loads a connecting user's families again when a members change overlapped the load", async () => {
    const answers = [deferred<string[]>(), deferred<string[]>()];
    let call = 0;
    const source: MembershipSource = {
      familyIdsOf: () => answers[call++].promise,
      memberIdsOf: async () => [],
    };
    const cache = new MembershipCache<string>(source, recordingLog());
    const loading = cache.loadFamilies("ann");
    void cache.membersChanged("home"); // ann was added to home while her first load ran
    answers[0].resolve([]);
    await flush();
    expect(call).toBe(2);
    answers[1].resolve(["home"]);
    const loaded = await loading;
    expect(loaded.families).toEqual(["home"]);
    cache.add("ann", "a1", loaded);
    expect([...cache.membersOf("home")]).toEqual(["ann"]);
  });

  it("gives up reloading after four loads when members keep changing", async () => {
    let cache!: MembershipCache<string>;
    let calls = 0;
    const source: MembershipSource = {
      familyIdsOf: async () => {
        calls++;
        void cache.membersChanged("home"); // a change during every load
        return [`load-${calls}`];
      },
      memberIdsOf: async () => [],
    };
    cache = new MembershipCache<string>(source, recordingLog());
    const loaded = await cache.loadFamilies("ann");
    expect(calls).toBe(4);
    expect(loaded.families).toEqual(["load-4"]);
  });

  it("applies a members change with one memberIdsOf query to connected users only", async () => {
    const families: Record<string, string[]> = { ann: ["home"], bob: [], cat: [] };
    const { source, calls } = tableSource(families, true);
    const cache = new MembershipCache<string>(source, recordingLog());
    await connect(cache, "ann", "a1");
    await connect(cache, "bob", "b1");
    calls.familyIdsOf.length = 0;

    families.ann = []; // ann leaves home, bob and cat (not connected) join it
    families.bob = ["home"];
    families.cat = ["home"];
    await cache.membersChanged("home");

    expect(calls.memberIdsOf).toEqual(["home"]);
    expect(calls.familyIdsOf).toEqual([]);
    expect([...cache.membersOf("home")]).toEqual(["bob"]);
    expect(cache.familiesOf("ann").size).toBe(0);
    expect([...cache.familiesOf("bob")]).toEqual(["home"]);
    expect(cache.connectionCount("cat")).toBe(0);
  });

  it("without memberIdsOf reloads every connected user, overlapping changes sharing one follow-up run", async () => {
    const families: Record<string, string[]> = { ann: ["home"], bob: ["home"] };
    const { source, calls } = tableSource(families, false);
    const cache = new MembershipCache<string>(source, recordingLog());
    await connect(cache, "ann", "a1");
    await connect(cache, "bob", "b1");
    calls.familyIdsOf.length = 0;

    families.bob = ["cabin"];
    await Promise.all([cache.membersChanged("home"), cache.membersChanged("cabin"), cache.membersChanged("home")]);

    // One run for the first change, one shared follow-up for the two that overlapped it: 2 users × 2 runs.
    expect(calls.familyIdsOf.sort()).toEqual(["ann", "ann", "bob", "bob"]);
    expect([...cache.membersOf("home")]).toEqual(["ann"]);
    expect([...cache.membersOf("cabin")]).toEqual(["bob"]);
  });

  it("holds a family's deliveries while its membership reloads and runs them in order with the new membership", async () => {
    const families: Record<string, string[]> = { ann: ["home"], bob: [] };
    const answer = deferred<string[]>();
    const source: MembershipSource = {
      familyIdsOf: async (userId) => families[userId] ?? [],
      memberIdsOf: () => answer.promise,
    };
    const cache = new MembershipCache<string>(source, recordingLog());
    await connect(cache, "ann", "a1");
    await connect(cache, "bob", "b1");

    const seen: string[] = [];
    const deliver = (label: string) => () => seen.push(`${label}:${[...cache.membersOf("home")].join(",")}`);
    cache.whenKnown("home", deliver("before"));
    expect(seen).toEqual(["before:ann"]);

    const changed = cache.membersChanged("home");
    cache.whenKnown("home", deliver("first"));
    cache.whenKnown("home", deliver("second"));
    cache.whenKnown("cabin", deliver("other-family")); // another family is not held
    expect(seen).toEqual(["before:ann", "other-family:ann"]);

    answer.resolve(["bob"]); // ann was removed, bob added
    await changed;
    expect(seen).toEqual(["before:ann", "other-family:ann", "first:bob", "second:bob"]);
    cache.whenKnown("home", deliver("after"));
    expect(seen.at(-1)).toBe("after:bob");
  });

  it("holds deliveries until every overlapping reload of the family is done", async () => {
    const answers = [deferred<string[]>(), deferred<string[]>()];
    let call = 0;
    const source: MembershipSource = { familyIdsOf: async () => [], memberIdsOf: () => answers[call++].promise };
    const cache = new MembershipCache<string>(source, recordingLog());
    const seen: string[] = [];
    const first = cache.membersChanged("home");
    const second = cache.membersChanged("home");
    cache.whenKnown("home", () => seen.push("event"));
    answers[0].resolve([]);
    await first;
    expect(seen).toEqual([]);
    answers[1].resolve([]);
    await second;
    expect(seen).toEqual(["event"]);
  });

  it("logs a failed reload and still runs the held deliveries", async () => {
    const source: MembershipSource = {
      familyIdsOf: async () => [],
      memberIdsOf: async () => {
        throw new Error("database gone");
      },
    };
    const log = recordingLog();
    const cache = new MembershipCache<string>(source, log);
    const seen: string[] = [];
    const changed = cache.membersChanged("home");
    cache.whenKnown("home", () => seen.push("event"));
    await changed;
    expect(log.warnings).toEqual(["realtime: membership reload failed"]);
    expect(seen).toEqual(["event"]);
  });

  it("runs the held deliveries once a reload outlasts reloadLimitMs", async () => {
    const source: MembershipSource = { familyIdsOf: async () => [], memberIdsOf: () => new Promise(() => {}) };
    const log = recordingLog();
    const cache = new MembershipCache<string>(source, log, 20);
    const seen: string[] = [];
    const started = Date.now();
    const changed = cache.membersChanged("home");
    cache.whenKnown("home", () => seen.push("event"));
    await flush();
    expect(seen).toEqual([]);
    await changed;
    expect(Date.now() - started).toBeGreaterThanOrEqual(15);
    expect(seen).toEqual(["event"]);
    expect(log.warnings).toEqual(["realtime: membership reload failed"]);
  });

  it("logs a user whose reload fails and keeps that user's cached families", async () => {
    const families: Record<string, string[]> = { ann: ["home"], bob: ["home"] };
    let failBob = false;
    const source: MembershipSource = {
      familyIdsOf: async (userId) => {
        if (userId === "bob" && failBob) throw new Error("timeout");
        return families[userId];
      },
    };
    const log = recordingLog();
    const cache = new MembershipCache<string>(source, log);
    await connect(cache, "ann", "a1");
    await connect(cache, "bob", "b1");
    failBob = true;
    families.ann = [];
    await cache.membersChanged("home");
    expect(log.warnings).toEqual(["realtime: family reload failed"]);
    expect([...cache.membersOf("home")]).toEqual(["bob"]);
  });

  it("drops held deliveries when the gates are released (shutdown)", async () => {
    const answer = deferred<string[]>();
    const source: MembershipSource = { familyIdsOf: async () => [], memberIdsOf: () => answer.promise };
    const cache = new MembershipCache<string>(source, recordingLog());
    const seen: string[] = [];
    const changed = cache.membersChanged("home");
    cache.whenKnown("home", () => seen.push("held"));
    cache.releaseGates();
    cache.whenKnown("home", () => seen.push("after release"));
    answer.resolve([]);
    await changed;
    expect(seen).toEqual(["after release"]);
  });
});
