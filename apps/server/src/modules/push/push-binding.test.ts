import { endpoints } from "@aquapilot/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Answer, call, describeEndpoint, type QueryOptions } from "../../../test/call.ts";
import { ENGINES } from "../../../test/databases.ts";
import { bearer, createTestApp, registerByEmail, type TestApp } from "../../../test/helpers.ts";
import { pushMessages } from "./messages.ts";

const figures = { refused: 0, moved: 0, silentMoves: 0 };
afterAll(() => {
  console.log(
    `push bindings: ${figures.refused} takeovers without proof refused, ${figures.moved} moves with proof, ${figures.silentMoves} silent moves`,
  );
});

/**
 * Push bindings move only with proof of the same installation (no silent takeover of a push target): a JPush
 * registration id bound to another user moves only to a caller presenting the installation id it was bound with; a
 * Web Push endpoint only to a caller presenting the subscription's keys. Otherwise 409 in the caller's language and
 * the holder keeps it — and keeps receiving its pushes. On both engines.
 */
describe.each(ENGINES)("push bindings on %s", (engine) => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  let aliceId: string;
  let bobId: string;

  const bind = (auth: string, query: QueryOptions<typeof endpoints.appDeviceBinding>, lang = "en") =>
    call(t, endpoints.appDeviceBinding, { as: auth, query, lang });
  const holder = async (registrationId: string) =>
    (
      await t.db
        .selectFrom("push_registrations")
        .select("user_id")
        .where("registration_id", "=", registrationId)
        .executeTakeFirst()
    )?.user_id ?? null;
  /** Expects a refused takeover: 409 Conflict in the envelope, in `lang`, and `registrationId` still with `owner`. */
  const expectRefused = async (res: Answer<unknown>, lang: "en" | "fr", key: string) => {
    expect(res.status).toBe(409);
    const body = res.body;
    expect(body.success).toBe(false);
    expect(body.error.code).toBe("Conflict");
    expect(body.error.message).toBe(pushMessages[lang][key as keyof (typeof pushMessages)["en"]]);
    figures.refused++;
  };
  /** The JPush registrations the outbox received a test message for, per user. */
  const pushedTo = async (auth: string): Promise<string[]> => {
    const before = await t.db.selectFrom("outbox").select("id").where("channel", "=", "push").execute();
    const res = await call(t, endpoints.testSendMessage, { as: auth });
    expect(res.status).toBe(200);
    await t.app.messages.idle();
    const known = new Set(before.map((r) => r.id));
    return (await t.db.selectFrom("outbox").select(["id", "recipient"]).where("channel", "=", "push").execute())
      .filter((r) => !known.has(r.id))
      .map((r) => r.recipient)
      .sort();
  };

  beforeAll(async () => {
    t = await createTestApp({ engine });
    aliceId = await registerByEmail(t.app, `alice-${engine}@push.test`, "pass-word-1");
    bobId = await registerByEmail(t.app, `bob-${engine}@push.test`, "pass-word-1");
    alice = await bearer(t.app, `alice-${engine}@push.test`, "pass-word-1");
    bob = await bearer(t.app, `bob-${engine}@push.test`, "pass-word-1");
  });
  afterAll(async () => {
    await t?.close();
  });

  describeEndpoint(endpoints.appDeviceBinding, "takeover needs the installation id", () => {
    it("refuses another user's JPush registration without the installation's proof; the holder keeps it", async () => {
      const installationId = "alice-phone-installation-1";
      expect((await bind(alice, { registrationId: "reg-a", platform: "android", installationId })).status).toBe(200);
      await expectRefused(await bind(bob, { registrationId: "reg-a" }, "fr"), "fr", "push.registrationTaken");
      await expectRefused(
        await bind(bob, { registrationId: "reg-a", installationId: "guessed-installation-0001" }),
        "en",
        "push.registrationTaken",
      );
      expect(await holder("reg-a")).toBe(aliceId);
      // Alice's pushes still reach her phone; Bob's never do.
      expect(await pushedTo(alice)).toEqual(["jpush:reg-a"]);
      expect(await pushedTo(bob)).toEqual([]);
      // Bob cannot unbind it either (unbinding acts on the caller's own registrations only).
      await call(t, endpoints.appDeviceUnbinding, { as: bob, query: { registrationId: "reg-a" } });
      expect(await holder("reg-a")).toBe(aliceId);
    });

    it("moves it when the same installation re-registers for another account", async () => {
      const installationId = "shared-tablet-installation";
      await bind(alice, { registrationId: "reg-tablet", installationId });
      // Alice re-binds at every app start, from an older build without the id: her proof stays.
      expect((await bind(alice, { registrationId: "reg-tablet" })).status).toBe(200);
      expect((await bind(bob, { registrationId: "reg-tablet", platform: "ios", installationId })).status).toBe(200);
      figures.moved++;
      expect(await holder("reg-tablet")).toBe(bobId);
      expect(await pushedTo(bob)).toEqual(["jpush:reg-tablet"]);
      expect(await pushedTo(alice)).toEqual(["jpush:reg-a"]);
      // And back only with the proof again.
      await expectRefused(await bind(alice, { registrationId: "reg-tablet" }), "en", "push.registrationTaken");
      expect(await holder("reg-tablet")).toBe(bobId);
    });

    it("never moves a registration bound without proof (older app), and frees it on sign-out", async () => {
      await bind(alice, { registrationId: "reg-old-app" });
      await expectRefused(
        await bind(bob, { registrationId: "reg-old-app", installationId: "any-installation-id-1" }),
        "en",
        "push.registrationTaken",
      );
      expect(await holder("reg-old-app")).toBe(aliceId);
      // Signing out unbinds as before (spec §4); then the phone is free for anyone.
      const out = await call(t, endpoints.appDeviceUnbinding, { as: alice, query: { registrationId: "reg-old-app" } });
      expect(out.status).toBe(200);
      expect(await holder("reg-old-app")).toBeNull();
      expect((await bind(bob, { registrationId: "reg-old-app" })).status).toBe(200);
      expect(await holder("reg-old-app")).toBe(bobId);
    });

    it("validates the installation id and keeps it out of the log and the database", async () => {
      for (const installationId of [
        "short",
        "has space in it 123",
        "nul\u0000in-the-installation-id",
        "x".repeat(129),
      ]) {
        expect((await bind(alice, { registrationId: "reg-v", installationId })).status).toBe(400);
      }
      const secret = "installation-secret-logged-never";
      expect((await bind(alice, { registrationId: "reg-v", installationId: secret })).status).toBe(200);
      expect(t.logs.join("\n")).not.toContain(secret);
      const row = await t.db
        .selectFrom("push_registrations")
        .select("installation_hash")
        .where("registration_id", "=", "reg-v")
        .executeTakeFirstOrThrow();
      expect(row.installation_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(row.installation_hash).not.toContain(secret);
    });

    it("races of two accounts for a new registration leave exactly one holder, and no server error", async () => {
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) => bind(i % 2 ? bob : alice, { registrationId: "reg-race" })),
      );
      expect(answers.every((a) => a.status === 200 || a.status === 409)).toBe(true);
      const winner = await holder("reg-race");
      expect([aliceId, bobId]).toContain(winner);
      const winnerAuth = winner === aliceId ? alice : bob;
      // Every answer of the loser was a refusal; the winner's were all successes.
      answers.forEach((a, i) => {
        const auth = i % 2 ? bob : alice;
        expect(a.status, `call ${i}`).toBe(auth === winnerAuth ? 200 : 409);
        if (a.status === 409) figures.refused++;
      });
      const rows = await t.db
        .selectFrom("push_registrations")
        .selectAll()
        .where("registration_id", "=", "reg-race")
        .execute();
      expect(rows).toHaveLength(1);
    });
  });

  describeEndpoint(endpoints.webPushSubscribe, "takeover needs the subscription's keys", () => {
    it("refuses another user's Web Push endpoint unless the subscription's keys match", async () => {
      const endpoint = `https://push.example/ep/${engine}`;
      const keys = { p256dh: "BAlicesPublicKey0123456789", auth: "alice-auth-secret" };
      const subscribe = (auth: string, k: typeof keys, lang = "en") =>
        call(t, endpoints.webPushSubscribe, { as: auth, body: { endpoint, keys: k }, lang });
      const subHolder = async () =>
        (await t.db
          .selectFrom("web_push_subscriptions")
          .select(["user_id", "p256dh", "auth"])
          .where("endpoint", "=", endpoint)
          .executeTakeFirst()) ?? null;
      expect((await subscribe(alice, keys)).status).toBe(200);
      await expectRefused(
        await subscribe(bob, { p256dh: "BMallorysKey", auth: "mallory-auth" }, "fr"),
        "fr",
        "push.subscriptionTaken",
      );
      await expectRefused(await subscribe(bob, { ...keys, auth: "guessed-auth" }), "en", "push.subscriptionTaken");
      await expectRefused(await subscribe(bob, { ...keys, p256dh: "BGuessedKey" }), "en", "push.subscriptionTaken");
      expect(await subHolder()).toEqual({ user_id: aliceId, ...keys });
      // The same browser subscribing for Bob presents the same keys: it moves.
      expect((await subscribe(bob, keys)).status).toBe(200);
      figures.moved++;
      expect((await subHolder())?.user_id).toBe(bobId);
      // Alice's sign-out unsubscribes her endpoints only: Bob's stays.
      await call(t, endpoints.webPushUnsubscribe, { as: alice, body: { endpoint } });
      expect((await subHolder())?.user_id).toBe(bobId);
      await call(t, endpoints.webPushUnsubscribe, { as: bob, body: { endpoint } });
      expect(await subHolder()).toBeNull();
    });
  });

  it("moved nothing silently", async () => {
    // Every registration and subscription is held by the user the tests above expect.
    const rows = await t.db.selectFrom("push_registrations").select(["registration_id", "user_id"]).execute();
    const expected: Record<string, string> = {
      "reg-a": aliceId,
      "reg-tablet": bobId,
      "reg-old-app": bobId,
      "reg-v": aliceId,
    };
    for (const r of rows) {
      if (r.registration_id in expected && expected[r.registration_id] !== r.user_id) figures.silentMoves++;
    }
    expect(figures.silentMoves).toBe(0);
    expect(rows.filter((r) => r.registration_id in expected)).toHaveLength(4);
  });
});
