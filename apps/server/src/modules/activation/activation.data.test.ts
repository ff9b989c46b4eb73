import { randomBytes } from "node:crypto";
import { ACTIVATION_NONCE_SECONDS, endpoints } from "@aquapilot/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, openTestDatabase, type TestDatabase } from "../../../test/databases.ts";
import { insertFamily, insertMember, insertUser } from "../../../test/factories.ts";
import { requireAccess } from "../../auth/access.ts";
import { InProcessBus } from "../../bus.ts";
import { AppError } from "../../http/errors.ts";
import { provisionDevice } from "../devices/provision.ts";
import { bindDevice } from "../devices/service.ts";
import { signNonce } from "./nonce.ts";
import { consumeActivation, findUsableActivation, hashActivationToken } from "./queries.ts";
import { type ActivationDeps, completeActivation } from "./service.ts";

const SECRET = "factory-secret-of-a-softener-0001";

/**
 * Pairing codes from activation on both engines (docs/device-protocol.md §13.4): issued hashed, bound once (consumed
 * inside the binding transaction), refused when used or expired, exactly one winner when two bind at once.
 */
describe.each(ENGINES)("activation codes and binding on %s", (engine) => {
  let tdb: TestDatabase;
  const bus = new InProcessBus();
  let clock = new Date("2026-06-01T08:00:00.000Z");
  const nonceKey = new Uint8Array(randomBytes(32));
  const users: Record<string, string> = {};
  const families: Record<string, string> = {};
  const devices: Record<string, string> = {};
  const bindDeps = () => ({ db: tdb.db, bus, now: () => clock });
  const activationDeps = (): ActivationDeps => ({ db: tdb.db, now: () => clock, nonceKey, mqttUrl: "mqtt://h:1883" });

  /** Activation step two for `mac` with a fresh nonce: the pairing code MAC:TOKEN. */
  async function issue(mac: string): Promise<string> {
    const nonce = signNonce(nonceKey, mac, new Date(clock.getTime() + ACTIVATION_NONCE_SECONDS * 1000));
    return (await completeActivation(activationDeps(), { mac, nonce, secret: SECRET })).pairingCode;
  }

  async function row(code: string) {
    return tdb.db
      .selectFrom("device_activations")
      .selectAll()
      .where("token_hash", "=", hashActivationToken(code.split(":")[1]))
      .executeTakeFirst();
  }

  async function familyOf(deviceId: string) {
    return (await tdb.db.selectFrom("devices").select("family_id").where("id", "=", deviceId).executeTakeFirstOrThrow())
      .family_id;
  }

  const invalid = { code: "InvalidCode", messageKey: "device.pairingInvalid" };

  beforeAll(async () => {
    tdb = await openTestDatabase(engine);
    const now = new Date().toISOString();
    for (const name of ["ann", "bob", "cat"]) users[name] = await insertUser(tdb.db, name, now);
    for (const name of ["ann", "bob"]) families[name] = await insertFamily(tdb.db, name, users[name], now);
    // cat is a member of ann's household, not its administrator.
    await insertMember(tdb.db, families.ann, users.cat, false, now);
    for (const n of [1, 2, 3, 4, 5, 6]) {
      const mac = `02FF0000000${n}`;
      devices[mac] = (await provisionDevice(tdb.db, { mac, secret: SECRET, name: `D${n}` })).id;
    }
  });
  afterAll(() => tdb?.close());

  it("binds once with a code, recording who used it; the same code then fails", async () => {
    const code = await issue("02FF00000001");
    expect(code).toMatch(/^02FF00000001:[A-Za-z0-9_-]{22}$/);
    const stored = await row(code);
    expect(stored).toMatchObject({ device_id: devices["02FF00000001"], used_at: null, used_by: null });
    expect(Object.values(stored ?? {})).not.toContain(code.split(":")[1]);

    const bound = await bindDevice(bindDeps(), users.ann, { familyId: families.ann, code });
    expect(bound).toMatchObject({ id: devices["02FF00000001"], familyId: families.ann });
    expect(await row(code)).toMatchObject({ used_at: clock.toISOString(), used_by: users.ann });

    // Used: refused like an unknown code, also to the same household and with rebind.
    await expect(bindDevice(bindDeps(), users.ann, { familyId: families.ann, code })).rejects.toMatchObject(invalid);
    await expect(
      bindDevice(bindDeps(), users.bob, { familyId: families.bob, code, rebind: true }),
    ).rejects.toMatchObject(invalid);
    expect(await familyOf(devices["02FF00000001"])).toBe(families.ann);
  });

  it("withdraws a device's other unused codes once one of them has bound it", async () => {
    const first = await issue("02FF00000006");
    const second = await issue("02FF00000006");
    await bindDevice(bindDeps(), users.ann, { familyId: families.ann, code: first });
    expect(await row(second)).toBeUndefined();
    // The earlier setup attempt's code cannot move the claimed device, even with rebind.
    await expect(
      bindDevice(bindDeps(), users.bob, { familyId: families.bob, code: second, rebind: true }),
    ).rejects.toMatchObject(invalid);
    expect(await familyOf(devices["02FF00000006"])).toBe(families.ann);
  });

  it("refuses an expired code and a code of another device, changing nothing", async () => {
    const code = await issue("02FF00000002");
    const start = clock;
    try {
      clock = new Date(start.getTime() + 10 * 60_000);
      await expect(bindDevice(bindDeps(), users.ann, { familyId: families.ann, code })).rejects.toMatchObject(invalid);
    } finally {
      clock = start;
    }
    // The token of device 2 with the MAC of device 3.
    const foreign = `02FF00000003:${code.split(":")[1]}`;
    await expect(bindDevice(bindDeps(), users.ann, { familyId: families.ann, code: foreign })).rejects.toMatchObject(
      invalid,
    );
    expect(await row(code)).toMatchObject({ used_at: null, used_by: null });
    expect(await familyOf(devices["02FF00000002"])).toBeNull();
    expect(await familyOf(devices["02FF00000003"])).toBeNull();
    // Still valid just before its expiry.
    clock = new Date(start.getTime() + 10 * 60_000 - 1);
    try {
      await expect(bindDevice(bindDeps(), users.ann, { familyId: families.ann, code })).resolves.toMatchObject({
        familyId: families.ann,
      });
    } finally {
      clock = start;
    }
  });

  it("refuses a non-administrator and a device bound elsewhere without rebind, leaving the code unused", async () => {
    const code = await issue("02FF00000002");
    // A non-administrator is refused by the call's declared rule before the code is looked at.
    expect(endpoints.bindDevice.access.object).toMatchObject({ object: "family", role: "admin", in: "body.familyId" });
    await expect(
      requireAccess(tdb.db, users.cat, { object: "family", role: "admin", id: families.ann }),
    ).rejects.toMatchObject({ code: "Forbidden" });
    await expect(bindDevice(bindDeps(), users.bob, { familyId: families.bob, code })).rejects.toMatchObject({
      code: "Conflict",
      messageKey: "device.boundElsewhere",
    });
    expect(await row(code)).toMatchObject({ used_at: null });
    // With rebind the fresh code moves it, and is consumed.
    const moved = await bindDevice(bindDeps(), users.bob, { familyId: families.bob, code, rebind: true });
    expect(moved).toMatchObject({ familyId: families.bob });
    expect(await row(code)).toMatchObject({ used_by: users.bob });
  });

  it("of two binds with one code at the same moment, exactly one succeeds", async () => {
    const code = await issue("02FF00000004");
    const results = await Promise.allSettled([
      bindDevice(bindDeps(), users.ann, { familyId: families.ann, code }),
      bindDevice(bindDeps(), users.bob, { familyId: families.bob, code }),
    ]);
    const won = results.filter((r) => r.status === "fulfilled");
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0].reason).toBeInstanceOf(AppError);
    expect(lost[0].reason).toMatchObject(invalid);
    const winner = results[0].status === "fulfilled" ? "ann" : "bob";
    expect(await familyOf(devices["02FF00000004"])).toBe(families[winner]);
    expect(await row(code)).toMatchObject({ used_by: users[winner] });
  });

  it("consumes a code exactly once when two transactions race for it", async () => {
    const code = await issue("02FF00000005");
    const found = await findUsableActivation(tdb.db, devices["02FF00000005"], code.split(":")[1], clock.toISOString());
    expect(found).toBeDefined();
    const id = found!.id;
    const now = clock.toISOString();
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The first transaction consumes the code and keeps its transaction open; the second tries meanwhile (on
    // PostgreSQL it waits for the row lock, on SQLite for the connection), then sees the code used.
    const first = tdb.db.transaction().execute(async (trx) => {
      const ok = await consumeActivation(trx, id, users.ann, now);
      await held;
      return ok;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = tdb.db.transaction().execute((trx) => consumeActivation(trx, id, users.bob, now));
    await new Promise((resolve) => setTimeout(resolve, 100));
    release();
    expect(await first).toBe(true);
    expect(await second).toBe(false);
    expect(await row(code)).toMatchObject({ used_by: users.ann });
  });

  it("keeps the factory secret working, and a failed bind consumes nothing", async () => {
    const code = await issue("02FF00000003");
    await expect(
      bindDevice(bindDeps(), users.ann, { familyId: families.ann, code: "02FF00000003:wrong-secret" }),
    ).rejects.toMatchObject(invalid);
    expect(await row(code)).toMatchObject({ used_at: null });
    const bound = await bindDevice(bindDeps(), users.ann, {
      familyId: families.ann,
      mac: "02FF00000003",
      secret: SECRET,
    });
    expect(bound).toMatchObject({ familyId: families.ann });
    // Claimed by its factory secret: the unused code of an earlier setup attempt is withdrawn.
    expect(await row(code)).toBeUndefined();
  });
});
