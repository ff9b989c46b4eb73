import { endpoints } from "@aquapilot/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../../test/call.ts";
import { ENGINES } from "../../test/databases.ts";
import { bearer, createTestApp, latestCode, registerByEmail, type TestApp } from "../../test/helpers.ts";
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_REPLAYED_HEADER } from "./idempotency.ts";
import { IDEMPOTENCY_ABANDONED_MS, IDEMPOTENCY_WINDOW_MS, purgeIdempotencyKeys } from "./idempotency-store.ts";

/**
 * `Idempotency-Key` on both engines (every submit happens once): the same key from the same caller within
 * 24 h replays the first answer and does nothing twice — one after the other, at the same moment, and through two
 * app instances on one database (two server processes); a key reused for another request, a malformed key and a
 * key of another caller are told apart.
 */
describe.each(ENGINES)("idempotency keys on %s", (engine) => {
  let t: TestApp;
  /** A second app on the same database: another server process. */
  let other: TestApp;
  let ann: string;
  let bob: string;
  let clock = Date.parse("2026-03-01T08:00:00Z");

  const createFamily = (app: TestApp, auth: string, key: string | undefined, name: string, lang = "en") =>
    call(app, endpoints.createFamily, {
      as: auth,
      lang,
      headers: key === undefined ? {} : { [IDEMPOTENCY_HEADER]: key },
      body: { name, address: "1 Lake Road", longitude: 121.491, latitude: 31.233 },
    });
  const familiesNamed = async (name: string) =>
    (await t.db.selectFrom("families").select("id").where("name", "=", name).execute()).length;

  beforeAll(async () => {
    t = await createTestApp({ engine, now: () => new Date(clock) });
    other = await createTestApp({ database: t.database, now: () => new Date(clock) });
    await registerByEmail(t.app, "ann@example.com", "pass-word-1");
    await registerByEmail(t.app, "bob@example.com", "pass-word-1");
    ann = await bearer(t.app, "ann@example.com", "pass-word-1");
    bob = await bearer(t.app, "bob@example.com", "pass-word-1");
  });
  afterAll(async () => {
    await other?.close({ keepDatabase: true });
    await t?.close();
  });

  it("a repeat replays the first answer and creates nothing more; without a key each call counts", async () => {
    const first = await createFamily(t, ann, "k-one", "Repeat home");
    expect(first.status).toBe(200);
    expect(first.headers[IDEMPOTENCY_REPLAYED_HEADER]).toBeUndefined();
    const again = await createFamily(t, ann, "k-one", "Repeat home");
    expect(again.status).toBe(200);
    expect(again.headers[IDEMPOTENCY_REPLAYED_HEADER]).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(await familiesNamed("Repeat home")).toBe(1);

    await createFamily(t, ann, undefined, "Unkeyed home");
    await createFamily(t, ann, undefined, "Unkeyed home");
    expect(await familiesNamed("Unkeyed home")).toBe(2);
  });

  it("a double tap (two at once) and two server processes at once create one family, both answered alike", async () => {
    const [a, b] = await Promise.all([
      createFamily(t, ann, "k-tap", "Tapped home"),
      createFamily(t, ann, "k-tap", "Tapped home"),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body).toEqual(b.body);
    expect(await familiesNamed("Tapped home")).toBe(1);

    const [c, d] = await Promise.all([
      createFamily(t, ann, "k-two-processes", "Shared home"),
      createFamily(other, ann, "k-two-processes", "Shared home"),
    ]);
    expect([c.status, d.status]).toEqual([200, 200]);
    expect(c.result.id).toBe(d.result.id);
    expect(await familiesNamed("Shared home")).toBe(1);
  });

  it("the same key from another caller is that caller's own; the same key for another request is refused", async () => {
    const bobs = await createFamily(t, bob, "k-one", "Repeat home");
    expect(bobs.status).toBe(200);
    expect(bobs.headers[IDEMPOTENCY_REPLAYED_HEADER]).toBeUndefined();
    expect(await familiesNamed("Repeat home")).toBe(2);

    const reused = await createFamily(t, ann, "k-one", "Another name", "fr");
    expect(reused.status).toBe(409);
    expect(reused.body.error).toMatchObject({
      code: "Conflict",
      message: "Cette Idempotency-Key a déjà servi pour une autre requête.",
    });
    expect(await familiesNamed("Another name")).toBe(0);
  });

  it("refuses a malformed key with 400 in the caller's language, before doing anything", async () => {
    for (const key of ["", "has space", "x".repeat(129), "naïve"]) {
      const res = await createFamily(t, ann, key, "Malformed home", "es");
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe(
        "La cabecera Idempotency-Key debe tener de 1 a 128 caracteres ASCII visibles.",
      );
    }
    expect(await familiesNamed("Malformed home")).toBe(0);
  });

  it("replays a refusal too: a register repeated after success is not told the code expired", async () => {
    await call(t, endpoints.sendEmailPasswordCode, { query: { email: "cat@example.com" } });
    const code = await latestCode(t.app, "cat@example.com");
    const query = { bindType: "1", account: "cat@example.com", password: "pass-word-1", code, serviceRegion: "2" };
    const register = () => call(t, endpoints.register, { query, headers: { [IDEMPOTENCY_HEADER]: "reg-cat-1" } });
    const [one, two] = await Promise.all([register(), register()]);
    expect([one.status, two.status]).toEqual([200, 200]);
    expect(one.body).toEqual(two.body);
    // Without the key the second would have used a spent code:
    const spent = await call(t, endpoints.register, { query });
    expect(spent.status).toBeGreaterThanOrEqual(400);
    expect(spent.status).toBeLessThan(500);
    // The stored fingerprint reveals nothing of the request (the password is in its query).
    const rows = await t.db.selectFrom("idempotency_keys").selectAll().where("key", "=", "reg-cat-1").execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].caller).toBe("anonymous");
    expect(JSON.stringify(rows[0])).not.toContain("pass-word-1");
  });

  it("a key abandoned by a crashed request is taken over after a minute; keys are forgotten after 24 h", async () => {
    // A request that claimed its key and never answered (its process died half-way): a repeat within the minute
    // would wait for it; after the minute the repeat runs.
    expect((await createFamily(t, ann, "k-crashed", "Crash home")).status).toBe(200);
    await t.db
      .updateTable("idempotency_keys")
      .set({
        response_status: null,
        response_body: null,
        created_at: new Date(clock - IDEMPOTENCY_ABANDONED_MS - 1000).toISOString(),
      })
      .where("key", "=", "k-crashed")
      .execute();
    const retried = await createFamily(t, ann, "k-crashed", "Crash home");
    expect(retried.status).toBe(200);
    expect(retried.headers[IDEMPOTENCY_REPLAYED_HEADER]).toBeUndefined();
    expect(await familiesNamed("Crash home")).toBe(2);

    const first = await createFamily(t, ann, "k-late", "Late home");
    expect(first.status).toBe(200);
    clock += IDEMPOTENCY_WINDOW_MS + 1000;
    ann = await bearer(t.app, "ann@example.com", "pass-word-1"); // the day-old access token has expired
    const later = await createFamily(t, ann, "k-late", "Late home");
    expect(later.status).toBe(200);
    expect(later.headers[IDEMPOTENCY_REPLAYED_HEADER]).toBeUndefined();
    expect(await familiesNamed("Late home")).toBe(2);
    // A forgotten key may even carry another request now; the purge then removes day-old keys.
    clock += IDEMPOTENCY_WINDOW_MS + 1000;
    ann = await bearer(t.app, "ann@example.com", "pass-word-1");
    expect((await createFamily(t, ann, "k-late", "Later home")).status).toBe(200);
    expect(await familiesNamed("Later home")).toBe(1);
    await purgeIdempotencyKeys(t.db, new Date(clock + IDEMPOTENCY_WINDOW_MS + 1000));
    expect(await t.db.selectFrom("idempotency_keys").select("key").execute()).toEqual([]);
  });
});
