import { randomUUID } from "node:crypto";
import { endpoints, HUB_PATHS } from "@aquapilot/contract";
import { registerDevOutboxRoute } from "@aquapilot/dev";
import {
  HttpTransportType,
  type HubConnection,
  HubConnectionBuilder,
  HubConnectionState,
  LogLevel,
} from "@microsoft/signalr";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../../../test/call.ts";
import { ENGINES, openTestDatabase, type TestDatabase } from "../../../test/databases.ts";
import { RecordingDevicePort, registerByEmail } from "../../../test/helpers.ts";
import { buildApp, createLogger } from "../../app.ts";
import { createCodeService } from "../../auth/verification-codes.ts";
import { type BusEvent, InProcessBus } from "../../bus.ts";
import { loadConfig } from "../../config.ts";
import type { Db } from "../../db/index.ts";
import { type Hubs, registerHubs } from "../../realtime/index.ts";
import { leaveAllFamilies } from "./delete-account.ts";
import { codeFor, otherCode, outbox, refreshAnswer, refreshStatus, signIn } from "./testing.ts";

async function addUser(db: Db, name: string): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto("users")
    .values({
      id,
      user_name: name,
      name: null,
      email: `${name}@example.com`,
      phone_number: null,
      country_code: null,
      password_hash: "x",
      service_region: 2,
      language_type: "en",
      avatar: null,
      security_stamp: randomUUID(),
      is_deleted: 0,
      creation_time: "2025-01-01T00:00:00.000Z",
    })
    .execute();
  return id;
}

/** A family whose members joined in the order given (first = earliest); `admin` is the administrator. */
async function addFamily(db: Db, admin: string, members: string[], devices = 0): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto("families")
    .values({
      id,
      name: `family-${id.slice(0, 4)}`,
      address: "Somewhere 1",
      longitude: 121.491,
      latitude: 31.233,
      avatar: null,
      creator_id: admin,
      creation_time: "2025-01-01T00:00:00.000Z",
    })
    .execute();
  for (const [i, userId] of members.entries()) {
    await db
      .insertInto("family_members")
      .values({
        id: randomUUID(),
        family_id: id,
        user_id: userId,
        is_admin: userId === admin ? 1 : 0,
        creation_time: `2025-01-0${i + 1}T00:00:00.000Z`,
      })
      .execute();
  }
  for (let i = 0; i < devices; i++) {
    await db
      .insertInto("devices")
      .values({
        id: randomUUID(),
        mac: randomUUID().replace(/-/g, "").slice(0, 12).toUpperCase(),
        secret_hash: "x",
        name: `Softener ${i + 1}`,
        image: null,
        model: "RL-1",
        device_serial_number: null,
        serial_number: null,
        firmware_version: null,
        family_id: id,
        sort: i,
        creation_time: "2025-01-01T00:00:00.000Z",
      })
      .execute();
  }
  return id;
}

async function membersOf(db: Db, familyId: string) {
  return db
    .selectFrom("family_members")
    .select(["user_id", "is_admin"])
    .where("family_id", "=", familyId)
    .orderBy("creation_time")
    .execute();
}

describe.each(ENGINES)("account deletion, data layer on %s", (engine) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(engine);
  });
  afterAll(() => database.close());

  it("hands administration to the longest-standing member, deletes a family left empty, unbinds its devices", async () => {
    const { db } = database;
    const [a, b, c, d] = [
      await addUser(db, "a"),
      await addUser(db, "b"),
      await addUser(db, "c"),
      await addUser(db, "d"),
    ];
    // Membership times: b joined before c; a is administrator.
    const shared = await addFamily(db, a, [a, b, c], 1);
    const alone = await addFamily(db, a, [a], 2);
    const memberOnly = await addFamily(db, d, [d, a]);
    const untouched = await addFamily(db, b, [b, c]);

    const result = await db.transaction().execute((trx) => leaveAllFamilies(trx, a));
    expect(result).toHaveLength(3);
    expect(result.find((r) => r.familyId === shared)).toEqual({ familyId: shared, outcome: "left", newAdminUserId: b });
    expect(result.find((r) => r.familyId === alone)).toEqual({
      familyId: alone,
      outcome: "deleted",
      newAdminUserId: null,
    });
    expect(result.find((r) => r.familyId === memberOnly)).toEqual({
      familyId: memberOnly,
      outcome: "left",
      newAdminUserId: null,
    });

    expect(await membersOf(db, shared)).toEqual([
      { user_id: b, is_admin: 1 },
      { user_id: c, is_admin: 0 },
    ]);
    expect(await membersOf(db, memberOnly)).toEqual([{ user_id: d, is_admin: 1 }]);
    expect(await membersOf(db, untouched)).toEqual([
      { user_id: b, is_admin: 1 },
      { user_id: c, is_admin: 0 },
    ]);
    expect(await db.selectFrom("families").select("id").where("id", "=", alone).execute()).toEqual([]);
    const unbound = await db
      .selectFrom("devices")
      .select(["name", "family_id"])
      .where("name", "like", "Softener%")
      .execute();
    expect(unbound.filter((dev) => dev.family_id === null)).toHaveLength(2);
    expect(unbound.filter((dev) => dev.family_id === shared)).toHaveLength(1);
  });

  it("two members leaving at once (admin and heir) still leave exactly one administrator", async () => {
    const { db } = database;
    for (let round = 0; round < 5; round++) {
      const [a, b, c] = [
        await addUser(db, `ca${round}`),
        await addUser(db, `cb${round}`),
        await addUser(db, `cc${round}`),
      ];
      const fam = await addFamily(db, a, [a, b, c]);
      await Promise.all([
        db.transaction().execute((trx) => leaveAllFamilies(trx, a)),
        db.transaction().execute((trx) => leaveAllFamilies(trx, b)),
      ]);
      expect(await membersOf(db, fam)).toEqual([{ user_id: c, is_admin: 1 }]);
    }
  });

  it("rolls everything back when the transaction fails", async () => {
    const { db } = database;
    const [a, b] = [await addUser(db, "ra"), await addUser(db, "rb")];
    const fam = await addFamily(db, a, [a, b]);
    await expect(
      db.transaction().execute(async (trx) => {
        await leaveAllFamilies(trx, a);
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await membersOf(db, fam)).toEqual([
      { user_id: a, is_admin: 1 },
      { user_id: b, is_admin: 0 },
    ]);
  });

  it("checks a code against several targets (the account's own e-mail and phone)", async () => {
    const codes = createCodeService({ db: database.db, secret: new Uint8Array(32).fill(7) });
    const { id, code } = await codes.issue("delete-account", "+8613800000000");
    expect(await codes.check("delete-account", ["x@example.com", "+8613800000000"], code)).toBe(id);
    await expect(codes.check("delete-account", ["x@example.com"], code)).rejects.toMatchObject({
      messageKey: "account.codeNotFound",
    });
    await expect(codes.check("delete-account", [], code)).rejects.toMatchObject({ messageKey: "account.codeNotFound" });
  });
});

describe("account deletion and password change end access at once (REST and hubs)", () => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let hubs: Hubs;
  let bus: InProcessBus;
  let url: string;
  const events: BusEvent[] = [];
  const clients: HubConnection[] = [];
  let offsetMs = 0;

  function connect(accessToken: string): HubConnection {
    const c = new HubConnectionBuilder()
      .withUrl(`${url}${HUB_PATHS.deviceChange}`, {
        accessTokenFactory: () => accessToken,
        transport: HttpTransportType.WebSockets,
      })
      .configureLogging(LogLevel.None)
      .build();
    clients.push(c);
    return c;
  }
  function closed(c: HubConnection): Promise<number> {
    const started = Date.now();
    return new Promise((resolve) => c.onclose(() => resolve(Date.now() - started)));
  }

  beforeAll(async () => {
    database = await openTestDatabase("sqlite");
    const config = loadConfig({ APP_ENV: "test", LOG_LEVEL: "silent", DATA_DIR: database.dataDir });
    bus = new InProcessBus();
    bus.subscribe((e) => events.push(e));
    const db = database.db;
    app = buildApp({
      config,
      db,
      bus,
      devices: new RecordingDevicePort(),
      logger: createLogger(config),
      now: () => new Date(Date.now() + offsetMs),
    });
    // The codes are read from GET /dev/outbox, the development launcher's route.
    registerDevOutboxRoute(app, db);
    hubs = registerHubs(app, {
      bus,
      auth: {
        authenticate: async (token) => {
          const user = await app.auth.verifyAccessToken(token);
          return user ? { userId: user.userId } : null;
        },
        familyIdsOf: async (userId) =>
          (await db.selectFrom("family_members").select("family_id").where("user_id", "=", userId).execute()).map(
            (r) => r.family_id,
          ),
      },
    });
    await app.listen({ port: 0, host: "127.0.0.1" });
    const address = app.server.address();
    url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.stop().catch(() => undefined)));
    await hubs.close();
    await app.close();
    await bus.close();
    await database.close();
  });

  it("log-off: code to the own e-mail, then one transaction; tokens refused and the hub socket closed within 1 s", async () => {
    const db = database.db;
    const owner = await registerByEmail(app, "owner@example.com", "owner-pass");
    const early = await registerByEmail(app, "early@example.com", "early-pass");
    const late = await registerByEmail(app, "late@example.com", "late-pass");
    const shared = await addFamily(db, owner, [owner, early, late], 1);
    const alone = await addFamily(db, owner, [owner], 2);

    const session = await signIn(app, "owner@example.com", "owner-pass");
    const otherSession = await signIn(app, "owner@example.com", "owner-pass");
    const hub = connect(session.access);
    await hub.start();
    const hubClosed = closed(hub);
    const earlySession = await signIn(app, "early@example.com", "early-pass");
    const earlyHub = connect(earlySession.access);
    await earlyHub.start();

    const send = await call(app, endpoints.sendUserIdentityVerification, {
      as: session.access,
      query: { purpose: "delete-account" },
    });
    expect(send.status).toBe(200);
    expect(send.result).toEqual({ sentTo: "ow***@example.com" });
    const [mail] = await outbox(app, "owner@example.com");
    expect(mail.subject).toBe("确认注销您的 AquaPilot 账号"); // registered without Accept-Language: zh-Hans
    const code = await codeFor(app, "owner@example.com");

    const wrong = await call(app, endpoints.logOff, { as: session.access, query: { code: otherCode(code) } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.code).toBe("InvalidCode");
    expect(await membersOf(db, shared)).toHaveLength(3);
    expect(hub.state).toBe(HubConnectionState.Connected);

    events.length = 0;
    const res = await call(app, endpoints.logOff, { as: session.access, query: { code } });
    expect(res.status).toBe(200);
    const deletedAt = Date.now();

    // Hub: the socket is closed by the server within a second; REST: the next call is refused.
    expect(await Promise.race([hubClosed, new Promise((r) => setTimeout(() => r("timeout"), 1000))])).not.toBe(
      "timeout",
    );
    for (const s of [session, otherSession]) {
      expect((await call(app, endpoints.getProfile, { as: s.access })).status).toBe(401);
      expect(await refreshStatus(app, s.refresh)).toBe(400);
      expect((await refreshAnswer(app, s.refresh)).body).toMatchObject({
        ended_reason: "account-deleted",
        error_description: "Your account was deleted.",
      });
    }
    expect(Date.now() - deletedAt).toBeLessThan(1000);
    await expect(connect(session.access).start()).rejects.toThrow();
    await expect(signIn(app, "owner@example.com", "owner-pass")).rejects.toThrow();
    expect(earlyHub.state).toBe(HubConnectionState.Connected);

    // Bus: user.revoked and family.members-changed for each family.
    expect(events).toEqual(
      expect.arrayContaining([
        { type: "user.revoked", userId: owner },
        { type: "family.members-changed", familyId: shared },
        { type: "family.members-changed", familyId: alone },
      ]),
    );

    // Data: anonymised row; hand-over to the longest-standing member; the lone family gone, its devices unbound.
    const row = await db.selectFrom("users").selectAll().where("id", "=", owner).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      user_name: `deleted-${owner}`,
      email: null,
      phone_number: null,
      name: null,
      avatar: null,
      password_hash: "",
      is_deleted: 1,
    });
    expect(await membersOf(db, shared)).toEqual([
      { user_id: early, is_admin: 1 },
      { user_id: late, is_admin: 0 },
    ]);
    expect(await db.selectFrom("families").select("id").where("id", "=", alone).execute()).toEqual([]);
    expect(
      await db.selectFrom("devices").select("id").where("family_id", "is", null).where("model", "=", "RL-1").execute(),
    ).toHaveLength(2);

    // The e-mail is free again for a new account (after the 60 s resend pause of the registration code).
    offsetMs += 61_000;
    await registerByEmail(app, "owner@example.com", "new-owner");
  });

  it("change_password closes the user's hub connections too", async () => {
    await registerByEmail(app, "pw@example.com", "pw-pass-1");
    const s = await signIn(app, "pw@example.com", "pw-pass-1");
    const hub = connect(s.access);
    await hub.start();
    const hubClosed = closed(hub);
    const res = await call(app, endpoints.changePassword, {
      as: s.access,
      body: { currentPassword: "pw-pass-1", newPassword: "pw-pass-2" },
    });
    expect(res.status).toBe(200);
    expect(await Promise.race([hubClosed, new Promise((r) => setTimeout(() => r("timeout"), 1000))])).not.toBe(
      "timeout",
    );
    const fresh = await signIn(app, "pw@example.com", "pw-pass-2");
    const again = connect(fresh.access);
    await again.start();
    expect(again.state).toBe(HubConnectionState.Connected);
  });
});
