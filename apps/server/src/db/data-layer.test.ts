import { randomUUID } from "node:crypto";
import { seedDemoIfEmpty } from "@aquapilot/dev";
import Fastify from "fastify";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, openTestDatabase, type TestDatabase } from "../../test/databases.ts";
import { RecordingDevicePort } from "../../test/helpers.ts";
import { requireAccess } from "../auth/access.ts";
import { createAuthService } from "../auth/auth-service.ts";
import { createCodeService } from "../auth/verification-codes.ts";
import { InProcessBus } from "../bus.ts";
import { loadConfig } from "../config.ts";
import type { CoreServices } from "../core-services.ts";
import { AppError } from "../http/errors.ts";
import { registerUser } from "../modules/account/service.ts";
import { getDeviceInfo } from "../modules/device-control/service.ts";
import { provisionDevice } from "../modules/devices/provision.ts";
import { listFamilies } from "../modules/family/service.ts";
import { listFamilyDevices } from "../modules/family-device/service.ts";
import { createNotifier, listOutbox } from "../notify/index.ts";
import { createGuards, DEFAULT_LIMITS } from "../security/limits.ts";
import { isUniqueViolation } from "./errors.ts";
import { openDatabase } from "./index.ts";

describe.each(ENGINES)("data layer on %s", (engine) => {
  let tdb: TestDatabase;
  let ctx: CoreServices;
  beforeAll(async () => {
    tdb = await openTestDatabase(engine);
    const db = tdb.db;
    ctx = {
      config: loadConfig({ DATA_DIR: tdb.dataDir }),
      db,
      bus: new InProcessBus(),
      devices: new RecordingDevicePort(),
      auth: createAuthService({ db, dataDir: tdb.dataDir }),
      codes: createCodeService({ db, secret: new Uint8Array(32).fill(7) }),
      notifier: createNotifier({ db, logger: pino({ level: "silent" }) }),
      // Services called without HTTP count nothing: the counters are made on first use, which never comes here.
      guards: createGuards(Fastify(), DEFAULT_LIMITS),
      now: () => new Date(),
    };
  });
  afterAll(() => tdb?.close());

  it("migrates every table, and migrating again is a no-op", async () => {
    const tables = (await tdb.db.introspection.getTables()).map((t) => t.name).sort();
    expect(tables).toEqual(
      expect.arrayContaining([
        "device_commands",
        "device_events",
        "device_state",
        "device_telemetry",
        "devices",
        "families",
        "family_members",
        "outbox",
        "refresh_tokens",
        "users",
        "verification_codes",
      ]),
    );
    const again = await openDatabase(
      tdb.databaseUrl ? { databaseUrl: tdb.databaseUrl, dataDir: tdb.dataDir } : { dataDir: tdb.dataDir },
    );
    await again.db.destroy();
    expect(again.engine).toBe(engine);
  });

  it("seeds the demo and answers the families and devices queries", async () => {
    const seeded = await seedDemoIfEmpty(tdb.db, {
      devices: [
        { mac: "00:11:22:33:44:01", secret: "one", name: "First", model: "M" },
        { mac: "001122334402", secret: "two", name: "Second" },
      ],
    });
    expect(seeded.created).toBe(true);
    expect((await seedDemoIfEmpty(tdb.db, { devices: [] })).created).toBe(false);
    const owner = await tdb.db
      .selectFrom("users")
      .selectAll()
      .where("user_name", "=", "demo")
      .executeTakeFirstOrThrow();
    const families = await listFamilies(tdb.db, owner.id, {});
    expect(families.totalCount).toBe(1);
    expect(families.items[0]).toMatchObject({
      name: "Home",
      isAdmin: true,
      memberCount: 1,
      deviceCount: 2,
      longitude: 121.491,
    });
    expect(typeof families.items[0].memberCount).toBe("number");
    const familyId = families.items[0].id;
    const devices = await listFamilyDevices(tdb.db, familyId);
    expect(devices.map((d) => [d.mac, d.sort, d.online])).toEqual([
      ["001122334401", 0, false],
      ["001122334402", 1, false],
    ]);
    await tdb.db
      .updateTable("device_state")
      .set({ online: 1, station: 3, remaining_water_l: 1234.5, last_report_time: "2025-01-01T00:00:00.000Z" })
      .where("device_id", "=", devices[0].id)
      .execute();
    const info = await getDeviceInfo(tdb.db, devices[0].id, null);
    expect(info).toMatchObject({
      online: true,
      station: 3,
      remainingWaterL: 1234.5,
      lastReportTime: "2025-01-01T00:00:00.000Z",
    });
    expect(await requireAccess(tdb.db, owner.id, { object: "device", role: "member", id: devices[0].id })).toEqual({
      deviceId: devices[0].id,
      mac: "001122334401",
      familyId,
      isAdmin: true,
    });
    await expect(
      requireAccess(tdb.db, randomUUID(), { object: "family", role: "member", id: familyId }),
    ).rejects.toBeInstanceOf(AppError);
  });

  it("provisions a device unbound, and again under the same MAC without duplicating it", async () => {
    const first = await provisionDevice(tdb.db, { mac: "aa-bb-cc-dd-ee-ff", secret: "s", name: "Fresh" });
    const second = await provisionDevice(tdb.db, { mac: "AABBCCDDEEFF", secret: "t", name: "Fresh", model: "X2" });
    expect(first.created).toBe(true);
    expect(second).toEqual({ id: first.id, created: false });
    const row = await tdb.db.selectFrom("devices").selectAll().where("id", "=", first.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ family_id: null, model: "X2" });
    expect(row.secret_hash.startsWith("$argon2id$")).toBe(true);
  });

  it("registers through codes, tokens rotate, and the outbox keeps the message", async () => {
    const { code } = await ctx.codes.issue("register", "dl@example.com");
    await ctx.notifier.sendEmail({ recipient: "dl@example.com", subject: "s", body: `code ${code}` });
    expect((await listOutbox(tdb.db, "dl@example.com"))[0].body).toBe(`code ${code}`);
    const user = await registerUser(ctx, {
      bindType: 1,
      account: "dl@example.com",
      password: "pass-word-1",
      code,
      serviceRegion: 2,
      language: "en",
    });
    const tokens = await ctx.auth.passwordGrant("dl@example.com", "pass-word-1");
    expect(tokens).not.toBeNull();
    expect(await ctx.auth.verifyAccessToken(tokens!.access_token)).toEqual({
      userId: user.id,
      userName: user.userName,
      sessionId: expect.any(String),
    });
    expect(user.userName).toMatch(/^dl_[0-9a-f]{6}$/);
    const rotated = await ctx.auth.refreshGrant(tokens!.refresh_token);
    expect(rotated).not.toBeNull();
    expect(await ctx.auth.refreshGrant(tokens!.refresh_token)).toBeNull();
  });

  it("a failed registration leaves nothing half-written: no user, code still unspent", async () => {
    const { code } = await ctx.codes.issue("register", "half@example.com");
    // The user name belongs to someone else: the transaction must roll back entirely.
    const failing = registerUser(ctx, {
      bindType: 1,
      account: "half@example.com",
      password: "pass-word-1",
      code,
      serviceRegion: 2,
      userName: "demo",
      language: "en",
    });
    await expect(failing).rejects.toMatchObject({ code: "Conflict" });
    expect(await tdb.db.selectFrom("users").select("id").where("email", "=", "half@example.com").execute()).toEqual([]);
    const row = await tdb.db
      .selectFrom("verification_codes")
      .select("consumed_at")
      .where("target", "=", "half@example.com")
      .executeTakeFirstOrThrow();
    expect(row.consumed_at).toBeNull();
  });

  it("a transaction that fails half-way rolls back every row", async () => {
    const familyId = randomUUID();
    const owner = await tdb.db
      .selectFrom("users")
      .select("id")
      .where("user_name", "=", "demo")
      .executeTakeFirstOrThrow();
    const attempt = tdb.db.transaction().execute(async (trx) => {
      await trx
        .insertInto("families")
        .values({
          id: familyId,
          name: "Ghost",
          address: null,
          longitude: null,
          latitude: null,
          avatar: null,
          creator_id: owner.id,
          creation_time: new Date().toISOString(),
        })
        .execute();
      // A member row for a user that does not exist: the foreign key fails on both engines.
      await trx
        .insertInto("family_members")
        .values({
          id: randomUUID(),
          family_id: familyId,
          user_id: randomUUID(),
          is_admin: 1,
          creation_time: new Date().toISOString(),
        })
        .execute();
    });
    await expect(attempt).rejects.toThrow();
    expect(await tdb.db.selectFrom("families").select("id").where("id", "=", familyId).execute()).toEqual([]);
  });

  it("reports unique violations the same way on both engines", async () => {
    const err = await tdb.db
      .insertInto("users")
      .values({
        id: randomUUID(),
        user_name: "demo",
        name: null,
        email: null,
        phone_number: null,
        country_code: null,
        password_hash: "x",
        service_region: 1,
        language_type: "en",
        avatar: null,
        security_stamp: "s",
        is_deleted: 0,
        creation_time: new Date().toISOString(),
      })
      .execute()
      .catch((e: unknown) => e);
    expect(isUniqueViolation(err)).toBe(true);
  });
});
