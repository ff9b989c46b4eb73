import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type DevSystem, seedDemoIfEmpty, startDevSystem } from "@aquapilot/dev";
import { generateDeviceIdentity, readFleetFile, writeFleetFile } from "@aquapilot/device-sim";
import { afterAll, describe, expect, it } from "vitest";
import { ENGINES, openTestDatabase, type TestDatabase } from "../test/databases.ts";
import { loadConfig } from "./config.ts";
import type { Db } from "./db/index.ts";

/** The demo owner's stored language, household (name, address) and devices (names in sort order). */
async function readDemo(db: Db) {
  const owner = await db
    .selectFrom("users")
    .select(["id", "language_type"])
    .where("user_name", "=", "demo")
    .executeTakeFirstOrThrow();
  const family = await db
    .selectFrom("families")
    .select(["id", "name", "address"])
    .where("creator_id", "=", owner.id)
    .executeTakeFirstOrThrow();
  const devices = await db
    .selectFrom("devices")
    .select("name")
    .where("family_id", "=", family.id)
    .orderBy("sort")
    .execute();
  return {
    language: owner.language_type,
    household: family.name,
    address: family.address,
    devices: devices.map((d) => d.name),
  };
}

describe.each(ENGINES)("the demo seeded in a chosen language on %s", (engine) => {
  const databases: TestDatabase[] = [];
  afterAll(async () => {
    for (const d of databases) await d.close();
  });
  const fresh = async () => {
    const d = await openTestDatabase(engine);
    databases.push(d);
    return d.db;
  };

  it("names the household and the unnamed softeners in zh-Hans, stores zh-Hans as the owner's language, keeps a given name", async () => {
    const db = await fresh();
    const seeded = await seedDemoIfEmpty(db, {
      language: "zh-Hans",
      devices: [
        { mac: "02CC00000001", secret: "s1" },
        { mac: "02CC00000002", secret: "s2", name: "Cellar" },
        { mac: "02CC00000003", secret: "s3" },
      ],
    });
    expect(seeded.created).toBe(true);
    expect(await readDemo(db)).toEqual({
      language: "zh-Hans",
      household: "家",
      address: "上海市黄浦区外滩",
      devices: ["软水机 1", "Cellar", "软水机 3"],
    });
  });

  it("stays English when no language is chosen", async () => {
    const db = await fresh();
    await seedDemoIfEmpty(db, { devices: [{ mac: "02CC00000011", secret: "s1" }] });
    expect(await readDemo(db)).toEqual({
      language: "en",
      household: "Home",
      address: "Bund, Huangpu District, Shanghai",
      devices: ["Softener 1"],
    });
  });
});

describe("the development launcher's DEMO_LANGUAGE", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "aq-demo-language-"));
  let system: DevSystem | null = null;
  afterAll(async () => {
    await system?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const start = (language: string) =>
    startDevSystem(
      loadConfig({
        APP_ENV: "test",
        PORT: "0",
        MQTT_PORT: "0",
        DATA_DIR: dataDir,
        SIM_DEVICES: "3",
        SIM_TIME_SCALE: "60",
        LOG_LEVEL: "silent",
        DEMO_LANGUAGE: language,
      }),
    );

  it("seeds in DEMO_LANGUAGE over generated English fleet names, keeps a written one, and renames nothing later", async () => {
    // A fleet file from an earlier start in English, with one softener renamed by hand; a third is generated now.
    const fleetFile = path.join(dataDir, "sim-fleet.json");
    writeFleetFile(fleetFile, {
      version: 1,
      devices: [
        { ...generateDeviceIdentity(), name: "Softener 1" },
        { ...generateDeviceIdentity(), name: "Cellar" },
      ],
    });
    system = await start("zh-Hans");
    expect(system.demo).not.toBeNull();
    expect(await readDemo(system.db)).toEqual({
      language: "zh-Hans",
      household: "家",
      address: "上海市黄浦区外滩",
      devices: ["软水机 1", "Cellar", "软水机 3"],
    });
    expect(readFleetFile(fleetFile).devices.map((d) => d.name)).toEqual(["Softener 1", "Cellar", "软水机 3"]);
    await system.close();
    system = null;

    // The names are the owner's now: a start in another language leaves them.
    system = await start("fr");
    expect(system.demo).toBeNull();
    expect(await readDemo(system.db)).toMatchObject({ household: "家", devices: ["软水机 1", "Cellar", "软水机 3"] });
  });

  it("refuses a language the app does not have", () => {
    expect(() => loadConfig({ DEMO_LANGUAGE: "de" })).toThrow(/DEMO_LANGUAGE/);
  });
});
