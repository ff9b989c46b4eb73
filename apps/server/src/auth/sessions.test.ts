import { endpoints, HUB_PATHS } from "@aquapilot/contract";
import { registerDevOutboxRoute } from "@aquapilot/dev";
import { HttpTransportType, type HubConnection, HubConnectionBuilder, LogLevel } from "@microsoft/signalr";
import type { FastifyInstance } from "fastify";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../../test/call.ts";
import { ENGINES, openTestDatabase, type TestDatabase } from "../../test/databases.ts";
import { RecordingDevicePort, registerByEmail } from "../../test/helpers.ts";
import { buildApp, createLogger } from "../app.ts";
import { type BusEvent, InProcessBus } from "../bus.ts";
import { loadConfig } from "../config.ts";
import { refreshStatus, signIn } from "../modules/profile/testing.ts";
import { accountHubAuth, type Hubs, registerHubs } from "../realtime/index.ts";
import { JWT_KEY_FILE } from "./auth-service.ts";
import { loadOrCreateSecret } from "./secrets.ts";
import { endSessions } from "./sessions.ts";

/** The claims of a JWT (no verification: the test reads what it was given). */
function claims(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString());
}

// Figures printed once at the end: what the families suite did on both engines.
const figures = { refreshes: 0, replays: 0, sessionsEnded: 0, hubCloseMs: [] as number[] };
afterAll(() => {
  console.log(
    `sessions: ${figures.refreshes} refresh grants, ${figures.replays} replays → ${figures.sessionsEnded} sessions ` +
      `ended; hub closed after logout/replay in ${figures.hubCloseMs.map((ms) => `${ms} ms`).join(", ")}`,
  );
});

describe.each(ENGINES)("refresh-token families and session ends on %s", (engine) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let hubs: Hubs;
  let bus: InProcessBus;
  let url: string;
  const events: BusEvent[] = [];
  const clients: HubConnection[] = [];

  const refresh = async (refreshToken: string) => {
    figures.refreshes++;
    const res = await app.inject({
      method: "POST",
      url: "/connect/token",
      headers: { "content-type": "application/x-www-form-urlencoded", "accept-language": "en" },
      payload: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken }).toString(),
    });
    return { status: res.statusCode, body: res.json() as Record<string, string> };
  };
  const revoke = (token: string) =>
    app.inject({
      method: "POST",
      url: "/connect/revocation",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({ token }).toString(),
    });
  const profileStatus = async (access: string) => (await call(app, endpoints.getProfile, { as: access })).status;
  const sessionRow = (id: unknown) =>
    database.db.selectFrom("sessions").selectAll().where("id", "=", String(id)).executeTakeFirstOrThrow();

  async function connectHub(
    accessToken: string,
  ): Promise<{ hub: HubConnection; closedAfter: (from: number) => Promise<number> }> {
    const hub = new HubConnectionBuilder()
      .withUrl(`${url}${HUB_PATHS.deviceChange}`, {
        accessTokenFactory: () => accessToken,
        transport: HttpTransportType.WebSockets,
      })
      .configureLogging(LogLevel.None)
      .build();
    clients.push(hub);
    let closedAt = 0;
    const closed = new Promise<void>((resolve) =>
      hub.onclose(() => {
        closedAt = Date.now();
        resolve();
      }),
    );
    await hub.start();
    return {
      hub,
      // Milliseconds from `from` (Date.now() before the ending call) to the close; waits at most 2 s.
      closedAfter: async (from) => {
        await Promise.race([closed, new Promise((r) => setTimeout(r, 2000))]);
        return closedAt === 0 ? Number.POSITIVE_INFINITY : Math.max(0, closedAt - from);
      },
    };
  }

  beforeAll(async () => {
    database = await openTestDatabase(engine);
    const config = loadConfig({ APP_ENV: "test", LOG_LEVEL: "silent", DATA_DIR: database.dataDir });
    bus = new InProcessBus();
    bus.subscribe((e) => events.push(e));
    app = buildApp({ config, db: database.db, bus, devices: new RecordingDevicePort(), logger: createLogger(config) });
    // The codes are read from GET /dev/outbox, the development launcher's route.
    registerDevOutboxRoute(app, database.db);
    hubs = registerHubs(app, { bus, auth: accountHubAuth(app.auth, database.db) });
    await app.listen({ port: 0, host: "127.0.0.1" });
    const address = app.server.address();
    url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
    await registerByEmail(app, "fam@example.com", "fam-pass-1");
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.stop().catch(() => undefined)));
    await hubs.close();
    await app.close();
    await bus.close();
    await database.close();
  });

  it("a sign-in starts a session; rotation keeps it (same sid) and spends the presented token", async () => {
    const first = await signIn(app, "fam@example.com", "fam-pass-1");
    const second = await signIn(app, "fam@example.com", "fam-pass-1");
    const sid = claims(first.access).sid;
    expect(typeof sid).toBe("string");
    expect(claims(second.access).sid).not.toBe(sid);
    const rotated = await refresh(first.refresh);
    expect(rotated.status).toBe(200);
    expect(claims(rotated.body.access_token).sid).toBe(sid);
    const rows = await database.db
      .selectFrom("refresh_tokens")
      .selectAll()
      .where("session_id", "=", String(sid))
      .execute();
    expect(rows).toHaveLength(2);
    expect(rows.filter((r) => r.revoked_at === null)).toHaveLength(1);
    // The first access token of the session still works: rotation is not an end.
    expect(await profileStatus(first.access)).toBe(200);
    expect(await profileStatus(rotated.body.access_token)).toBe(200);
    expect((await sessionRow(sid)).ended_at).toBeNull();
  });

  it("replaying a rotated refresh token ends the whole family: successors, access tokens and hub connection", async () => {
    const victim = await signIn(app, "fam@example.com", "fam-pass-1");
    const bystander = await signIn(app, "fam@example.com", "fam-pass-1");
    const r1 = await refresh(victim.refresh);
    const r2 = await refresh(r1.body.refresh_token);
    expect([r1.status, r2.status]).toEqual([200, 200]);
    const { closedAfter } = await connectHub(r2.body.access_token);
    const bystanderHub = await connectHub(bystander.access);

    figures.replays++;
    const replayedAt = Date.now();
    const replay = await refresh(victim.refresh);
    expect(replay.status).toBe(400);
    expect(replay.body).toEqual({
      error: "invalid_grant",
      error_description: "The refresh token is invalid or expired. Please sign in again.",
    });
    figures.sessionsEnded++;
    const closeMs = await closedAfter(replayedAt);
    figures.hubCloseMs.push(closeMs);
    expect(closeMs).toBeLessThan(1000);
    // Every token of the family is dead: the newest refresh token and every access token issued in it.
    expect((await refresh(r2.body.refresh_token)).status).toBe(400);
    for (const access of [victim.access, r1.body.access_token, r2.body.access_token]) {
      expect(await profileStatus(access)).toBe(401);
    }
    expect(await sessionRow(claims(victim.access).sid)).toMatchObject({ ended_reason: "replay" });
    expect(events).toContainEqual({
      type: "session.ended",
      userId: claims(victim.access).sub,
      sessionId: claims(victim.access).sid,
    });
    // The user's other session is untouched.
    expect(await profileStatus(bystander.access)).toBe(200);
    expect(bystanderHub.hub.state).toBe("Connected");
    expect((await refresh(bystander.refresh)).status).toBe(200);
  });

  it("two uses of one refresh token at once: one pair is issued, and the second use ends the family", async () => {
    const s = await signIn(app, "fam@example.com", "fam-pass-1");
    figures.replays++;
    const both = await Promise.all([refresh(s.refresh), refresh(s.refresh)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 400]);
    figures.sessionsEnded++;
    const winner = both.find((r) => r.status === 200)!;
    expect((await refresh(winner.body.refresh_token)).status).toBe(400);
    expect(await profileStatus(winner.body.access_token)).toBe(401);
  });

  it("logout (revocation of the refresh token) refuses the access token at once and closes the session's hub", async () => {
    const mine = await signIn(app, "fam@example.com", "fam-pass-1");
    const other = await signIn(app, "fam@example.com", "fam-pass-1");
    const { closedAfter } = await connectHub(mine.access);
    const otherHub = await connectHub(other.access);
    expect(await profileStatus(mine.access)).toBe(200);
    const loggedOutAt = Date.now();
    expect((await revoke(mine.refresh)).statusCode).toBe(200);
    figures.sessionsEnded++;
    expect(await profileStatus(mine.access)).toBe(401);
    const closeMs = await closedAfter(loggedOutAt);
    figures.hubCloseMs.push(closeMs);
    expect(closeMs).toBeLessThan(1000);
    expect(await refreshStatus(app, mine.refresh)).toBe(400);
    expect(await sessionRow(claims(mine.access).sid)).toMatchObject({ ended_reason: "logout" });
    // A new hub connection with the dead token is refused; the other session is unaffected.
    await expect(connectHub(mine.access)).rejects.toThrow();
    expect(otherHub.hub.state).toBe("Connected");
    expect(await profileStatus(other.access)).toBe(200);
  });

  it("revoking an access token ends its session too; a second revocation changes nothing", async () => {
    const s = await signIn(app, "fam@example.com", "fam-pass-1");
    expect((await revoke(s.access)).statusCode).toBe(200);
    figures.sessionsEnded++;
    expect(await profileStatus(s.access)).toBe(401);
    expect(await refreshStatus(app, s.refresh)).toBe(400);
    const endedAt = (await sessionRow(claims(s.access).sid)).ended_at;
    expect(endedAt).not.toBeNull();
    const before = events.length;
    expect((await revoke(s.refresh)).statusCode).toBe(200);
    expect((await sessionRow(claims(s.access).sid)).ended_at).toBe(endedAt);
    expect(events.slice(before).filter((e) => e.type === "session.ended")).toEqual([]);
  });

  it("an access token without a session (issued before sessions existed) or with an unknown one is refused", async () => {
    const s = await signIn(app, "fam@example.com", "fam-pass-1");
    const { sid, ...rest } = claims(s.access);
    const key = loadOrCreateSecret(database.dataDir, JWT_KEY_FILE);
    const sign = (payload: Record<string, unknown>) =>
      new SignJWT(payload).setProtectedHeader({ alg: "HS256", typ: "JWT" }).sign(key);
    // The same claims re-signed with the real key: accepted with its sid, refused without or with a foreign one.
    expect(await profileStatus(await sign({ ...rest, sid }))).toBe(200);
    expect(await profileStatus(await sign(rest))).toBe(401);
    expect(await profileStatus(await sign({ ...rest, sid: "00000000-0000-4000-8000-000000000000" }))).toBe(401);
  });

  it("ending every session (password change, reset, deletion) marks every session of the user ended", async () => {
    const userId = await registerByEmail(app, "all@example.com", "all-pass-1");
    const a = await signIn(app, "all@example.com", "all-pass-1");
    const b = await signIn(app, "all@example.com", "all-pass-1");
    await database.db.transaction().execute((trx) => endSessions(trx, userId, new Date(), "password-changed"));
    figures.sessionsEnded += 2;
    for (const s of [a, b]) {
      expect(await sessionRow(claims(s.access).sid)).toMatchObject({ ended_reason: "password-changed" });
      expect(await profileStatus(s.access)).toBe(401);
      expect(await refreshStatus(app, s.refresh)).toBe(400);
    }
  });
});
