import { createHash } from "node:crypto";
import {
  ACTIVATION_PATHS,
  endpoints,
  SETUP_TICKET_PATTERN,
  ZActivationBeginResult,
  ZActivationCompleteResult,
} from "@aquapilot/contract";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  familyWithDevices,
  joinWithShareCode,
  signUpOwner,
  signUpUser,
  type TestUser,
} from "../../../test/api-factories.ts";
import { call, describeEndpoint, okResult } from "../../../test/call.ts";
import { createTestApp, type TestApp } from "../../../test/helpers.ts";
import { provisionDevice } from "../devices/provision.ts";
import { SETUP_TICKET_LIMITS } from "./setup-ticket-routes.ts";

const SECRET = "factory-secret-of-a-softener-0001";
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * Setup tickets (docs/device-protocol.md §13.4 "Setup tickets"): the phone creates one, the module sends it with
 * activation step two, and the phone learns from the cloud which module it set up, with a pairing code to bind it.
 */
describeEndpoint(endpoints.getSetupTicket, "setup tickets from creation to binding", () => {
  let t: TestApp;
  let clock = new Date("2026-06-01T08:00:00.000Z");
  let owner: TestUser;
  let member: TestUser;
  let outsider: TestUser;
  let homeId: string;
  const MACS = ["02AB00000001", "02AB00000002", "02AB00000003", "02AB00000004"];
  let nextAddress = 1;

  const create = (as: TestUser, familyId = homeId) => call(t, endpoints.createSetupTicket, { as, body: { familyId } });
  const read = (as: TestUser, ticket: string) => call(t, endpoints.getSetupTicket, { as, params: { ticket } });

  /** Both activation steps of module `mac`, step two with `setupTicket` when given; answers step two's response. */
  async function activate(mac: string, setupTicket?: unknown) {
    const remoteAddress = `10.8.0.${nextAddress++}`;
    const begin = await t.app.inject({ method: "POST", url: ACTIVATION_PATHS.begin, payload: { mac }, remoteAddress });
    const { nonce } = ZActivationBeginResult.parse(begin.json());
    return t.app.inject({
      method: "POST",
      url: ACTIVATION_PATHS.complete,
      payload: { mac, nonce, secret: SECRET, ...(setupTicket === undefined ? {} : { setupTicket }) },
      remoteAddress,
    });
  }

  const ticketRow = (ticket: string) =>
    t.db.selectFrom("setup_tickets").selectAll().where("ticket_hash", "=", sha256(ticket)).executeTakeFirst();

  beforeAll(async () => {
    t = await createTestApp({ now: () => clock });
    owner = await signUpOwner(t.app, "owner@ticket.test");
    member = await signUpUser(t.app, "member@ticket.test");
    outsider = await signUpUser(t.app, "outsider@ticket.test");
    homeId = (await familyWithDevices(t, owner, 0, { name: "Home" })).id;
    await joinWithShareCode(t.app, homeId, owner, member);
    for (const mac of MACS) await provisionDevice(t.db, { mac, secret: SECRET, name: `S ${mac}`, model: "AQ-S25" });
  });
  afterAll(() => t.close());

  it("waits, then answers the module that activated with it and a pairing code that binds it once", async () => {
    const created = await okResult(create(owner));
    expect(created.ticket).toMatch(SETUP_TICKET_PATTERN);
    expect(Buffer.from(created.ticket, "base64url")).toHaveLength(16);
    expect(created.expiresAt).toBe(new Date(clock.getTime() + 10 * 60_000).toISOString());
    // Stored only as its hash.
    const stored = await ticketRow(created.ticket);
    expect(stored).toMatchObject({ family_id: homeId, created_by: owner.userId, device_id: null });
    expect(Object.values(stored ?? {})).not.toContain(created.ticket);

    expect(await okResult(read(owner, created.ticket))).toEqual({ state: "waiting", mac: null, pairingCode: null });

    const activated = await activate("02:ab:00:00:00:01", created.ticket);
    expect(activated.statusCode, activated.body).toBe(200);
    // The module still gets its own pairing code.
    expect(ZActivationCompleteResult.parse(activated.json()).pairingCode).toMatch(/^02AB00000001:/);

    const status = await okResult(read(owner, created.ticket));
    expect(status).toMatchObject({ state: "activated", mac: "02AB00000001" });
    const match = /^02AB00000001:([A-Za-z0-9_-]{22})$/.exec(status.pairingCode ?? "");
    expect(match).not.toBeNull();
    // Issued as activation issues one: stored hashed, single use, 10 minutes.
    const code = await t.db
      .selectFrom("device_activations")
      .selectAll()
      .where("token_hash", "=", sha256(match![1]))
      .executeTakeFirstOrThrow();
    expect(code).toMatchObject({ used_at: null, expires_at: new Date(clock.getTime() + 10 * 60_000).toISOString() });

    const bound = await call(t, endpoints.bindDevice, {
      as: owner,
      body: { familyId: homeId, code: status.pairingCode },
    });
    expect(bound.status, bound.text).toBe(200);
    expect(bound.result).toMatchObject({ familyId: homeId, mac: "02AB00000001" });
    const again = await call(t, endpoints.bindDevice, {
      as: owner,
      body: { familyId: homeId, code: status.pairingCode },
    });
    expect(again.status).toBe(400);
    expect(again.body.error).toMatchObject({ code: "InvalidCode" });
  });

  it("answers only its creator: another user, the household's member included, gets the unknown ticket's 404", async () => {
    const { ticket } = await okResult(create(owner));
    expect((await activate(MACS[1], ticket)).statusCode).toBe(200);
    const unknown = await read(outsider, "AAAAAAAAAAAAAAAAAAAAAA");
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ success: false, result: null, error: { code: "NotFound" } });
    for (const other of [outsider, member]) {
      const answer = await read(other, ticket);
      expect(answer.status).toBe(404);
      expect(answer.body.error).toEqual(unknown.body.error);
      expect(answer.text).not.toContain(MACS[1]);
    }
    // No pairing code was issued for them: the module's own is the device's only one.
    const codes = await t.db
      .selectFrom("device_activations")
      .innerJoin("devices", "devices.id", "device_activations.device_id")
      .select("device_activations.id")
      .where("devices.mac", "=", MACS[1])
      .execute();
    expect(codes).toHaveLength(1);
  });

  it("belongs to the first module that activates with it: a second MAC does not take it over", async () => {
    const { ticket } = await okResult(create(owner));
    expect((await activate(MACS[2], ticket)).statusCode).toBe(200);
    const second = await activate(MACS[3], ticket);
    // The second module still activates, unlinked.
    expect(second.statusCode).toBe(200);
    expect(ZActivationCompleteResult.parse(second.json()).pairingCode).toMatch(/^02AB00000004:/);
    expect(await okResult(read(owner, ticket))).toMatchObject({ state: "activated", mac: MACS[2] });
    const row = await ticketRow(ticket);
    const device = await t.db.selectFrom("devices").select("id").where("mac", "=", MACS[2]).executeTakeFirstOrThrow();
    expect(row?.device_id).toBe(device.id);
  });

  it("expires after 10 minutes, unused or used, and a module cannot take an expired ticket", async () => {
    const start = clock;
    try {
      const unused = await okResult(create(owner));
      const used = await okResult(create(owner));
      expect((await activate(MACS[3], used.ticket)).statusCode).toBe(200);
      clock = new Date(start.getTime() + 10 * 60_000 - 1);
      expect(await okResult(read(owner, unused.ticket))).toMatchObject({ state: "waiting" });
      clock = new Date(start.getTime() + 10 * 60_000);
      const expired = { state: "expired", mac: null, pairingCode: null };
      expect(await okResult(read(owner, unused.ticket))).toEqual(expired);
      expect(await okResult(read(owner, used.ticket))).toEqual(expired);
      // Activating with it after its expiry still activates the module, unlinked.
      const late = await activate(MACS[0], unused.ticket);
      expect(late.statusCode).toBe(200);
      expect((await ticketRow(unused.ticket))?.device_id).toBeNull();
    } finally {
      clock = start;
    }
  });

  it("an unknown well-formed ticket activates unlinked; a malformed one is 400 invalid-request", async () => {
    const unknown = await activate(MACS[0], "BBBBBBBBBBBBBBBBBBBBBB");
    expect(unknown.statusCode).toBe(200);
    expect(ZActivationCompleteResult.parse(unknown.json()).pairingCode).toMatch(/^02AB00000001:/);
    expect(
      await t.db
        .selectFrom("setup_tickets")
        .select("id")
        .where("ticket_hash", "=", sha256("BBBBBBBBBBBBBBBBBBBBBB"))
        .execute(),
    ).toEqual([]);
    for (const malformed of ["short", "B".repeat(23), "BBBBBBBBBBBBBBBBBBBBB=", "BBBBBBBBBBBBBBBBBBBBB+", 22, null]) {
      const res = await activate(MACS[0], malformed);
      expect(res.statusCode, String(malformed)).toBe(400);
      expect(res.json()).toEqual({ error: "invalid-request" });
    }
    // A malformed ticket in the path is refused before anything is looked up.
    expect((await read(owner, "not-a-ticket")).status).toBe(400);
  });

  it("only the household's administrator creates one (member 403, stranger 404), limited per user", async () => {
    const byMember = await create(member);
    expect(byMember.status).toBe(403);
    expect(byMember.body.error).toMatchObject({ code: "Forbidden" });
    expect((await create(outsider)).status).toBe(404);
    const rows = await t.db.selectFrom("setup_tickets").select("created_by").execute();
    expect(rows.map((r) => r.created_by).every((id) => id === owner.userId)).toBe(true);

    const limited = await signUpOwner(t.app, "limited@ticket.test");
    const own = (await familyWithDevices(t, limited, 0, { name: "Flat" })).id;
    const statuses: number[] = [];
    for (let i = 0; i < SETUP_TICKET_LIMITS.createPerUser + 1; i++) statuses.push((await create(limited, own)).status);
    expect(statuses).toEqual([...Array(SETUP_TICKET_LIMITS.createPerUser).fill(200), 429]);
    const refused = await create(limited, own);
    expect(refused.body).toMatchObject({ success: false, error: { code: "TooManyRequests" } });
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect((await create(owner)).status).toBe(200);
  });
});
