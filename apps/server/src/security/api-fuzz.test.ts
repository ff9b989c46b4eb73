import { endpoints } from "@aquapilot/contract";
import { DEMO_ACCOUNT, seedDemoIfEmpty } from "@aquapilot/dev";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  answerProblem,
  casesFor,
  type FuzzCase,
  type FuzzIds,
  type FuzzRoute,
  fuzzRoutes,
} from "../../test/api-fuzz-cases.ts";
import { call, okResult } from "../../test/call.ts";
import { ENGINES } from "../../test/databases.ts";
import { bearer, createTestApp, registerByEmail, type TestApp } from "../../test/helpers.ts";
import type { Db } from "../db/index.ts";

/**
 * API fuzz suite: every route of the contract × at least 30 hostile variants generated from its schemas
 * (test/api-fuzz-cases.ts), sent as an anonymous caller, as a stranger (a signed-in user of another household, with
 * the owner's ids) and as the owner, on SQLite and PostgreSQL. Holds: no 5xx, every answer in the envelope (or the
 * route's documented shape), and the other user's rows unchanged by each pass.
 */

const CALLBACK_SECRET = "fuzz-external-callback-secret-0123456789";

/** Every row of every table that mentions one of `keys` (an id, a MAC) in any column, as sorted JSON per table. */
async function rowsMentioning(db: Db, keys: Set<string>): Promise<Record<string, string[]>> {
  const tables = (await db.introspection.getTables()).map((t) => t.name).filter((n) => !n.startsWith("kysely_"));
  const out: Record<string, string[]> = {};
  for (const table of tables.sort()) {
    // biome-ignore lint/suspicious/noExplicitAny: a generic walk over every table of the schema.
    const rows = (await (db as any).selectFrom(table).selectAll().execute()) as Array<Record<string, unknown>>;
    const mine = rows
      .filter((row) => Object.values(row).some((v) => typeof v === "string" && keys.has(v)))
      .map((row) => JSON.stringify(row, (_k, v) => (typeof v === "bigint" ? String(v) : v)))
      .sort();
    if (mine.length > 0) out[table] = mine;
  }
  return out;
}

/** Tallies of one pass. */
interface Tally {
  requests: number;
  routes: Set<string>;
  perRoute: Map<string, number>;
  statuses: Map<number, number>;
  problems: string[];
}

async function runPass(app: FastifyInstance, cases: FuzzCase[]): Promise<Tally> {
  const tally: Tally = { requests: 0, routes: new Set(), perRoute: new Map(), statuses: new Map(), problems: [] };
  for (const c of cases) {
    const res = await app.inject(c.request);
    tally.requests++;
    tally.routes.add(c.route);
    tally.perRoute.set(c.route, (tally.perRoute.get(c.route) ?? 0) + 1);
    tally.statuses.set(res.statusCode, (tally.statuses.get(res.statusCode) ?? 0) + 1);
    const problem = answerProblem(c.kind, res);
    if (problem) tally.problems.push(`${c.route} [${c.variant}] ${problem}`);
  }
  return tally;
}

const fmt = (n: number) => n.toLocaleString("en-US");

function summary(engine: string, caller: string, t: Tally, ms: number): string {
  const byClass = [...t.statuses.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${fmt(n)}`);
  const fivexx = [...t.statuses.entries()].filter(([s]) => s >= 500).reduce((a, [, n]) => a + n, 0);
  return (
    `api fuzz (${engine}, ${caller}): ${fmt(t.requests)} requests on ${t.routes.size} routes ` +
    `(≥ ${Math.min(...t.perRoute.values())} each), ${fivexx} × 5xx, ${t.problems.length} problems, ` +
    `${(ms / 1000).toFixed(1)} s [${byClass.join(" ")}]`
  );
}

describe.each(ENGINES)("API fuzz on %s", (engine) => {
  let t: TestApp;
  let ids: FuzzIds;
  let owner: string;
  let stranger: string;
  let ownerKeys: Set<string>;
  let strangerKeys: Set<string>;
  const routes: FuzzRoute[] = fuzzRoutes();
  const totals = { requests: 0, fivexx: 0, problems: 0 };

  beforeAll(async () => {
    t = await createTestApp({ engine, env: { EXTERNAL_CALLBACK_SECRET: CALLBACK_SECRET, LOG_LEVEL: "warn" } });
    await seedDemoIfEmpty(t.db, {
      devices: [
        { mac: "F0F0F0000001", secret: "fuzz-secret-1", name: "Kitchen", model: "AQ-S25" },
        { mac: "F0F0F0000002", secret: "fuzz-secret-2", name: "Garage", model: "AQ-S35" },
      ],
    });
    owner = await bearer(t.app, DEMO_ACCOUNT.email, DEMO_ACCOUNT.password);
    const strangerId = await registerByEmail(t.app, "stranger@fuzz.test", "stranger-pass-1");
    stranger = await bearer(t.app, "stranger@fuzz.test", "stranger-pass-1");
    const families = await okResult(call(t, endpoints.getFamilies, { as: owner }));
    const familyId = families.items[0].id;
    const devices = await okResult(call(t, endpoints.getFamilyDevices, { as: owner, query: { familyId } }));
    const members = await okResult(call(t, endpoints.getFamilyUsers, { as: owner, query: { familyId } }));
    const afterSale = await okResult(
      call(t, endpoints.createAfterSale, {
        as: owner,
        body: { deviceId: devices[0].id, description: "Noise at night from the valve." },
      }),
    );
    const message = await okResult(call(t, endpoints.testSendMessage, { as: owner }));
    ids = {
      familyId,
      deviceId: devices[0].id,
      mac: devices[0].mac,
      memberId: members[0].id,
      userId: members[0].userId,
      afterSaleId: afterSale.id,
      messageId: message.id,
      articleId: "fault-offline",
    };
    ownerKeys = new Set([
      familyId,
      members[0].userId,
      members[0].id,
      afterSale.id,
      message.id,
      ...devices.flatMap((d) => [d.id, d.mac]),
    ]);
    const strangerFamily = await okResult(
      call(t, endpoints.createFamily, {
        as: stranger,
        body: { name: "Stranger's home", address: "Somewhere", longitude: 2.35, latitude: 48.85 },
      }),
    );
    strangerKeys = new Set([strangerId, strangerFamily.id]);
  }, 120_000);

  afterAll(async () => {
    console.log(
      `api fuzz (${engine}): ${routes.length} routes, ${fmt(totals.requests)} requests in all, ` +
        `${totals.fivexx} × 5xx, ${totals.problems} answers outside the envelope or shape`,
    );
    await t?.close();
  });

  /** The cases of every route for one caller; destructive routes last, so the owner's data is there until then. */
  const casesAs = (headers: Record<string, string>) => {
    const last = (r: FuzzRoute) => (r.endpoint.method === "DELETE" || r.name === "logOff" ? 1 : 0);
    // Anonymous on a signed-in route meets the same 401 before validation whatever it sends: 40 variants suffice.
    const limit = (r: FuzzRoute) =>
      !headers.authorization && r.kind === "envelope" && r.endpoint.access.caller !== "open" ? 40 : undefined;
    return [...routes].sort((a, b) => last(a) - last(b)).flatMap((r) => casesFor(r, ids, headers, { limit: limit(r) }));
  };

  const check = (caller: string, tally: Tally, ms: number) => {
    console.log(summary(engine, caller, tally, ms));
    totals.requests += tally.requests;
    totals.fivexx += [...tally.statuses.entries()].filter(([s]) => s >= 500).reduce((a, [, n]) => a + n, 0);
    totals.problems += tally.problems.length;
    expect(tally.problems.slice(0, 25)).toEqual([]);
    expect(tally.routes.size).toBe(routes.length);
    expect(Math.min(...tally.perRoute.values())).toBeGreaterThanOrEqual(30);
  };

  it("anonymous: no 5xx, every answer enveloped, nobody's rows changed", async () => {
    const before = [await rowsMentioning(t.db, ownerKeys), await rowsMentioning(t.db, strangerKeys)];
    const started = Date.now();
    const tally = await runPass(t.app, casesAs({}));
    check("anonymous", tally, Date.now() - started);
    expect([await rowsMentioning(t.db, ownerKeys), await rowsMentioning(t.db, strangerKeys)]).toEqual(before);
  }, 300_000);

  it("stranger with the owner's ids: no 5xx, every answer enveloped, the owner's rows unchanged", async () => {
    const before = await rowsMentioning(t.db, ownerKeys);
    // The snapshot holds the owner's account, household, membership, devices, request and message.
    expect(Object.keys(before)).toEqual(expect.arrayContaining(["users", "families", "family_members", "devices"]));
    const started = Date.now();
    const tally = await runPass(t.app, casesAs({ authorization: stranger }));
    check("stranger", tally, Date.now() - started);
    expect(await rowsMentioning(t.db, ownerKeys)).toEqual(before);
  }, 300_000);

  it("owner on the own data: no 5xx, every answer enveloped, the stranger's rows unchanged", async () => {
    const before = await rowsMentioning(t.db, strangerKeys);
    const started = Date.now();
    const tally = await runPass(
      t.app,
      casesAs({ authorization: owner, "x-external-callback-secret": CALLBACK_SECRET }),
    );
    check("owner", tally, Date.now() - started);
    // Some variants were valid calls: the owner's data was reached, not only refused at the door.
    expect(tally.statuses.get(200) ?? 0).toBeGreaterThan(routes.length / 2);
    expect(await rowsMentioning(t.db, strangerKeys)).toEqual(before);
  }, 300_000);
});
