import { DEFAULT_UNIT_PREFERENCES, endpoints, LANGUAGES } from "@aquapilot/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../../../test/call.ts";
import { ENGINES } from "../../../test/databases.ts";
import { bearer, createTestApp, registerByEmail, type TestApp } from "../../../test/helpers.ts";
import { MESSAGES } from "../../http/messages.ts";

/**
 * The owner's display units on both engines: defaults until chosen, kept per user across sign-ins,
 * partial updates, wrong units refused with the choices in the caller's language, anonymous callers refused.
 */
describe.each(ENGINES)(`unit preferences API, GET and POST ${endpoints.getUnitPreferences.path}, on %s`, (engine) => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  const clock = Date.parse("2026-05-02T09:30:00.000Z");

  beforeAll(async () => {
    t = await createTestApp({ engine, now: () => new Date(clock) });
    await registerByEmail(t.app, `units-alice-${engine}@example.com`, "pass-word-1");
    await registerByEmail(t.app, `units-bob-${engine}@example.com`, "pass-word-1");
    alice = await bearer(t.app, `units-alice-${engine}@example.com`, "pass-word-1");
    bob = await bearer(t.app, `units-bob-${engine}@example.com`, "pass-word-1");
  });
  afterAll(async () => {
    await t?.close();
  });

  it("answers litres and mg/L CaCO₃ until the user chooses", async () => {
    const res = await call(t, endpoints.getUnitPreferences, { as: alice });
    expect(res.status).toBe(200);
    expect(res.result).toEqual(DEFAULT_UNIT_PREFERENCES);
    expect(DEFAULT_UNIT_PREFERENCES).toEqual({ volumeUnit: "L", hardnessUnit: "mgL" });
  });

  it("stores the choice per user and keeps it for the next sign-in", async () => {
    const res = await call(t, endpoints.setUnitPreferences, {
      as: alice,
      body: { volumeUnit: "gal", hardnessUnit: "dH" },
    });
    expect(res.status).toBe(200);
    expect(res.result).toEqual({ volumeUnit: "gal", hardnessUnit: "dH" });
    const row = await t.db.selectFrom("user_preferences").selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ volume_unit: "gal", hardness_unit: "dH", updated_at: new Date(clock).toISOString() });
    // A new session of the same user reads the same units; another user still has the defaults.
    const again = await bearer(t.app, `units-alice-${engine}@example.com`, "pass-word-1");
    expect((await call(t, endpoints.getUnitPreferences, { as: again })).result).toEqual({
      volumeUnit: "gal",
      hardnessUnit: "dH",
    });
    expect((await call(t, endpoints.getUnitPreferences, { as: bob })).result).toEqual(DEFAULT_UNIT_PREFERENCES);
  });

  it("changes only the units given", async () => {
    expect((await call(t, endpoints.setUnitPreferences, { as: alice, body: { hardnessUnit: "gpg" } })).result).toEqual({
      volumeUnit: "gal",
      hardnessUnit: "gpg",
    });
    expect((await call(t, endpoints.setUnitPreferences, { as: alice, body: { volumeUnit: "L" } })).result).toEqual({
      volumeUnit: "L",
      hardnessUnit: "gpg",
    });
    expect((await call(t, endpoints.setUnitPreferences, { as: alice, body: {} })).result).toEqual({
      volumeUnit: "L",
      hardnessUnit: "gpg",
    });
    for (const hardnessUnit of ["mgL", "fH", "dH"]) {
      expect(
        (await call(t, endpoints.setUnitPreferences, { as: alice, body: { hardnessUnit } })).result.hardnessUnit,
      ).toBe(hardnessUnit);
    }
    const rows = await t.db.selectFrom("user_preferences").select("user_id").execute();
    expect(rows).toHaveLength(1);
  });

  it("refuses an unknown unit with the choices in the caller's language and stores nothing", async () => {
    for (const lang of LANGUAGES) {
      const res = await call(t, endpoints.setUnitPreferences, {
        as: bob,
        body: { volumeUnit: "m3", hardnessUnit: "mgL" },
        lang,
      });
      expect(res.status, lang).toBe(400);
      const error = res.body.error;
      expect(error.code).toBe("Validation");
      expect(error.message).toBe(MESSAGES[lang]["profile.volumeUnit"]);
      expect(error.validationErrors).toEqual([
        { message: MESSAGES[lang]["profile.volumeUnit"], members: ["volumeUnit"] },
      ]);
    }
    const both = await call(t, endpoints.setUnitPreferences, {
      as: bob,
      body: { volumeUnit: "gallon", hardnessUnit: "ppm" },
      lang: "fr",
    });
    expect(both.status).toBe(400);
    expect(both.body.error.validationErrors).toEqual([
      { message: MESSAGES.fr["profile.volumeUnit"], members: ["volumeUnit"] },
      { message: MESSAGES.fr["profile.hardnessUnit"], members: ["hardnessUnit"] },
    ]);
    const wrongType = await call(t, endpoints.setUnitPreferences, { as: bob, body: { hardnessUnit: 3 }, lang: "ru" });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error.validationErrors[0].members).toEqual(["hardnessUnit"]);
    expect((await call(t, endpoints.getUnitPreferences, { as: bob })).result).toEqual(DEFAULT_UNIT_PREFERENCES);
  });

  it("the choices named in every language are the contract's units", () => {
    for (const lang of LANGUAGES) {
      for (const unit of ["L", "gal"]) expect(MESSAGES[lang]["profile.volumeUnit"], lang).toContain(unit);
      for (const unit of ["mgL", "dH", "fH", "gpg"])
        expect(MESSAGES[lang]["profile.hardnessUnit"], lang).toContain(unit);
    }
  });

  it("refuses anonymous callers", async () => {
    expect((await call(t, endpoints.getUnitPreferences, { lang: null })).status).toBe(401);
    expect((await call(t, endpoints.setUnitPreferences, { body: { volumeUnit: "gal" }, lang: null })).status).toBe(401);
  });
});
