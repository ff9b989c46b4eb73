import { createHash, randomBytes, randomUUID } from "node:crypto";
import {
  type AccessObject,
  type AccessRef,
  abpEnvelope,
  CONTROL_DEVICE_COMMANDS,
  deviceFlowStatisticsCsv,
  type Endpoint,
  endpoints,
} from "@aquapilot/contract";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { bearer, createTestApp, registerByEmail, type TestApp } from "../../test/helpers.ts";
import { provisionDevice } from "../modules/devices/provision.ts";
import {
  AUTHORIZATION_EXPECTATIONS,
  type ExpectationRow,
  type Expected,
  GATED_BY,
  NON_MASTER_GRANTS,
} from "./authorization-expectations.ts";

/**
 * The permission the grants withhold from every caller, or null (the product's grants, unchanged). The product's own
 * grants (auth/policies.ts, spec §6) give every signed-in user every permission but "master", and no endpoint needs
 * "master": no real user lacks exactly one permission that gates an endpoint. The cases of a caller short of one
 * permission therefore take the product's grants and withhold that one, in both places that read them (the route
 * check and the grantedPolicies of application-configuration), so the caller is what the spec describes.
 */
const grants = vi.hoisted(() => ({ withheld: null as string | null }));
vi.mock("../auth/policies.ts", async (importOriginal) => {
  const real = await importOriginal<typeof import("../auth/policies.ts")>();
  return {
    ...real,
    grantedPoliciesFor: (user: Parameters<typeof real.grantedPoliciesFor>[0]) => {
      const granted = { ...real.grantedPoliciesFor(user) };
      if (grants.withheld) delete granted[grants.withheld];
      return granted;
    },
    holdsPermission: (user: Parameters<typeof real.holdsPermission>[0], name: string) =>
      name !== grants.withheld && real.holdsPermission(user, name),
  };
});

/**
 * The authorization matrix of spec §6: every call that acts on a household's or a user's object × {anonymous,
 * stranger, member, administrator}, checked against authorization-expectations.ts, a table written from the spec and
 * not from the contract's `access` declarations (a wrong declaration would otherwise pass). The declarations only say
 * where the object's id goes in the request. Checked here as well: every call that declares an object rule has a row,
 * and every row names a call that exists, by its method and path.
 * - "ok": a 2xx answer whose ABP envelope says `success: true` with a result of the call's declared shape (the CSV
 *   export: 200 `text/csv`); a 500, or any refusal, fails.
 * - a refusal (401, 403, 404) carries no data: result null and none of the household's names in the body; a 404 says
 *   NotFound and a 403 Forbidden (a stranger's 404 is the unknown id's: existence-oracles.test.ts compares the two).
 * - a named domain outcome (the administrator leaving answers 409 Conflict): that exact status and error code.
 * A sample missing for a new required field fails too (add it to SAMPLES).
 * Also here: a caller who holds every permission of spec §6 but one is refused (403) each call that permission gates,
 * by a hand-written table (GATED_BY), and gets the call's table outcome once only another permission is missing.
 */

type Role = "anonymous" | "stranger" | "member" | "admin";
const ROLES: Role[] = ["anonymous", "stranger", "member", "admin"];

/** One fresh household per case: administrator and member, a bound device and the administrator's own objects. */
interface Fixture {
  familyId: string;
  familyName: string;
  deviceId: string;
  deviceName: string;
  mac: string;
  memberFamilyUserId: string;
  shareId: string;
  messageId: string;
  afterSaleId: string;
  commandId: string;
  /** A setup ticket the administrator created for the household (the ticket itself, the call's id). */
  setupTicket: string;
}

/** Valid values of the required fields that are not the rule's own reference, by field name. */
const SAMPLES: Record<string, (fx: Fixture) => unknown> = {
  avatar: () => "/family-avatars/1.svg",
  name: () => "Renamed",
  image: () => "/files/a.png",
  command: () => CONTROL_DEVICE_COMMANDS[0],
  deviceIds: (fx) => [fx.deviceId],
  levelKg: () => 10,
  days: () => 7,
  reportTimeType: () => 1,
  description: () => "The softener beeps.",
  from: () => "2026-01-01",
  to: () => "2026-01-02",
};

/** The id the rule's object kind points at in the fixture. */
function objectId(fx: Fixture, object: AccessObject): string {
  switch (object) {
    case "family":
      return fx.familyId;
    case "device":
      return fx.deviceId;
    case "deviceMac":
      return fx.mac;
    case "familyMember":
      return fx.memberFamilyUserId;
    case "command":
      return fx.commandId;
    case "shareCode":
      return fx.shareId;
    case "message":
      return fx.messageId;
    case "afterSale":
      return fx.afterSaleId;
    case "setupTicket":
      return fx.setupTicket;
  }
}

/** Every endpoint of the contract, with the streamed CSV export that is kept outside `endpoints`. */
const ALL: Readonly<Record<string, Endpoint>> = { ...(endpoints as Record<string, Endpoint>), deviceFlowStatisticsCsv };

/** Where the object's id goes in a request: the field and the kind of object (`list`: an array of ids). */
interface Target {
  object: AccessObject;
  in: AccessRef;
  list?: true;
}

/**
 * Calls that act on an object without declaring an object rule (their service checks it), with where the id goes:
 * set-message-read refuses the whole batch when an id is not the caller's message.
 */
const UNDECLARED_TARGETS: Readonly<Record<string, Target>> = {
  setMessageRead: { object: "message", in: "body.ids", list: true },
};

/** Where the object's id goes for `name`: its declared rule, else its entry in {@link UNDECLARED_TARGETS}. */
function targetOf(name: string): Target | undefined {
  const rule = ALL[name]?.access.object;
  return rule ? { object: rule.object, in: rule.in } : UNDECLARED_TARGETS[name];
}

/** Optional fields a call needs to succeed for the administrator, by endpoint name (the rest come from SAMPLES). */
const EXTRA_FIELDS: Record<
  string,
  (fx: Fixture, t: TestApp) => Promise<Partial<Record<Part, Record<string, unknown>>>>
> = {
  // A provisioned, unbound device and its pairing code MAC:SECRET.
  bindDevice: async (_fx, t) => {
    const mac = randomUUID().replace(/-/g, "").slice(0, 12).toUpperCase();
    await provisionDevice(t.db, { mac, secret: "pairing-secret", name: "Spare" });
    return { body: { code: `${mac}:pairing-secret` } };
  },
  transferAdministrator: async (fx) => ({ query: { familyUserId: fx.memberFamilyUserId } }),
  // An address change carries address, longitude and latitude (spec §5).
  updateFamilyAddress: async () => ({ query: { address: "Bund 2", longitude: 121.5, latitude: 31.2 } }),
  // A device image is one of its model's pictures: the device gets a model of the seeded catalogue.
  updateDeviceImage: async (fx, t) => {
    const model = await t.db
      .selectFrom("device_models")
      .select(["model", "main_image"])
      .where("main_image", "is not", null)
      .executeTakeFirstOrThrow();
    await t.db.updateTable("devices").set({ model: model.model }).where("id", "=", fx.deviceId).execute();
    return { query: { image: model.main_image } };
  },
};

type Part = "query" | "body" | "params";

/**
 * A valid request of `name` touching the fixture's object: the target field (none for a call that acts on no one
 * object), the extras, every other required field.
 */
async function requestFor(name: string, ep: Endpoint, fx: Fixture, t: TestApp) {
  const target = targetOf(name);
  const parts: Record<Part, Record<string, unknown>> = { query: {}, body: {}, params: {} };
  if (target) {
    const [where, field] = target.in.split(".") as [Part, string];
    const id = objectId(fx, target.object);
    parts[where][field] = target.list ? [id] : id;
  }
  const extra = await EXTRA_FIELDS[name]?.(fx, t);
  for (const part of ["query", "body", "params"] as const) Object.assign(parts[part], extra?.[part]);
  const schemas = { query: ep.query, body: ep.body, params: ep.params } as const;
  for (const part of ["query", "body", "params"] as const) {
    const schema = schemas[part];
    if (!schema || !("shape" in schema)) continue;
    for (const [key, value] of Object.entries(
      (schema as { shape: Record<string, { safeParse(v: unknown): { success: boolean } }> }).shape,
    )) {
      if (key in parts[part] || value.safeParse(undefined).success) continue;
      const sample = SAMPLES[key];
      if (!sample) throw new Error(`no sample for required field ${part}.${key}: add it to SAMPLES`);
      parts[part][key] = sample(fx);
    }
  }
  let url = ep.path;
  for (const [k, v] of Object.entries(parts.params)) url = url.replace(`{${k}}`, encodeURIComponent(String(v)));
  const query = Object.fromEntries(Object.entries(parts.query).map(([k, v]) => [k, String(v)]));
  return { url, query, body: ep.body ? parts.body : undefined };
}

/** What went wrong with an "ok" answer of `ep`, or null: a 2xx, success envelope, result of the declared shape. */
function okProblem(
  ep: Endpoint,
  res: { statusCode: number; headers: Record<string, unknown>; body: string },
): string | null {
  if (res.statusCode < 200 || res.statusCode > 299) return `status ${res.statusCode}, not 2xx`;
  if (ep === deviceFlowStatisticsCsv) {
    return String(res.headers["content-type"]).startsWith("text/csv") ? null : "not text/csv";
  }
  const envelope = abpEnvelope(ep.result).safeParse(JSON.parse(res.body));
  if (!envelope.success) return `not the envelope of the declared result: ${envelope.error.message}`;
  if (!envelope.data.success || envelope.data.error !== null) return "success is not true";
  const result = ep.result.safeParse(envelope.data.result);
  return result.success ? null : `result not of the declared shape: ${result.error.message}`;
}

/** How an expectation reads in a test name. */
function describeExpected(e: Expected): string {
  return typeof e === "object" ? `${e.status} ${e.code}` : String(e);
}

const ROWS = Object.entries(AUTHORIZATION_EXPECTATIONS) as [string, ExpectationRow][];

describe("authorization matrix of every call that acts on an object (spec §6, from a table written from the spec)", () => {
  let t: TestApp;
  const tokens: Partial<Record<Role, string>> = {};
  const userIds: Partial<Record<Role, string>> = {};
  const userNames: Partial<Record<Role, string>> = {};

  beforeAll(async () => {
    t = await createTestApp();
    for (const role of ["stranger", "member", "admin"] as const) {
      const email = `${role}@matrix.test`;
      userIds[role] = await registerByEmail(t.app, email, "pass-word-1");
      tokens[role] = await bearer(t.app, email, "pass-word-1");
      const row = await t.db
        .selectFrom("users")
        .select("user_name")
        .where("id", "=", userIds[role]!)
        .executeTakeFirstOrThrow();
      userNames[role] = row.user_name;
    }
  });
  afterAll(() => t.close());

  async function fixture(): Promise<Fixture> {
    const now = new Date().toISOString();
    const familyId = randomUUID();
    const familyName = `Household-${randomUUID().slice(0, 8)}`;
    const deviceId = randomUUID();
    const deviceName = `Softener-${randomUUID().slice(0, 8)}`;
    const mac = randomUUID().replace(/-/g, "").slice(0, 12).toUpperCase();
    const memberFamilyUserId = randomUUID();
    const admin = userIds.admin!;
    await t.db
      .insertInto("families")
      .values({
        id: familyId,
        name: familyName,
        address: "Bund",
        longitude: 121.49,
        latitude: 31.23,
        avatar: null,
        creator_id: admin,
        creation_time: now,
      })
      .execute();
    await t.db
      .insertInto("family_members")
      .values([
        { id: randomUUID(), family_id: familyId, user_id: admin, is_admin: 1, creation_time: now },
        { id: memberFamilyUserId, family_id: familyId, user_id: userIds.member!, is_admin: 0, creation_time: now },
      ])
      .execute();
    await t.db
      .insertInto("devices")
      .values({
        id: deviceId,
        mac,
        secret_hash: "x",
        name: deviceName,
        family_id: familyId,
        sort: 0,
        creation_time: now,
      })
      .execute();
    const commandId = randomUUID();
    await t.db
      .insertInto("device_commands")
      .values({
        id: commandId,
        device_id: deviceId,
        user_id: admin,
        name: "query",
        params_json: "{}",
        status: "done",
        error: null,
        created_at: now,
        acked_at: now,
      })
      .execute();
    const messageId = randomUUID();
    await t.db
      .insertInto("messages")
      .values({
        id: messageId,
        user_id: admin,
        type: 1,
        event: null,
        title: "Note",
        content: "Salt low",
        device_id: deviceId,
        device_name: deviceName,
        family_id: familyId,
        close_reason: null,
        source_key: `matrix:${messageId}`,
        is_read: 0,
        read_time: null,
        creation_time: now,
      })
      .execute();
    const as = (url: string, method: "GET" | "POST", payload?: object, query?: Record<string, string>) =>
      t.app.inject({ method, url, query, ...(payload ? { payload } : {}), headers: { authorization: tokens.admin! } });
    const share = await as(endpoints.getShareCode.path, "GET", undefined, { familyId });
    expect(share.statusCode, share.body).toBe(200);
    const shareRow = await t.db
      .selectFrom("family_share_codes")
      .select("id")
      .where("family_id", "=", familyId)
      .executeTakeFirstOrThrow();
    const afterSale = await as(endpoints.createAfterSale.path, "POST", { deviceId, description: "Beeps at night." });
    expect(afterSale.statusCode, afterSale.body).toBe(200);
    // Stored as the create call stores it (its per-user limit would refuse one create per case).
    const setupTicket = randomBytes(16).toString("base64url");
    await t.db
      .insertInto("setup_tickets")
      .values({
        id: randomUUID(),
        ticket_hash: createHash("sha256").update(setupTicket).digest("hex"),
        family_id: familyId,
        created_by: admin,
        created_at: now,
        expires_at: new Date(Date.now() + 10 * 60_000).toISOString(),
        device_id: null,
        activated_at: null,
      })
      .execute();
    return {
      familyId,
      familyName,
      deviceId,
      deviceName,
      mac,
      memberFamilyUserId,
      shareId: shareRow.id,
      messageId,
      afterSaleId: afterSale.json().result.id,
      commandId,
      setupTicket,
    };
  }

  it("has a row for every call that declares an object rule, and every row names an existing call", () => {
    const declared = Object.keys(ALL).filter((name) => ALL[name]!.access.object);
    const missing = declared.filter((name) => !(name in AUTHORIZATION_EXPECTATIONS));
    expect(missing, "calls with an object rule but no row in authorization-expectations.ts").toEqual([]);
    for (const [name, row] of ROWS) {
      const ep = ALL[name];
      expect(ep, `row ${name} names no endpoint of the contract`).toBeDefined();
      expect(`${ep!.method} ${ep!.path}`, `row ${name}`).toBe(row.call);
      expect(targetOf(name), `row ${name}: no object rule and no entry in UNDECLARED_TARGETS`).toBeDefined();
      // A call without an object rule is an exception the table names, with its reason; a declared one is not.
      const declaresRule = ep?.access.object !== undefined;
      if (declaresRule) expect(row.exception, `row ${name} declares a rule: no exception`).toBeUndefined();
      else expect(row.exception?.trim(), `row ${name} declares no rule: say why in "exception"`).toBeTruthy();
    }
  });

  for (const [name, row] of ROWS) {
    const ep = ALL[name];
    if (!ep || !targetOf(name)) continue; // reported by the coverage test above
    for (const role of ROLES) {
      const expected = row[role];
      it(`${row.call} as ${role} → ${describeExpected(expected)} (${row.why})`, async () => {
        const fx = await fixture();
        const req = await requestFor(name, ep, fx, t);
        const res = await t.app.inject({
          method: ep.method,
          url: req.url,
          query: req.query,
          ...(req.body ? { payload: req.body } : {}),
          headers: { ...(role === "anonymous" ? {} : { authorization: tokens[role]! }), "accept-language": "en" },
        });
        const where = `${name} as ${role}: ${res.statusCode} ${res.body.slice(0, 400)}`;
        if (expected === "ok") {
          expect(okProblem(ep, res), where).toBeNull();
          return;
        }
        if (typeof expected === "object") {
          expect(res.statusCode, where).toBe(expected.status);
          expect(res.json(), where).toMatchObject({ success: false, error: { code: expected.code } });
          return;
        }
        expect(res.statusCode, where).toBe(expected);
        expect(res.json()).toMatchObject({ success: false, result: null, unAuthorizedRequest: expected === 401 });
        if (expected !== 401) {
          expect(res.json().error.code, where).toBe(expected === 404 ? "NotFound" : "Forbidden");
        }
        const secrets = [fx.familyName, fx.deviceName, userNames.member!, userNames.admin!];
        for (const s of secrets) expect(res.body).not.toContain(s);
      });
    }
  }

  describe("a caller who holds every permission but one is refused each call that permission gates (spec §6)", () => {
    afterEach(() => {
      grants.withheld = null;
    });

    /** The caller the table lets make `name` (the member, else the administrator): the one a permission can stop. */
    const allowedRole = (name: string): "member" | "admin" => {
      const row = AUTHORIZATION_EXPECTATIONS[name];
      if (!row) return "member";
      return [401, 403, 404].includes(row.member as number) ? "admin" : "member";
    };

    /**
     * Sends `name`'s valid request on a fresh fixture (built with every grant) as `role`, whose grants lack
     * `withheld`; answers the response and the fixture.
     */
    const send = async (name: string, role: "member" | "admin", withheld: string) => {
      const ep = ALL[name]!;
      const fx = await fixture();
      const req = await requestFor(name, ep, fx, t);
      grants.withheld = withheld;
      const res = await t.app.inject({
        method: ep.method,
        url: req.url,
        query: req.query,
        ...(req.body ? { payload: req.body } : {}),
        headers: { authorization: tokens[role]!, "accept-language": "en" },
      });
      return { ep, fx, res };
    };

    it("every call that names a permission is in the hand-written table under that permission", () => {
      const declared = Object.entries(ALL)
        .filter(([, ep]) => ep.access.caller !== "open" && ep.access.caller !== "signedIn")
        .map(([name, ep]) => `${ep.access.caller} ${name}`)
        .sort();
      const written = Object.entries(GATED_BY)
        .flatMap(([permission, names]) => names.map((name) => `${permission} ${name}`))
        .sort();
      expect(declared).toEqual(written);
    });

    for (const [permission, names] of Object.entries(GATED_BY)) {
      it(`without ${permission} the caller's grantedPolicies are every other permission`, async () => {
        grants.withheld = permission;
        const res = await t.app.inject({
          method: "GET",
          url: endpoints.applicationConfiguration.path,
          headers: { authorization: tokens.member! },
        });
        expect(res.statusCode).toBe(200);
        const granted = Object.keys(res.json().result.auth.grantedPolicies).sort();
        expect(granted).toEqual(NON_MASTER_GRANTS.filter((p) => p !== permission).sort());
      });

      for (const name of names) {
        const role = allowedRole(name);
        it(`${name} as ${role} without ${permission} → 403 Forbidden, and with it back → its table outcome`, async () => {
          const refused = await send(name, role, permission);
          const where = `${name} without ${permission}: ${refused.res.statusCode} ${refused.res.body.slice(0, 300)}`;
          expect(refused.res.statusCode, where).toBe(403);
          expect(refused.res.json(), where).toMatchObject({
            success: false,
            result: null,
            error: { code: "Forbidden" },
            unAuthorizedRequest: false,
          });
          for (const secret of [refused.fx.familyName, refused.fx.deviceName]) {
            expect(refused.res.body).not.toContain(secret);
          }

          // The same caller short of another permission only: the refusal was this permission's doing.
          grants.withheld = null;
          const allowed = await send(name, role, permission === "Message" ? "AfterSale" : "Message");
          const expected: Expected = AUTHORIZATION_EXPECTATIONS[name]?.[role] ?? "ok";
          const again = `${name} with ${permission}: ${allowed.res.statusCode} ${allowed.res.body.slice(0, 300)}`;
          if (expected === "ok") expect(okProblem(allowed.ep, allowed.res), again).toBeNull();
          else if (typeof expected === "object") {
            expect(allowed.res.statusCode, again).toBe(expected.status);
            expect(allowed.res.json(), again).toMatchObject({ error: { code: expected.code } });
          } else expect.unreachable(`${name}: the table refuses ${role} (${expected})`);
        });
      }
    }
  });
});
