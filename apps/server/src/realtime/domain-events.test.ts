import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { type Endpoint, endpoints, HUB_METHODS, HUB_PATHS, type TDomainEvent } from "@aquapilot/contract";
import { HttpTransportType, type HubConnection, HubConnectionBuilder, LogLevel } from "@microsoft/signalr";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADDRESS, familyWithDevices, signUpUser, type TestUser } from "../../test/api-factories.ts";
import { type CallOptions, call, nameOf } from "../../test/call.ts";
import { insertMember } from "../../test/factories.ts";
import { bearer, createTestApp, type TestApp } from "../../test/helpers.ts";
import { ROUTE_EVENTS } from "../http/route-events.ts";
import { provisionDevice } from "../modules/devices/provision.ts";
import { EXTERNAL_CALLBACK_HEADER, externalCallbackSecret } from "../modules/devices/routes.ts";
import { codeFor } from "../modules/profile/testing.ts";
import { accountHubAuth } from "./hub-auth.ts";
import { registerHubs } from "./hubs.ts";

/**
 * The domain-event matrix (docs/messages-push.md "Domain events"): every mutating call that declares an event
 * (http/route-events.ts) is made for real, and the event must reach, within 2 s, a hub-1 session opened with the
 * official @microsoft/signalr client by someone else who sees the change: another member of the household for a
 * household's or a device's change, the caller's own second session (another sign-in) for the caller's own data. A
 * stranger's session, connected throughout, must hear none of it. A declaration without a case here fails the
 * completeness check, so a new call cannot skip this matrix.
 */

/** The household each case runs on: fresh per case. */
interface Fixture {
  familyId: string;
  deviceId: string;
  mac: string;
  /** The family_members row of `extra` (for the removal). */
  extraFamilyUserId: string;
}

type Who = "admin" | "member" | "extra" | "joiner";

/** What a case sends; loose, since one table holds every endpoint. */
interface Request {
  as?: null;
  query?: Record<string, unknown>;
  body?: unknown;
  params?: Record<string, string>;
  headers?: Record<string, string>;
}

/** One row of the matrix. */
interface Case {
  /** Who calls. */
  as: Who;
  /**
   * Who must hear it: `member` (a session of another member of the household: the member, or the administrator when
   * the member calls) or `self` (the caller's second session, another sign-in).
   */
  heard: "member" | "self";
  /** The call's query, body, path values and headers (`as: null` for a call without a user). */
  request: (fx: Fixture, t: TestApp) => Promise<Request> | Request;
  /** What the event must say besides its cause. */
  expect: (fx: Fixture) => Partial<TDomainEvent>;
}

const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d4948445200000001000000010806000000" +
    "1f15c4890000000d49444154789c6300010000000500010d0a2db40000000049454e44ae426082",
  "hex",
);

function multipart(file: Buffer): { payload: Buffer; contentType: string } {
  const boundary = "----aquapilot-domain-events";
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="me.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, contentType: `multipart/form-data; boundary=${boundary}` };
}

const commandQuery = (fx: Fixture) => ({ query: { deviceId: fx.deviceId, commandId: randomUUID() } });
const onDevice = (kind: TDomainEvent["kind"]) => (fx: Fixture) => ({
  kind,
  familyId: fx.familyId,
  deviceId: fx.deviceId,
});
const onFamily = (kind: TDomainEvent["kind"]) => (fx: Fixture) => ({ kind, familyId: fx.familyId });
const own = (kind: TDomainEvent["kind"]) => () => ({ kind, familyId: null, deviceId: null });

let users: Record<Who, TestUser & { second: string }>;

/** A verification ticket and the code sent to the new address (spec §2 UpdatePhoneEmail). */
async function ticketAndCode(t: TestApp, who: TestUser, target: Record<string, string>, recipient: string) {
  const verified = await call(t.app, endpoints.updatePhoneOrEmailVerification, {
    as: who,
    query: { password: who.password },
  });
  const ticket = verified.result.ticket;
  const sent = await call(t.app, endpoints.sendUserIdentityVerification, { as: who, query: { ticket, ...target } });
  expect(sent.status, sent.text).toBe(200);
  return { ticket, code: await codeFor(t.app, recipient) };
}

const CASES: Record<string, Case> = {
  updateProfile: {
    as: "member",
    heard: "self",
    request: () => ({ body: { name: "Renamed" } }),
    expect: own("settings"),
  },
  uploadAvatar: {
    as: "member",
    heard: "self",
    request: () => {
      const { payload, contentType } = multipart(PNG);
      return { body: payload, headers: { "content-type": contentType } };
    },
    expect: own("settings"),
  },
  changeLanguageType: {
    as: "member",
    heard: "self",
    request: () => ({ body: { languageType: "fr" } }),
    expect: own("settings"),
  },
  updatePhone: {
    as: "admin",
    heard: "self",
    request: async (_fx, t) => {
      const phoneNumber = "612345678";
      const { ticket, code } = await ticketAndCode(
        t,
        users.admin,
        { phoneNumber, countryCode: "34" },
        `+34${phoneNumber}`,
      );
      return { query: { ticket, phoneNumber, countryCode: "+34", code } };
    },
    expect: own("settings"),
  },
  updateEmail: {
    as: "extra",
    heard: "self",
    request: async (_fx, t) => {
      const email = `moved-${randomUUID()}@events.test`;
      const { ticket, code } = await ticketAndCode(t, users.extra, { email }, email);
      return { query: { ticket, email, code } };
    },
    expect: own("settings"),
  },
  createFamily: {
    as: "admin",
    heard: "self",
    request: () => ({ body: { name: "Cabin", ...ADDRESS } }),
    expect: () => ({ kind: "family" }),
  },
  deleteFamily: {
    as: "admin",
    heard: "self",
    request: (fx) => ({ params: { id: fx.familyId } }),
    expect: onFamily("family"),
  },
  withdrawFromFamily: {
    as: "extra",
    heard: "member",
    request: (fx) => ({ query: { familyId: fx.familyId } }),
    expect: (fx) => ({ kind: "member", familyId: fx.familyId, userId: users.extra.userId }),
  },
  updateFamilyAvatar: {
    as: "admin",
    heard: "member",
    request: async (fx, t) => ({ query: { familyId: fx.familyId, avatar: await uploaded(t) } }),
    expect: onFamily("family"),
  },
  updateFamilyName: {
    as: "admin",
    heard: "member",
    request: (fx) => ({ query: { familyId: fx.familyId, name: "Lake house" } }),
    expect: onFamily("family"),
  },
  updateFamilyAddress: {
    as: "admin",
    heard: "member",
    request: (fx) => ({ query: { familyId: fx.familyId, ...ADDRESS, address: "Nanjing Road" } }),
    expect: onFamily("family"),
  },
  removeFamilyUser: {
    as: "admin",
    heard: "member",
    request: (fx) => ({ params: { id: fx.extraFamilyUserId } }),
    expect: onFamily("member"),
  },
  transferAdministrator: {
    as: "admin",
    heard: "member",
    request: (fx) => ({ query: { familyId: fx.familyId, userId: users.extra.userId } }),
    expect: (fx) => ({ kind: "member", familyId: fx.familyId, userId: users.extra.userId }),
  },
  analysisCode: {
    as: "joiner",
    heard: "member",
    request: async (fx, t) => {
      const share = await call(t.app, endpoints.getShareCode, { as: users.admin, query: { familyId: fx.familyId } });
      return { query: { code: share.result.code } };
    },
    expect: (fx) => ({ kind: "member", familyId: fx.familyId, userId: users.joiner.userId }),
  },
  revokeShareCode: {
    as: "admin",
    heard: "self",
    request: async (fx, t) => {
      await call(t.app, endpoints.getShareCode, { as: users.admin, query: { familyId: fx.familyId } });
      const row = await t.db
        .selectFrom("family_share_codes")
        .select("id")
        .where("family_id", "=", fx.familyId)
        .executeTakeFirstOrThrow();
      return { query: { id: row.id } };
    },
    expect: own("share-codes"),
  },
  bindDevice: {
    as: "admin",
    heard: "member",
    request: async (fx, t) => {
      const mac = randomUUID().replace(/-/g, "").slice(0, 12).toUpperCase();
      await provisionDevice(t.db, { mac, secret: "s", name: "New softener" });
      return { body: { familyId: fx.familyId, mac, secret: "s", name: "Garage" } };
    },
    expect: onFamily("family-devices"),
  },
  updateDeviceName: {
    as: "member",
    heard: "member",
    request: (fx) => ({ query: { deviceId: fx.deviceId, name: "Kitchen" } }),
    expect: onDevice("device"),
  },
  updateDeviceImage: {
    as: "admin",
    heard: "member",
    request: async (fx, t) => ({ query: { deviceId: fx.deviceId, image: await uploaded(t) } }),
    expect: onDevice("device"),
  },
  updateDeviceSort: {
    as: "admin",
    heard: "member",
    request: (fx) => ({ body: { familyId: fx.familyId, deviceIds: [fx.deviceId] } }),
    expect: onFamily("family-devices"),
  },
  deleteDevice: {
    as: "admin",
    heard: "member",
    request: (fx) => ({ query: { deviceId: fx.deviceId } }),
    expect: onDevice("family-devices"),
  },
  sendDeviceConfigChangeMessage: {
    as: "admin",
    heard: "member",
    request: (fx, t) => ({
      as: null,
      body: { mac: fx.mac, settings: { washTime: 12 }, ts: new Date().toISOString() },
      headers: { [EXTERNAL_CALLBACK_HEADER]: externalCallbackSecret(t.config) },
    }),
    expect: onDevice("device"),
  },
  forcedRegeneration: { as: "admin", heard: "member", request: commandQuery, expect: onDevice("device") },
  controlDevice: {
    as: "admin",
    heard: "member",
    request: (fx) => ({
      ...commandQuery(fx),
      body: { command: "set-config", params: { settings: { backWashTime: 12 } } },
    }),
    expect: onDevice("device"),
  },
  deviceOta: { as: "admin", heard: "member", request: commandQuery, expect: onDevice("device") },
  changeVacation: { as: "member", heard: "member", request: commandQuery, expect: onDevice("device") },
  exitVacation: { as: "admin", heard: "member", request: commandQuery, expect: onDevice("device") },
  resetSaltLevel: {
    as: "admin",
    heard: "member",
    request: (fx) => ({ query: { deviceId: fx.deviceId, levelKg: 10 } }),
    expect: onDevice("device"),
  },
  setSaltReminder: {
    as: "admin",
    heard: "member",
    request: (fx) => ({ query: { deviceId: fx.deviceId, days: 7 } }),
    expect: onDevice("device"),
  },
  reopenWater: {
    as: "admin",
    heard: "member",
    request: async (fx, t) => {
      await t.db.updateTable("device_state").set({ close_reason: 513 }).where("device_id", "=", fx.deviceId).execute();
      return commandQuery(fx);
    },
    expect: onDevice("device"),
  },
  setMessageRead: {
    as: "member",
    heard: "self",
    request: async (fx, t) => {
      const id = randomUUID();
      await t.db
        .insertInto("messages")
        .values({
          id,
          user_id: users.member.userId,
          type: 1,
          event: null,
          title: "Note",
          content: "Salt low",
          device_id: fx.deviceId,
          device_name: "Softener 1",
          family_id: fx.familyId,
          close_reason: null,
          source_key: `events:${id}`,
          is_read: 0,
          read_time: null,
          creation_time: new Date().toISOString(),
        })
        .execute();
      return { body: { ids: [id] } };
    },
    expect: own("message-read"),
  },
  setMessageAllRead: { as: "member", heard: "self", request: () => ({}), expect: own("message-read") },
  setPushSwitch: {
    as: "member",
    heard: "self",
    request: () => ({ query: { isOpen: "false" } }),
    expect: own("settings"),
  },
  createAfterSale: {
    as: "member",
    heard: "self",
    request: (fx) => ({ body: { deviceId: fx.deviceId, description: "The softener beeps." } }),
    expect: own("after-sale"),
  },
  updateAfterSale: {
    as: "member",
    heard: "self",
    request: async (fx, t) => ({
      params: { id: await afterSale(t, fx) },
      body: { description: "It beeps at night." },
    }),
    expect: own("after-sale"),
  },
  deleteAfterSale: {
    as: "member",
    heard: "self",
    request: async (fx, t) => ({ params: { id: await afterSale(t, fx) } }),
    expect: own("after-sale"),
  },
  setUnitPreferences: {
    as: "member",
    heard: "self",
    request: () => ({ body: { volumeUnit: "gal", hardnessUnit: "gpg" } }),
    expect: own("settings"),
  },
};

/** The path of a picture the administrator uploaded (POST /api/app/file/upload). */
async function uploaded(t: TestApp): Promise<string> {
  const { payload, contentType } = multipart(PNG);
  const up = await call(t.app, endpoints.uploadFile, {
    as: users.admin,
    body: payload,
    headers: { "content-type": contentType },
  });
  expect(up.status, up.text).toBe(200);
  return typeof up.result === "string" ? up.result : (up.result as { fileUrl: string }).fileUrl;
}

async function afterSale(t: TestApp, fx: Fixture): Promise<string> {
  const made = await call(t.app, endpoints.createAfterSale, {
    as: users.member,
    body: { deviceId: fx.deviceId, description: "The softener beeps." },
  });
  expect(made.status, made.text).toBe(200);
  return made.result.id;
}

describe("domain events: every mutating call reaches the others' open hub-1 sessions within 2 s", () => {
  let t: TestApp;
  let base: string;
  const connections: HubConnection[] = [];
  const strangerHeard: TDomainEvent[] = [];

  /** A hub-1 session of the official client; every DomainEvent it hears is pushed to the answered list. */
  async function listen(
    token: string,
    heard: TDomainEvent[] = [],
  ): Promise<{ heard: TDomainEvent[]; connection: HubConnection }> {
    const connection = new HubConnectionBuilder()
      .withUrl(`${base}${HUB_PATHS.deviceChange}`, {
        accessTokenFactory: () => token.replace(/^Bearer /, ""),
        transport: HttpTransportType.WebSockets,
      })
      .configureLogging(LogLevel.None)
      .build();
    connection.on(HUB_METHODS.domainEvent, (event: TDomainEvent) => heard.push(event));
    connections.push(connection);
    await connection.start();
    return { heard, connection };
  }

  beforeAll(async () => {
    t = await createTestApp({
      beforeReady: (app, bus) => {
        registerHubs(app, { bus, auth: accountHubAuth(app.auth, app.accessDb), logger: app.log });
      },
    });
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const made: Partial<typeof users> = {};
    for (const who of ["admin", "member", "extra", "joiner"] as const) {
      const user = await signUpUser(t.app, `${who}-${randomUUID()}@events.test`);
      made[who] = { ...user, second: await bearer(t.app, user.email, user.password) };
    }
    users = made as typeof users;
    const stranger = await signUpUser(t.app, `stranger-${randomUUID()}@events.test`);
    await listen(stranger.token, strangerHeard);
  });

  afterAll(async () => {
    await Promise.all(connections.map((c) => c.stop().catch(() => undefined)));
    await t?.close();
  });

  async function fixture(): Promise<Fixture> {
    const home = await familyWithDevices(t, users.admin, 1);
    const [device] = home.devices;
    await insertMember(t.db, home.id, users.member.userId, false);
    await insertMember(t.db, home.id, users.extra.userId, false);
    const extraRow = await t.db
      .selectFrom("family_members")
      .select("id")
      .where("family_id", "=", home.id)
      .where("user_id", "=", users.extra.userId)
      .executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    await t.db
      .updateTable("device_state")
      .set({ online: 1, close_reason: null, last_report_time: now, updated_at: now })
      .where("device_id", "=", device.id)
      .execute();
    return { familyId: home.id, deviceId: device.id, mac: device.mac, extraFamilyUserId: extraRow.id };
  }

  it("has one case for every call that declares an event, and every mutating call declares one or says why not", () => {
    const declaring = Object.entries(ROUTE_EVENTS)
      .filter(([, d]) => d && "publishes" in d)
      .map(([name]) => name);
    expect(Object.keys(CASES).sort()).toEqual(declaring.sort());
    const mutating = Object.entries(endpoints as Record<string, Endpoint>)
      .filter(([, e]) => e.method !== "GET")
      .map(([name]) => name);
    expect(Object.keys(ROUTE_EVENTS).sort()).toEqual(mutating.sort());
  });

  for (const [name, c] of Object.entries(CASES)) {
    const ep = (endpoints as Record<string, Endpoint>)[name];
    it(`${name} (${nameOf(ep)}) → heard by ${c.heard === "member" ? "another member" : "the caller's other session"}`, async () => {
      const fx = await fixture();
      const other = c.as === "member" ? users.admin : users.member;
      const watcher = await listen(c.heard === "member" ? other.second : users[c.as].second);
      const request = await c.request(fx, t);
      const started = Date.now();
      const res = await call(t.app, ep, { as: users[c.as], ...request } as CallOptions<Endpoint>);
      expect(res.status, res.text).toBe(200);
      await expect
        .poll(() => watcher.heard.find((e) => e.cause === name), {
          timeout: Math.max(1, 2_000 - (Date.now() - started)),
        })
        .toMatchObject({ cause: name, ...c.expect(fx) });
      await watcher.connection.stop();
    });
  }

  it("a stranger's session heard none of the households' events", () => {
    expect(strangerHeard.filter((e) => e.familyId !== null)).toEqual([]);
  });
});
