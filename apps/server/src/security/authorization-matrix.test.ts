import { randomUUID } from "node:crypto";
import { type Access, CONTROL_DEVICE_COMMANDS, type Endpoint, endpoints } from "@aquapilot/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createTestApp, registerByEmail, type TestApp } from "../../test/helpers.ts";

/**
 * The authorization matrix of spec §6, generated from the contract's declarations (authorization is declared in
 * one place): every call whose entry declares an object-level rule (`access.object`) × {anonymous, stranger, member,
 * administrator}. The expected outcome is read from the declaration, never written per call:
 * - anonymous → 401;
 * - a `member` rule (household, device, command): stranger 403, member and administrator allowed;
 * - an `admin` rule: stranger and member 403, administrator allowed;
 * - an `owner` rule (share code, message, after-sales request, all the administrator's here): anyone else 404.
 * "Allowed" means past authorization: any status but 401, 403 and 404 (a command to the offline device answers 409,
 * the administrator leaving answers 409 — domain rules, not access). A refusal carries no data: result null and none
 * of the household's names in the body. A declared rule the server did not enforce, or enforced differently, fails
 * here; so does a sample missing for a new required field (add it to SAMPLES).
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
}

/** Valid values of the required fields that are not the rule's own reference, by field name. */
const SAMPLES: Record<string, (fx: Fixture) => unknown> = {
  avatar: () => "/files/a.png",
  name: () => "Renamed",
  image: () => "/files/a.png",
  command: () => CONTROL_DEVICE_COMMANDS[0],
  deviceIds: (fx) => [fx.deviceId],
  levelKg: () => 10,
  days: () => 7,
  reportTimeType: () => 1,
  description: () => "The softener beeps.",
};

/** The id the rule's object kind points at in the fixture. */
function objectId(fx: Fixture, object: NonNullable<Access["object"]>["object"]): string {
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
  }
}

/** The status a role must get, read from the declaration: a number, or "allowed" (past authorization). */
function expectedOutcome(role: Role, access: Access): number | "allowed" {
  if (role === "anonymous") return access.caller === "open" ? "allowed" : 401;
  const rule = access.object;
  if (!rule) return "allowed";
  if (rule.role === "owner") return role === "admin" ? "allowed" : 404;
  if (role === "stranger") return 403;
  if (rule.role === "admin") return role === "admin" ? "allowed" : 403;
  return "allowed";
}

/** A valid request of `ep` touching the fixture's object: the rule's field, then every other required field. */
function requestFor(ep: Endpoint, fx: Fixture) {
  const rule = ep.access.object!;
  const parts: Record<"query" | "body" | "params", Record<string, unknown>> = { query: {}, body: {}, params: {} };
  const [where, field] = rule.in.split(".") as ["query" | "body" | "params", string];
  parts[where][field] = objectId(fx, rule.object);
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

const RULED = Object.entries(endpoints as Record<string, Endpoint>).filter(([, e]) => e.access.object);

describe("authorization matrix of every call with an object rule (spec §6, from the contract's declarations)", () => {
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
    };
  }

  it("covers every household, device, message and after-sales call that names an object", () => {
    // The calls of spec §6's matrix: households, members, share codes, devices and their commands, messages, requests.
    expect(RULED.length).toBeGreaterThanOrEqual(45);
    const kinds = new Set(RULED.map(([, e]) => e.access.object!.object));
    expect([...kinds].sort()).toEqual(
      ["afterSale", "command", "device", "deviceMac", "family", "familyMember", "message", "shareCode"].sort(),
    );
  });

  for (const [name, ep] of RULED) {
    for (const role of ROLES) {
      const outcome = expectedOutcome(role, ep.access);
      it(`${ep.method} ${ep.path} as ${role} → ${outcome}`, async () => {
        const fx = await fixture();
        const req = requestFor(ep, fx);
        const res = await t.app.inject({
          method: ep.method,
          url: req.url,
          query: req.query,
          ...(req.body ? { payload: req.body } : {}),
          headers: { ...(role === "anonymous" ? {} : { authorization: tokens[role]! }), "accept-language": "en" },
        });
        const secrets = [fx.familyName, fx.deviceName, userNames.member!, userNames.admin!];
        if (outcome === "allowed") {
          expect([401, 403, 404], `${name} as ${role}: ${res.body}`).not.toContain(res.statusCode);
          return;
        }
        expect(res.statusCode, `${name} as ${role}: ${res.body}`).toBe(outcome);
        expect(res.json()).toMatchObject({ success: false, result: null, unAuthorizedRequest: outcome === 401 });
        for (const s of secrets) expect(res.body).not.toContain(s);
      });
    }
  }
});
