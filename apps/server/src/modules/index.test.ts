import { describe, expect, it } from "vitest";
import { createTestApp } from "../../test/helpers.ts";
import { CORE_PLUGIN } from "../core-services.ts";
import { API_MODULES } from "./index.ts";

/** What fastify-plugin attaches to a plugin, and Fastify reads to check names and dependencies. */
interface PluginMeta {
  name: string;
  dependencies?: string[];
}

function metaOf(plugin: unknown): PluginMeta {
  return (plugin as Record<symbol, PluginMeta>)[Symbol.for("plugin-meta")];
}

describe("the modules as plugins (modules/index.ts)", () => {
  it("names each module plugin module-<folder>, once, after every plugin it depends on", () => {
    const registered = new Set([CORE_PLUGIN, "module-activation"]);
    for (const plugin of API_MODULES) {
      const meta = metaOf(plugin);
      expect(meta.name).toMatch(/^module-[a-z-]+$/);
      expect(registered.has(meta.name), `${meta.name} twice`).toBe(false);
      for (const dependency of meta.dependencies ?? []) {
        expect(registered.has(dependency), `${meta.name} needs ${dependency} before it`).toBe(true);
      }
      registered.add(meta.name);
    }
  });

  it("has app.auth when buildApp returns, and the core's and the modules' decorations once ready", async () => {
    const shared = ["config", "db", "bus", "devices", "codes", "notifier", "guards", "now"];
    const modules = ["push", "messages", "familyDeviceLists"];
    let beforeReady: string[] = [];
    const t = await createTestApp({
      beforeReady: (app) => {
        beforeReady = ["auth", ...shared, ...modules].filter((name) => app.hasDecorator(name));
      },
    });
    try {
      // The realtime hubs read app.auth right after buildApp; everything else comes with the plugins.
      expect(beforeReady).toEqual(["auth"]);
      for (const name of [...shared, ...modules]) expect(t.app.hasDecorator(name), name).toBe(true);
      expect(t.app.db).toBe(t.db);
      expect(t.app.config).toBe(t.config);
    } finally {
      await t.close();
    }
  });
});
