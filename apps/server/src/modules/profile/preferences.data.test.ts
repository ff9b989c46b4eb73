import { DEFAULT_UNIT_PREFERENCES, LANGUAGES } from "@aquapilot/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "../../../test/databases.ts";
import { bearer, createTestApp, registerByEmail, type TestApp } from "../../../test/helpers.ts";
import { MESSAGES } from "../../http/messages.ts";

const UNITS = "/api/RunLuckyIot/appuser_setting/app/setting/units";

/**
 * The owner's display units on both engines (issue 10 point 9): defaults until chosen, kept per user across sign-ins,
 * partial updates, wrong units refused with the choices in the caller's language, anonymous callers refused.
 */
describe.each(ENGINES)("unit preferences API on %s", (engine) => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  const clock = Date.parse("2026-05-02T09:30:00.000Z");

  const get = (auth: string) => t.app.inject({ method: "GET", url: UNITS, headers: { authorization: auth } });
  const set = (auth: string, body: unknown, lang = "en") =>
    t.app.inject({
      method: "POST",
      url: UNITS,
      payload: body as object,
      headers: { authorization: auth, "accept-language": lang },
    });

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
    const res = await get(alice);
    expect(res.statusCode).toBe(200);
    expect(res.json().result).toEqual(DEFAULT_UNIT_PREFERENCES);
    expect(DEFAULT_UNIT_PREFERENCES).toEqual({ volumeUnit: "L", hardnessUnit: "mgL" });
  });

  it("stores the choice per user and keeps it for the next sign-in", async () => {
    const res = await set(alice, { volumeUnit: "gal", hardnessUnit: "dH" });
    expect(res.statusCode).toBe(200);
    expect(res.json().result).toEqual({ volumeUnit: "gal", hardnessUnit: "dH" });
    const row = await t.db.selectFrom("user_preferences").selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ volume_unit: "gal", hardness_unit: "dH", updated_at: new Date(clock).toISOString() });
    // A new session of the same user reads the same units; another user still has the defaults.
    const again = await bearer(t.app, `units-alice-${engine}@example.com`, "pass-word-1");
    expect((await get(again)).json().result).toEqual({ volumeUnit: "gal", hardnessUnit: "dH" });
    expect((await get(bob)).json().result).toEqual(DEFAULT_UNIT_PREFERENCES);
  });

  it("changes only the units given", async () => {
    expect((await set(alice, { hardnessUnit: "gpg" })).json().result).toEqual({
      volumeUnit: "gal",
      hardnessUnit: "gpg",
    });
    expect((await set(alice, { volumeUnit: "L" })).json().result).toEqual({ volumeUnit: "L", hardnessUnit: "gpg" });
    expect((await set(alice, {})).json().result).toEqual({ volumeUnit: "L", hardnessUnit: "gpg" });
    for (const hardnessUnit of ["mgL", "fH", "dH"]) {
      expect((await set(alice, { hardnessUnit })).json().result.hardnessUnit).toBe(hardnessUnit);
    }
    const rows = await t.db.selectFrom("user_preferences").select("user_id").execute();
    expect(rows).toHaveLength(1);
  });

  it("refuses an unknown unit with the choices in the caller's language and stores nothing", async () => {
    for (const lang of LANGUAGES) {
      const res = await set(bob, { volumeUnit: "m3", hardnessUnit: "mgL" }, lang);
      expect(res.statusCode, lang).toBe(400);
      const error = res.json().error;
      expect(error.code).toBe("Validation");
      expect(error.message).toBe(MESSAGES[lang]["profile.volumeUnit"]);
      expect(error.validationErrors).toEqual([
        { message: MESSAGES[lang]["profile.volumeUnit"], members: ["volumeUnit"] },
      ]);
    }
    const both = await set(bob, { volumeUnit: "gallon", hardnessUnit: "ppm" }, "fr");
    expect(both.statusCode).toBe(400);
    expect(both.json().error.validationErrors).toEqual([
      { message: MESSAGES.fr["profile.volumeUnit"], members: ["volumeUnit"] },
      { message: MESSAGES.fr["profile.hardnessUnit"], members: ["hardnessUnit"] },
    ]);
    const wrongType = await set(bob, { hardnessUnit: 3 }, "ru");
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().error.validationErrors[0].members).toEqual(["hardnessUnit"]);
    expect((await get(bob)).json().result).toEqual(DEFAULT_UNIT_PREFERENCES);
  });

  it("the choices named in every language are the contract's units", () => {
    for (const lang of LANGUAGES) {
      for (const unit of ["L", "gal"]) expect(MESSAGES[lang]["profile.volumeUnit"], lang).toContain(unit);
      for (const unit of ["mgL", "dH", "fH", "gpg"])
        expect(MESSAGES[lang]["profile.hardnessUnit"], lang).toContain(unit);
    }
  });

  it("refuses anonymous callers", async () => {
    expect((await t.app.inject({ method: "GET", url: UNITS })).statusCode).toBe(401);
    expect((await t.app.inject({ method: "POST", url: UNITS, payload: { volumeUnit: "gal" } })).statusCode).toBe(401);
  });
});
