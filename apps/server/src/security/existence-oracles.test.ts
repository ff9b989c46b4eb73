import { randomBytes, randomUUID } from "node:crypto";
import {
  type AccessObject,
  type AccessRef,
  CONTROL_DEVICE_COMMANDS,
  deviceFlowStatisticsCsv,
  type Endpoint,
  endpoints,
} from "@aquapilot/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMember, familyWithDevices, signUpUser, type TestFamily, type TestUser } from "../../test/api-factories.ts";
import { type Answer, call, okResult } from "../../test/call.ts";
import { createTestApp, type TestApp } from "../../test/helpers.ts";
import { provisionDevice } from "../modules/devices/provision.ts";

/**
 * No existence oracles (docs/security.md "No existence oracles"): for every call that takes the id or MAC of an
 * object, a signed-in stranger naming another household's object (or another user's own object, or a device bound to
 * no household) gets exactly the answer an id that nothing has gets — the same status, error code, message (so the
 * same message key) and body — so no id or MAC can be probed for existence. The calls are every endpoint of the
 * contract that declares an object rule, plus the ids some calls take besides it (written out below); the expected
 * answer is the rule's own: 404 NotFound, identical for the known and the unknown id.
 */

/** One fresh value of a required field that is not the probed id, by field name (valid for the contract). */
const SAMPLES: Record<string, () => unknown> = {
  avatar: () => "/family-avatars/1.svg",
  name: () => "Renamed",
  image: () => "/files/a.png",
  command: () => CONTROL_DEVICE_COMMANDS[0],
  deviceIds: () => [randomUUID()],
  levelKg: () => 10,
  days: () => 7,
  reportTimeType: () => 1,
  description: () => "The softener beeps.",
  from: () => "2026-01-01",
  to: () => "2026-01-02",
  code: () => "0A0B0C0D0E0F:pairing-secret",
  address: () => "Bund 2",
  longitude: () => 121.5,
  latitude: () => 31.2,
  familyUserId: () => randomUUID(),
};

/** Every endpoint of the contract, with the streamed CSV export kept outside `endpoints`. */
const ALL: Readonly<Record<string, Endpoint>> = { ...(endpoints as Record<string, Endpoint>), deviceFlowStatisticsCsv };

type Part = "query" | "body" | "params";

/** A valid request of `ep` naming `id` in `ref` (`list`: as a one-id array), every other required field sampled. */
function requestOf(ep: Endpoint, ref: AccessRef, id: string, list = false) {
  const parts: Record<Part, Record<string, unknown>> = { query: {}, body: {}, params: {} };
  const [where, field] = ref.split(".") as [Part, string];
  parts[where][field] = list ? [id] : id;
  const schemas = { query: ep.query, body: ep.body, params: ep.params } as const;
  for (const part of ["query", "body", "params"] as const) {
    const schema = schemas[part];
    if (!schema || !("shape" in schema)) continue;
    const shape = (schema as { shape: Record<string, { safeParse(v: unknown): { success: boolean } }> }).shape;
    for (const [key, value] of Object.entries(shape)) {
      if (key in parts[part] || value.safeParse(undefined).success) continue;
      const sample = SAMPLES[key];
      if (!sample) throw new Error(`no sample for required field ${part}.${key}: add it to SAMPLES`);
      parts[part][key] = sample();
    }
  }
  return {
    query: parts.query,
    body: ep.body ? parts.body : undefined,
    params: Object.fromEntries(Object.entries(parts.params).map(([k, v]) => [k, String(v)])),
  };
}

/**
 * What a refusal shows the caller: status, content type, and the body with any request or trace id left out (they
 * differ per request by design and name nothing).
 */
function seen(res: Answer<unknown>) {
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip);
    if (value && typeof value === "object") {
      return Object.fromEntries(
        Object.entries(value)
          .filter(([k]) => !/^(request|trace|correlation)_?id$/i.test(k))
          .map(([k, v]) => [k, strip(v)]),
      );
    }
    return value;
  };
  return {
    status: res.status,
    contentType: res.headers["content-type"],
    body: res.body === undefined ? res.text : strip(res.body),
  };
}

/** The probed objects of one kind: another household's (or user's) and, for devices, one bound to no household. */
interface Hidden {
  foreign: string;
  unbound?: string;
}

/**
 * Calls that take an object id without an object rule of the contract (their service checks it): where the id goes.
 */
const UNDECLARED: Readonly<Record<string, { object: AccessObject; in: AccessRef; list?: true }>> = {
  setMessageRead: { object: "message", in: "body.ids", list: true },
};

describe("no existence oracles: another household's object answers exactly as an unknown id (docs/security.md)", () => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;
  let home: TestFamily;
  let own: TestFamily;
  let memberRowId: string;
  let memberUserId: string;
  const hidden: Partial<Record<AccessObject, Hidden>> = {};

  /** An id nothing has, of the form `object` takes. */
  const unknownOf = (object: AccessObject) =>
    object === "deviceMac"
      ? randomUUID().replace(/-/g, "").slice(0, 12).toUpperCase()
      : object === "setupTicket"
        ? randomBytes(16).toString("base64url")
        : randomUUID();

  beforeAll(async () => {
    t = await createTestApp();
    owner = await signUpUser(t.app);
    stranger = await signUpUser(t.app);
    home = await familyWithDevices(t, owner, 1, { name: "Owner-Household-5c1e" });
    own = await familyWithDevices(t, stranger, 1, { name: "Stranger-Household" });
    const member = await signUpUser(t.app);
    await addMember(t, home, member);
    memberUserId = member.userId;
    const row = await t.db
      .selectFrom("family_members")
      .select("id")
      .where("family_id", "=", home.id)
      .where("user_id", "=", member.userId)
      .executeTakeFirstOrThrow();
    memberRowId = row.id;
    const spareMac = randomUUID().replace(/-/g, "").slice(0, 12).toUpperCase();
    const spare = await provisionDevice(t.db, { mac: spareMac, secret: "spare-secret", name: "Spare" });
    const commandId = randomUUID();
    const now = new Date().toISOString();
    await t.db
      .insertInto("device_commands")
      .values({
        id: commandId,
        device_id: home.devices[0]!.id,
        user_id: owner.userId,
        name: "query",
        params_json: "{}",
        status: "done",
        error: null,
        created_at: now,
        acked_at: now,
      })
      .execute();
    await okResult(call(t, endpoints.getShareCode, { as: owner, query: { familyId: home.id } }));
    const share = await t.db
      .selectFrom("family_share_codes")
      .select("id")
      .where("family_id", "=", home.id)
      .executeTakeFirstOrThrow();
    const message = await okResult(call(t, endpoints.testSendMessage, { as: owner }));
    const afterSale = await okResult(
      call(t, endpoints.createAfterSale, {
        as: owner,
        body: { deviceId: home.devices[0]!.id, description: "Beeps at night." },
      }),
    );
    const setupTicket = await okResult(
      call(t, endpoints.createSetupTicket, { as: owner, body: { familyId: home.id } }),
    );
    Object.assign(hidden, {
      family: { foreign: home.id },
      device: { foreign: home.devices[0]!.id, unbound: spare.id },
      deviceMac: { foreign: home.devices[0]!.mac, unbound: spareMac },
      familyMember: { foreign: memberRowId },
      command: { foreign: commandId },
      shareCode: { foreign: share.id },
      message: { foreign: message.id },
      afterSale: { foreign: afterSale.id },
      setupTicket: { foreign: setupTicket.ticket },
    } satisfies Record<AccessObject, Hidden>);
  });
  afterAll(() => t.close());

  const probed = Object.entries(ALL)
    .map(([name, ep]) => {
      const rule = ep.access.object;
      const target = rule ? { object: rule.object, in: rule.in, list: undefined } : UNDECLARED[name];
      return target ? { name, ep, target } : null;
    })
    .filter((p) => p !== null);

  it("probes every call that declares an object rule", () => {
    const declared = Object.keys(ALL).filter((name) => ALL[name]!.access.object);
    expect(declared.length).toBeGreaterThan(40);
    expect(probed.map((p) => p.name)).toEqual(expect.arrayContaining([...declared, ...Object.keys(UNDECLARED)]));
  });

  for (const { name, ep, target } of probed) {
    it(`${name} (${target.object} in ${target.in}): known-but-not-yours = unknown, 404 NotFound`, async () => {
      const send = (id: string) =>
        call(t, ep, { as: stranger, ...requestOf(ep, target.in, id, target.list === true) } as never);
      const objects = hidden[target.object]!;
      const unknown = await send(unknownOf(target.object));
      const where = `${name}: ${unknown.status} ${unknown.text.slice(0, 300)}`;
      expect(unknown.status, where).toBe(404);
      expect(unknown.body, where).toMatchObject({ success: false, result: null, error: { code: "NotFound" } });
      for (const id of [objects.foreign, objects.unbound].filter((v) => v !== undefined)) {
        const known = await send(id);
        expect(seen(known), `${name} with ${id}: ${known.text.slice(0, 300)}`).toEqual(seen(unknown));
        expect(known.text).not.toContain("Owner-Household-5c1e");
      }
    });
  }

  describe("ids a call takes besides its object rule", () => {
    it("transfer-administrator in the stranger's own household to another household's member: as an unknown one", async () => {
      const send = (q: { familyUserId?: string; userId?: string }) =>
        call(t, endpoints.transferAdministrator, { as: stranger, query: { familyId: own.id, ...q } });
      const byRow = await send({ familyUserId: memberRowId });
      const byRowUnknown = await send({ familyUserId: randomUUID() });
      expect(byRowUnknown.status).toBe(404);
      expect(seen(byRow)).toEqual(seen(byRowUnknown));
      const byUser = await send({ userId: memberUserId });
      const byUserUnknown = await send({ userId: randomUUID() });
      expect(byUserUnknown.status).toBe(404);
      expect(seen(byUser)).toEqual(seen(byUserUnknown));
    });

    it("update-device-sort of the stranger's own household naming another household's device: as an unknown id", async () => {
      const send = (other: string) =>
        call(t, endpoints.updateDeviceSort, {
          as: stranger,
          body: { familyId: own.id, deviceIds: [own.devices[0]!.id, other] },
        });
      const foreign = await send(home.devices[0]!.id);
      const unknown = await send(randomUUID());
      expect(unknown.status).toBe(400);
      expect(seen(foreign)).toEqual(seen(unknown));
    });

    it("binding another household's device by its MAC without its secret: as an unknown MAC", async () => {
      const send = (mac: string) =>
        call(t, endpoints.bindDevice, { as: stranger, body: { familyId: own.id, code: `${mac}:not-the-secret` } });
      const unknown = await send(unknownOf("deviceMac"));
      expect(unknown.status).toBe(400);
      for (const mac of [home.devices[0]!.mac, hidden.deviceMac!.unbound!]) {
        expect(seen(await send(mac))).toEqual(seen(unknown));
      }
      const still = await t.db
        .selectFrom("devices")
        .select("family_id")
        .where("id", "=", home.devices[0]!.id)
        .executeTakeFirstOrThrow();
      expect(still.family_id).toBe(home.id);
    });
  });
});
