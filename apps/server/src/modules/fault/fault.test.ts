import { randomUUID } from "node:crypto";
import type { TFault } from "@aquapilot/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "../../../test/databases.ts";
import { bearer, createTestApp, registerByEmail, type TestApp } from "../../../test/helpers.ts";
import { provisionDevice } from "../devices/provision.ts";

const FAULT = "/api/run-lucky/device/app/fault";
const LIST = `${FAULT}/get-fault-list`;
const REOPEN = `${FAULT}/reopen-water`;

describe.each(ENGINES)("faults over HTTP on %s (issue 10 point 5)", (engine) => {
  let t: TestApp;
  const clock = { ms: Date.parse("2026-06-15T12:00:00.000Z") };
  const who = ["owner", "member", "stranger"] as const;
  const tokens = {} as Record<(typeof who)[number], string>;
  const ids = {} as Record<(typeof who)[number], string>;
  let deviceId: string;
  let offlineId: string;

  const call = (
    method: "GET" | "POST",
    url: string,
    auth: string | null,
    query: Record<string, string> = {},
    lang = "en",
    headers: Record<string, string> = {},
  ) =>
    t.app.inject({
      method,
      url,
      query,
      headers: { ...(auth ? { authorization: auth } : {}), "accept-language": lang, ...headers },
    });

  async function setState(id: string, online: boolean, closeReason: number | null) {
    const iso = new Date(clock.ms).toISOString();
    const values = { online: online ? 1 : 0, close_reason: closeReason, last_report_time: iso, updated_at: iso };
    await t.db
      .insertInto("device_state")
      .values({ device_id: id, vacation: 0, regeneration_count: 0, ...values })
      .onConflict((oc) => oc.column("device_id").doUpdateSet(values))
      .execute();
  }
  async function addEvent(id: string, type: "close" | "reset", closeReason: number | null = null) {
    clock.ms += 1000;
    const iso = new Date(clock.ms).toISOString();
    await t.db
      .insertInto("device_events")
      .values({
        id: randomUUID(),
        device_id: id,
        type,
        close_reason: closeReason,
        station: null,
        ts: iso,
        received_at: iso,
        progress: null,
      })
      .execute();
    clock.ms += 1000;
  }

  beforeAll(async () => {
    t = await createTestApp({ engine, now: () => new Date(clock.ms) });
    for (const w of who) {
      ids[w] = await registerByEmail(t.app, `${w}@fault.test`, "pass-word-1");
      tokens[w] = await bearer(t.app, `${w}@fault.test`, "pass-word-1");
    }
    const family = await t.app.inject({
      method: "POST",
      url: "/api/run-lucky/device/app/family/",
      headers: { authorization: tokens.owner },
      payload: { name: "Home", address: "Bund, Shanghai", longitude: 121.491, latitude: 31.233 },
    });
    const familyId = family.json().result.id as string;
    await t.db
      .insertInto("family_members")
      .values({
        id: randomUUID(),
        family_id: familyId,
        user_id: ids.member,
        is_admin: 0,
        creation_time: new Date(clock.ms).toISOString(),
      })
      .execute();
    deviceId = (await provisionDevice(t.db, { mac: "0AA5A1E0FA01", secret: "s", name: "Kitchen softener" })).id;
    offlineId = (await provisionDevice(t.db, { mac: "0AA5A1E0FA02", secret: "s", name: "Garage softener" })).id;
    await t.db.updateTable("devices").set({ family_id: familyId }).where("id", "in", [deviceId, offlineId]).execute();
    await setState(deviceId, true, null);
    await setState(offlineId, false, 1025);
    await addEvent(offlineId, "close", 1025);
  });
  afterAll(() => t?.close());

  it("needs a token", async () => {
    expect((await call("GET", LIST, null)).statusCode).toBe(401);
    expect((await call("POST", REOPEN, null, { deviceId })).statusCode).toBe(401);
  });

  it("a leak shows for the owner and the member, open, with a real time and a remote reopen; not for a stranger", async () => {
    await addEvent(deviceId, "close", 513);
    await setState(deviceId, true, 513);
    for (const w of ["owner", "member"] as const) {
      const res = await call("GET", LIST, tokens[w]);
      expect(res.statusCode).toBe(200);
      const faults = res.json().result as TFault[];
      expect(faults.map((f) => [f.deviceName, f.kind, f.closeReason, f.open, f.reopen])).toEqual([
        ["Kitchen softener", "close", 513, true, "command"],
        ["Garage softener", "close", 1025, true, "button"],
        ["Garage softener", "offline", null, true, null],
      ]);
      expect(faults[0].startedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(faults[0].familyName).toBe("Home");
    }
    const stranger = await call("GET", LIST, tokens.stranger);
    expect(stranger.json().result).toEqual([]);
    const one = await call("GET", LIST, tokens.stranger, { deviceId }, "fr");
    expect(one.statusCode).toBe(403);
    expect(one.json().error.message).toBe("Vous n'êtes pas membre de ce foyer.");
    expect((await call("GET", LIST, tokens.owner, { deviceId: "nope" })).statusCode).toBe(404);
  });

  it("reopens a closed valve with forced-switch once per key; refuses an open valve, an offline one and a stranger", async () => {
    // A stranger cannot reopen; nothing is sent.
    const sent = () => t.devices.calls.filter((c) => c.name === "forced-switch").length;
    const refused = await call("POST", REOPEN, tokens.stranger, { deviceId });
    expect(refused.statusCode).toBe(403);
    expect(sent()).toBe(0);
    // The offline device: the instruction to press the valve button, in the caller's language.
    const offline = await call("POST", REOPEN, tokens.owner, { deviceId: offlineId }, "ru");
    expect(offline.statusCode).toBe(409);
    expect(offline.json().error).toMatchObject({ code: "DeviceOffline" });
    expect(offline.json().error.message).toContain("Нажмите кнопку на клапане");
    expect(sent()).toBe(0);
    // The member reopens (spec §6: members use the household's devices); a double tap with one key sends once.
    const key = randomUUID();
    const commandId = randomUUID();
    const [a, b] = await Promise.all(
      [1, 2].map(() => call("POST", REOPEN, tokens.member, { deviceId, commandId }, "en", { "idempotency-key": key })),
    );
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.json().result).toMatchObject({ commandId, status: "done" });
    expect(b.json().result).toEqual(a.json().result);
    expect(t.devices.calls.filter((c) => c.name === "forced-switch")).toMatchObject([
      { deviceId, commandId, userId: ids.member },
    ]);
    // The valve reopened: the leak is cleared at the reset's time and reopening again is refused.
    await addEvent(deviceId, "reset");
    await setState(deviceId, true, null);
    const faults = (await call("GET", LIST, tokens.owner, { deviceId })).json().result as TFault[];
    expect(faults).toMatchObject([{ closeReason: 513, open: false, reopen: null }]);
    expect(Date.parse(faults[0].clearedAt ?? "")).toBeGreaterThan(Date.parse(faults[0].startedAt ?? ""));
    const again = await call("POST", REOPEN, tokens.owner, { deviceId }, "es");
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatchObject({
      code: "Conflict",
      message: "El agua no está cerrada; no hay nada que volver a abrir.",
    });
    expect(sent()).toBe(1);
    // The app's resend of a lost answer (same key) gets the first answer again, without a second command.
    const resend = await call("POST", REOPEN, tokens.member, { deviceId, commandId }, "en", { "idempotency-key": key });
    expect(resend.statusCode).toBe(200);
    expect(resend.json().result).toEqual(a.json().result);
    expect(sent()).toBe(1);
  });
});
