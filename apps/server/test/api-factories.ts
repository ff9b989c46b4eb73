import { randomUUID } from "node:crypto";
import { endpoints, type TShareAnalysis } from "@aquapilot/contract";
import type { FastifyInstance } from "fastify";
import type { Db } from "../src/db/index.ts";
import { type DeviceProvisioning, provisionDevice } from "../src/modules/devices/provision.ts";
import { type Caller, call } from "./call.ts";
import { insertMember } from "./factories.ts";
import { bearer, registerByEmail } from "./helpers.ts";

/**
 * API-level factories of the API tests: users signed up and signed in through the real routes,
 * households created through the real create-family call, devices provisioned at the factory and placed in them,
 * members added. Built on {@link call}, `registerByEmail`/`bearer` (test/helpers.ts) and the row factories
 * (test/factories.ts).
 */

/** The password every factory user has. */
export const PASSWORD = "pass-word-1";

/** The address every factory household has (the spec §5 create rule needs one): the Bund, Shanghai, in degrees. */
export const ADDRESS = { address: "Bund, Shanghai", longitude: 121.491, latitude: 31.233 } as const;

/** A user signed up by e-mail and signed in. */
export interface TestUser {
  /** The `authorization` header value, "Bearer …" (pass the user itself as `call`'s `as`). */
  token: string;
  userId: string;
  email: string;
  password: string;
}

/** A household created through the API, with the devices placed in it. */
export interface TestFamily {
  /** The family id. */
  id: string;
  /** In the order given; each with its MAC (12 upper-case hex digits) and its factory secret in clear. */
  devices: Array<{ id: string; mac: string; secret: string; name: string }>;
}

/** What the factories need of a test app: the app to call and its database. */
export interface AppAndDb {
  app: FastifyInstance;
  db: Db;
}

/**
 * Signs a user up through the real routes (send code, code from the outbox, register; spec §5) and signs them in
 * (password grant). `email` defaults to a fresh "user-<uuid>@factory.test".
 * @throws Error when a step fails.
 */
export async function signUpUser(
  app: FastifyInstance,
  email = `user-${randomUUID()}@factory.test`,
  password = PASSWORD,
): Promise<TestUser> {
  const userId = await registerByEmail(app, email, password);
  const token = await bearer(app, email, password);
  return { token, userId, email, password };
}

/** {@link signUpUser} for the user who will own a household (the same steps; the name says the role in a test). */
export const signUpOwner = signUpUser;

/**
 * Creates the household `opts.name` (default "Home", at {@link ADDRESS}) as `owner` through POST family (spec §5;
 * the owner becomes its administrator), then provisions `devices` (a count: "Softener 1"…, random MACs, secret "s";
 * or their provisioning data) and places them in it in that order (the device rows' family, as a bound device has).
 * @throws Error when the create call does not answer 200.
 */
export async function familyWithDevices(
  t: AppAndDb,
  owner: Caller,
  devices: number | DeviceProvisioning[] = 0,
  opts: { name?: string; address?: Partial<typeof ADDRESS> } = {},
): Promise<TestFamily> {
  const created = await call(t.app, endpoints.createFamily, {
    as: owner,
    body: { name: opts.name ?? "Home", ...ADDRESS, ...opts.address },
  });
  if (created.status !== 200) throw new Error(`create family failed: ${created.text}`);
  const specs: DeviceProvisioning[] =
    typeof devices === "number"
      ? Array.from({ length: devices }, (_, i) => ({
          mac: randomUUID().replace(/-/g, "").slice(0, 12).toUpperCase(),
          secret: "s",
          name: `Softener ${i + 1}`,
        }))
      : devices;
  const placed: TestFamily["devices"] = [];
  for (const spec of specs) {
    const { id } = await provisionDevice(t.db, spec);
    placed.push({ id, mac: spec.mac, secret: spec.secret, name: spec.name });
  }
  if (placed.length > 0) {
    await t.db
      .updateTable("devices")
      .set({ family_id: created.result.id })
      .where(
        "id",
        "in",
        placed.map((d) => d.id),
      )
      .execute();
  }
  return { id: created.result.id, devices: placed };
}

/**
 * Adds `user` to `family` as a member (not administrator) by its membership row (test/factories.ts
 * `insertMember`), joined at `opts.at` (ISO 8601 UTC; default now) — no share code, no message.
 */
export async function addMember(
  t: { db: Db },
  family: { id: string } | string,
  user: { userId: string } | string,
  opts: { at?: string } = {},
): Promise<void> {
  const familyId = typeof family === "string" ? family : family.id;
  const userId = typeof user === "string" ? user : user.userId;
  await insertMember(t.db, familyId, userId, false, opts.at);
}

/**
 * Adds `member` to `family` the way the app does (spec §4): `admin` fetches the share code
 * (GET trans-to-other-member-qr-code), `member` joins with it (POST analysis-code).
 * @returns what analysis-code answered.
 * @throws Error when either call does not answer 200.
 */
export async function joinWithShareCode(
  app: FastifyInstance,
  family: { id: string } | string,
  admin: Caller,
  member: Caller,
): Promise<TShareAnalysis> {
  const familyId = typeof family === "string" ? family : family.id;
  const share = await call(app, endpoints.getShareCode, { as: admin, query: { familyId } });
  if (share.status !== 200) throw new Error(`share code failed: ${share.text}`);
  const joined = await call(app, endpoints.analysisCode, { as: member, query: { code: share.result.code } });
  if (joined.status !== 200) throw new Error(`join failed: ${joined.text}`);
  return joined.result;
}
