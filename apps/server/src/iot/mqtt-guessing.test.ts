import { randomUUID } from "node:crypto";
import { hash } from "@node-rs/argon2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, openTestDatabase, type TestDatabase } from "../../test/databases.ts";
import { mqttLogin } from "../../test/mqtt-login.ts";
import { InProcessBus } from "../bus.ts";
import { rollupTelemetryBatch } from "../modules/statistics/index.ts";
import { DEFAULT_LOGIN_LIMITS, type DeviceLink, silentLogger, startDeviceLink } from "./index.ts";

/**
 * Guessing MQTT passwords: the embedded broker with the real device authorizer (argon2id hashes in the
 * database, both engines) and the default limits — 10 wrong passwords for one client id block it for 15 minutes,
 * 100 from one address block the address — while real devices keep connecting, also after a server restart.
 */

const DEVICES = {
  target: { mac: "02D0000000A1", secret: "guess-target-secret-0123456789" },
  neighbour: { mac: "02D0000000B2", secret: "guess-neighbour-secret-012345" },
  veteran: { mac: "02D0000000C3", secret: "guess-veteran-secret-01234567" },
  newcomer: { mac: "02D0000000D4", secret: "guess-newcomer-secret-0123456" },
};

function tally(codes: number[]): Record<string, number> {
  const names: Record<number, string> = { 0: "connected", 3: "busy", 4: "wrong", 5: "blocked" };
  const out: Record<string, number> = {};
  for (const c of codes) out[names[c] ?? `code ${c}`] = (out[names[c] ?? `code ${c}`] ?? 0) + 1;
  return out;
}

describe.each(ENGINES)("MQTT password guessing on %s", (engine) => {
  let database: TestDatabase;
  let link: DeviceLink;
  let clock = Date.now();
  const lines: string[] = [];

  async function start(loginLimits = {}) {
    link = await startDeviceLink({
      db: database.db,
      bus: new InProcessBus(),
      dataDir: database.dataDir,
      mqttHost: "127.0.0.1",
      mqttPort: 0,
      logger: silentLogger,
      onTelemetry: rollupTelemetryBatch,
      brokerLimits: { loginLimits, now: () => clock },
    });
  }

  beforeAll(async () => {
    database = await openTestDatabase(engine);
    const now = new Date().toISOString();
    for (const [i, d] of Object.values(DEVICES).entries()) {
      await database.db
        .insertInto("devices")
        .values({
          id: randomUUID(),
          mac: d.mac,
          secret_hash: await hash(d.secret),
          name: `Guess ${i}`,
          image: null,
          model: null,
          device_serial_number: null,
          serial_number: null,
          firmware_version: null,
          family_id: null,
          sort: i,
          creation_time: now,
        })
        .execute();
    }
    await start();
  });

  afterAll(async () => {
    await link?.close();
    await database?.close();
    for (const l of lines) console.log(l);
  });

  it("200 wrong passwords for one device at once: 10 are checked, the rest refused unchecked; others still connect", async () => {
    const { target, neighbour, veteran } = DEVICES;
    // The veteran connected before the attack on it: it keeps connecting through the block on its MAC.
    expect(await mqttLogin(link.brokerUrl, veteran.mac, veteran.secret)).toBe(0);
    const t0 = Date.now();
    const codes = await Promise.all(
      Array.from({ length: 200 }, (_, i) => mqttLogin(link.brokerUrl, target.mac, `wrong-guess-${i}`)),
    );
    const seconds = (Date.now() - t0) / 1000;
    const outcome = tally(codes);
    expect(outcome).toEqual({
      wrong: DEFAULT_LOGIN_LIMITS.clientFailures,
      blocked: 200 - DEFAULT_LOGIN_LIMITS.clientFailures,
    });
    // The growing delay: 100 ms after the first failure, doubling to 2 s — the ten checks took at least 11 s.
    expect(seconds).toBeGreaterThan(10);
    const stats = link.broker?.stats.logins;
    expect(stats).toMatchObject({ checks: 11, failures: 10, blocksStarted: 1 });
    // The limit holds for the right password too (this device never connected since the start) …
    expect(await mqttLogin(link.brokerUrl, target.mac, target.secret)).toBe(5);
    // … while a neighbour behind the same address and a device that connected before connect.
    expect(await mqttLogin(link.brokerUrl, neighbour.mac, neighbour.secret)).toBe(0);
    expect(await mqttLogin(link.brokerUrl, veteran.mac, veteran.secret)).toBe(0);
    expect(link.gateway.connected).toBe(true);
    lines.push(
      `mqtt guessing (${engine}): 200 wrong passwords in ${seconds.toFixed(1)} s → ${outcome.wrong} checked, ` +
        `${outcome.blocked} refused by the block (CONNACK 5); right password refused while blocked; neighbour and ` +
        `known device connected`,
    );
  });

  it("a server restart forgets the blocks: the blocked device connects at once", async () => {
    await link.close();
    await start({ baseDelayMs: 5, maxDelayMs: 20 }); // shorter delays from here on; the counts stay the defaults
    expect(await mqttLogin(link.brokerUrl, DEVICES.target.mac, DEVICES.target.secret)).toBe(0);
  });

  it("100 failures from one address block it for 15 minutes; known devices still connect, new ones after the block", async () => {
    const { neighbour, newcomer } = DEVICES;
    expect(await mqttLogin(link.brokerUrl, neighbour.mac, neighbour.secret)).toBe(0); // known since this start
    const codes = await Promise.all(
      Array.from({ length: 150 }, (_, i) =>
        mqttLogin(link.brokerUrl, `02EE${String(i).padStart(8, "0")}`, "unknown-device-guess"),
      ),
    );
    const outcome = tally(codes);
    expect(outcome.wrong).toBeGreaterThanOrEqual(DEFAULT_LOGIN_LIMITS.addressFailures);
    expect(outcome.wrong).toBeLessThanOrEqual(
      DEFAULT_LOGIN_LIMITS.addressFailures + DEFAULT_LOGIN_LIMITS.addressConcurrency,
    );
    expect(outcome.blocked).toBe(150 - outcome.wrong);
    // A device never seen since the start is refused from the blocked address, right password or not …
    expect(await mqttLogin(link.brokerUrl, newcomer.mac, newcomer.secret)).toBe(5);
    // … a known one is not …
    expect(await mqttLogin(link.brokerUrl, neighbour.mac, neighbour.secret)).toBe(0);
    // … and 15 minutes later the block is over.
    clock += DEFAULT_LOGIN_LIMITS.blockMs + 1000;
    expect(await mqttLogin(link.brokerUrl, newcomer.mac, newcomer.secret)).toBe(0);
    lines.push(
      `mqtt guessing (${engine}): 150 wrong logins over 150 MACs from one address → ${outcome.wrong} checked, ` +
        `${outcome.blocked} refused by the address block; known device connected during it, a new one after 15 min`,
    );
  });

  it("a device that connected before keeps connecting while its MAC is blocked by someone guessing", async () => {
    const { veteran } = DEVICES;
    expect(await mqttLogin(link.brokerUrl, veteran.mac, veteran.secret)).toBe(0);
    const guesses = await Promise.all(
      Array.from({ length: 12 }, (_, i) => mqttLogin(link.brokerUrl, veteran.mac, `veteran-guess-${i}`)),
    );
    expect(tally(guesses)).toEqual({ wrong: 10, blocked: 2 });
    expect(await mqttLogin(link.brokerUrl, veteran.mac, veteran.secret)).toBe(0);
  });
});
