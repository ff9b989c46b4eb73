import { describe, expect, it } from "vitest";
import { buildApp } from "./app.ts";
import { MESSAGES } from "./http/messages.ts";

// What the catalogue holds once app.ts is loaded, before anything else could add a module's part (each
// module registers its texts when loaded; the HTTP layer imports none).
const keysWithTheApp = new Set(Object.keys(MESSAGES.en));

describe("the server's catalogue with the app loaded", () => {
  it("holds every module's texts: loading app.ts loads every module that has a messages.ts", async () => {
    expect(typeof buildApp).toBe("function");
    const { MODULE_CATALOGUES } = await import("../test/catalogue.ts");
    const missing = Object.entries(MODULE_CATALOGUES).flatMap(([module, part]) =>
      Object.keys(part.en)
        .filter((key) => !keysWithTheApp.has(key))
        .map((key) => `${module}: ${key}`),
    );
    expect(missing).toEqual([]);
    expect(keysWithTheApp.size).toBe(Object.keys(MESSAGES.en).length);
  });
});
