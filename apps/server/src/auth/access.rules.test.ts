import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Db } from "../db/index.ts";
import { type AccessTarget, requireAccess } from "./access.ts";
import type { MembershipReader } from "./membership.ts";

// Pure suites of the object-level authorization check (spec §6: a household's members may see and use its devices,
// only its one administrator manages it; a user's own objects are theirs alone). The database is a small in-memory
// stand-in for the few Kysely calls the check makes (selectFrom → select → where … → executeTakeFirst); like SQL it
// refuses an unknown table or column, so the check must ask for the right ones.

type Row = Record<string, string | number | null>;

/** The tables the check reads, with their columns (a subset of the schema) and rows. */
function fakeDb(rows: Partial<Record<string, Row[]>>): Db {
  const columns: Record<string, string[]> = {
    devices: ["id", "mac", "family_id"],
    family_members: ["id", "family_id", "user_id", "is_admin"],
    device_commands: ["id", "device_id"],
    family_share_codes: ["id", "inviter_id"],
    messages: ["id", "user_id"],
    after_sale_requests: ["id", "user_id"],
    setup_tickets: ["id", "ticket_hash", "created_by"],
  };
  const known = (table: string, column: string) => {
    if (!columns[table].includes(column)) throw new Error(`no column ${table}.${column}`);
  };
  return {
    selectFrom(table: string) {
      if (!columns[table]) throw new Error(`no table ${table}`);
      let selected: string[] = [];
      const filters: [string, unknown][] = [];
      const builder = {
        select(cols: string | string[]) {
          selected = typeof cols === "string" ? [cols] : cols;
          if (selected.length === 0) throw new Error("empty select");
          for (const c of selected) known(table, c);
          return builder;
        },
        where(column: string, op: string, value: unknown) {
          known(table, column);
          if (op !== "=") throw new Error(`operator ${op}`);
          filters.push([column, value]);
          return builder;
        },
        async executeTakeFirst() {
          if (selected.length === 0) throw new Error("nothing selected");
          const row = (rows[table] ?? []).find((r) => filters.every(([c, v]) => r[c] === v));
          return row && Object.fromEntries(selected.map((c) => [c, row[c]]));
        },
      };
      return builder;
    },
  } as unknown as Db;
}

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

// Household h1: alice administers it, bob is a member; carol belongs to no household. Device d1 is h1's, d2 is
// bound to no household. Command c1 is for d1, c2 for a device that no longer exists.
const DB_ROWS = {
  devices: [
    { id: "d1", mac: "A1B2C3D4E5F6", family_id: "h1" },
    { id: "d2", mac: "0A0B0C0D0E0F", family_id: null },
  ],
  family_members: [
    { id: "m1", family_id: "h1", user_id: "alice", is_admin: 1 },
    { id: "m2", family_id: "h1", user_id: "bob", is_admin: 0 },
  ],
  device_commands: [
    { id: "c1", device_id: "d1" },
    { id: "c2", device_id: "gone" },
  ],
  family_share_codes: [{ id: "s1", inviter_id: "alice" }],
  messages: [{ id: "msg1", user_id: "bob" }],
  after_sale_requests: [{ id: "as1", user_id: "carol" }],
  // Setup ticket "TICKET-OF-BOB" is stored as its SHA-256 only.
  setup_tickets: [{ id: "st1", ticket_hash: sha256("TICKET-OF-BOB"), created_by: "bob" }],
};
const db = fakeDb(DB_ROWS);

const check = (userId: string, target: AccessTarget, read?: MembershipReader) =>
  requireAccess(db, userId, target, read);

/** Expects the check to refuse with this HTTP status and message key. */
async function refused(promise: Promise<unknown>, status: number, messageKey: string) {
  await expect(promise).rejects.toMatchObject({ name: "AppError", status, messageKey });
}

describe("requireAccess: a household", () => {
  it("a member may act as member, and learns that they are not its administrator", async () => {
    expect(await check("bob", { object: "family", role: "member", id: "h1" })).toEqual({
      familyId: "h1",
      isAdmin: false,
    });
  });

  it("the administrator may act as member or admin, and is told so", async () => {
    expect(await check("alice", { object: "family", role: "member", id: "h1" })).toEqual({
      familyId: "h1",
      isAdmin: true,
    });
    expect(await check("alice", { object: "family", role: "admin", id: "h1" })).toEqual({
      familyId: "h1",
      isAdmin: true,
    });
  });

  it("a plain member may not act as admin (403 family.notAdmin)", async () => {
    await refused(check("bob", { object: "family", role: "admin", id: "h1" }), 403, "family.notAdmin");
  });

  it("a stranger is refused whatever the role exactly as for an unknown household (404 family.notFound)", async () => {
    await refused(check("carol", { object: "family", role: "member", id: "h1" }), 404, "family.notFound");
    await refused(check("carol", { object: "family", role: "admin", id: "h1" }), 404, "family.notFound");
    await refused(check("alice", { object: "family", role: "member", id: "h9" }), 404, "family.notFound");
  });

  it("asks the given membership reader with the caller and the household, not the database", async () => {
    const asked: [string, string][] = [];
    const read: MembershipReader = async (userId, familyId) => {
      asked.push([userId, familyId]);
      return { isAdmin: true };
    };
    // carol is no member in the database: only the reader can make her the administrator.
    expect(await check("carol", { object: "family", role: "admin", id: "h1" }, read)).toEqual({
      familyId: "h1",
      isAdmin: true,
    });
    expect(asked).toEqual([["carol", "h1"]]);
    await refused(
      check("alice", { object: "family", role: "member", id: "h1" }, async () => null),
      404,
      "family.notFound",
    );
  });
});

describe("requireAccess: a device, by id or by MAC", () => {
  it("a member reaches the device of their household, with its id and MAC", async () => {
    const grant = { familyId: "h1", isAdmin: false, deviceId: "d1", mac: "A1B2C3D4E5F6" };
    expect(await check("bob", { object: "device", role: "member", id: "d1" })).toEqual(grant);
    expect(await check("bob", { object: "deviceMac", role: "member", id: "A1B2C3D4E5F6" })).toEqual(grant);
  });

  it("a MAC is found however the client writes it (colons, lower case)", async () => {
    expect(await check("alice", { object: "deviceMac", role: "admin", id: "a1:b2:c3:d4:e5:f6" })).toEqual({
      familyId: "h1",
      isAdmin: true,
      deviceId: "d1",
      mac: "A1B2C3D4E5F6",
    });
  });

  it("an unknown device is 404 device.notFound", async () => {
    await refused(check("alice", { object: "device", role: "member", id: "d9" }), 404, "device.notFound");
    await refused(check("alice", { object: "deviceMac", role: "member", id: "FFFFFFFFFFFF" }), 404, "device.notFound");
  });

  it("a device bound to no household belongs to no one: 404 device.notFound, by id and by MAC", async () => {
    await refused(check("alice", { object: "device", role: "member", id: "d2" }), 404, "device.notFound");
    await refused(check("alice", { object: "deviceMac", role: "member", id: "0A0B0C0D0E0F" }), 404, "device.notFound");
    // Even a reader that would admit anyone cannot grant it.
    await refused(
      check("alice", { object: "device", role: "member", id: "d2" }, async () => ({ isAdmin: true })),
      404,
      "device.notFound",
    );
  });

  it("a stranger is 404 device.notFound as for an unknown device; a plain member asking as admin is 403", async () => {
    await refused(check("carol", { object: "device", role: "member", id: "d1" }), 404, "device.notFound");
    await refused(
      check("carol", { object: "deviceMac", role: "admin", id: "a1:b2:c3:d4:e5:f6" }),
      404,
      "device.notFound",
    );
    await refused(check("bob", { object: "deviceMac", role: "admin", id: "A1B2C3D4E5F6" }), 403, "family.notAdmin");
  });
});

describe("requireAccess: a household member row", () => {
  it("answers the household of the membership row for the caller's part in it", async () => {
    expect(await check("bob", { object: "familyMember", role: "member", id: "m1" })).toEqual({
      familyId: "h1",
      isAdmin: false,
    });
    expect(await check("alice", { object: "familyMember", role: "admin", id: "m2" })).toEqual({
      familyId: "h1",
      isAdmin: true,
    });
  });

  it("a stranger gets the unknown row's 404; a plain member asking as admin is 403", async () => {
    await refused(check("carol", { object: "familyMember", role: "member", id: "m1" }), 404, "family.memberNotFound");
    await refused(check("bob", { object: "familyMember", role: "admin", id: "m2" }), 403, "family.notAdmin");
    await refused(check("alice", { object: "familyMember", role: "member", id: "m9" }), 404, "family.memberNotFound");
  });
});

describe("requireAccess: a device command", () => {
  it("answers the commanded device and its household", async () => {
    expect(await check("bob", { object: "command", role: "member", id: "c1" })).toEqual({
      familyId: "h1",
      isAdmin: false,
      deviceId: "d1",
      mac: "A1B2C3D4E5F6",
    });
  });

  it("an unknown command and a command of a vanished device are 404 deviceControl.commandNotFound", async () => {
    await refused(
      check("alice", { object: "command", role: "member", id: "c9" }),
      404,
      "deviceControl.commandNotFound",
    );
    await refused(
      check("alice", { object: "command", role: "member", id: "c2" }),
      404,
      "deviceControl.commandNotFound",
    );
  });

  it("a stranger's answer for a household's command is the unknown command's", async () => {
    await refused(
      check("carol", { object: "command", role: "member", id: "c1" }),
      404,
      "deviceControl.commandNotFound",
    );
    await refused(check("bob", { object: "command", role: "admin", id: "c1" }), 403, "family.notAdmin");
  });
});

describe("requireAccess: the caller's own objects", () => {
  it("the owner of a share code, message or after-sales request reaches it, outside any household", async () => {
    const own = { familyId: null, isAdmin: false };
    expect(await check("alice", { object: "shareCode", role: "owner", id: "s1" })).toEqual(own);
    expect(await check("bob", { object: "message", role: "owner", id: "msg1" })).toEqual(own);
    expect(await check("carol", { object: "afterSale", role: "owner", id: "as1" })).toEqual(own);
  });

  it("another user's object is indistinguishable from an unknown one (404, the kind's own key)", async () => {
    await refused(check("bob", { object: "shareCode", role: "owner", id: "s1" }), 404, "family.shareNotFound");
    await refused(check("alice", { object: "message", role: "owner", id: "msg1" }), 404, "message.notFound");
    await refused(check("alice", { object: "afterSale", role: "owner", id: "as1" }), 404, "afterSale.notFound");
    await refused(check("alice", { object: "shareCode", role: "owner", id: "s9" }), 404, "family.shareNotFound");
  });

  it("a setup ticket is found by its hash, for its creator only; its stored hash or another ticket is unknown", async () => {
    expect(await check("bob", { object: "setupTicket", role: "owner", id: "TICKET-OF-BOB" })).toEqual({
      familyId: null,
      isAdmin: false,
    });
    await refused(
      check("alice", { object: "setupTicket", role: "owner", id: "TICKET-OF-BOB" }),
      404,
      "setupTicket.notFound",
    );
    await refused(
      check("bob", { object: "setupTicket", role: "owner", id: sha256("TICKET-OF-BOB") }),
      404,
      "setupTicket.notFound",
    );
    await refused(check("bob", { object: "setupTicket", role: "owner", id: "st1" }), 404, "setupTicket.notFound");
  });

  it("administering a household grants nothing over a member's own objects", async () => {
    await refused(
      check("alice", { object: "message", role: "owner", id: "msg1" }, async () => ({ isAdmin: true })),
      404,
      "message.notFound",
    );
  });
});
