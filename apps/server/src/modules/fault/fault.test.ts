import { randomUUID } from "node:crypto";
import { endpoints, type TFault } from "@aquapilot/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMember, familyWithDevices, signUpUser } from "../../../test/api-factories.ts";
import { call, describeEndpoint } from "../../../test/call.ts";
import { ENGINES } from "../../../test/databases.ts";
import { createTestApp, type TestApp } from "../../../test/helpers.ts";

describe.each(ENGINES)("faults over HTTP on %s", (engine) => {
  let t: TestApp;
  const clock = { ms: Date.parse("2026-06-15T12:00:00.000Z") };
  const who = ["owner", "member", "stranger"] as const;
  const tokens = {} as Record<(typeof who)[number], string>;
  const ids = {} as Record<(typeof who)[number], string>;
  let deviceId: string;
  let offlineId: string;

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
      const user = await signUpUser(t.app, `${w}@fault.test`);
      ids[w] = user.userId;
      tokens[w] = user.token;
    }
    const home = await familyWithDevices(t, tokens.owner, [
      { mac: "0AA5A1E0FA01", secret: "s", name: "Kitchen softener" },
      { mac: "0AA5A1E0FA02", secret: "s", name: "Garage softener" },
    ]);
    await addMember(t, home, ids.member, { at: new Date(clock.ms).toISOString() });
    [deviceId, offlineId] = home.devices.map((d) => d.id);
    await setState(deviceId, true, null);
    await setState(offlineId, false, 1025);
    await addEvent(offlineId, "close", 1025);
  });
  afterAll(() => t?.close());

  it("needs a token", async () => {
    expect((await call(t.app, endpoints.getFaultList)).status).toBe(401);
    expect((await call(t.app, endpoints.reopenWater, { query: { deviceId } })).status).toBe(401);
  });

  describeEndpoint(endpoints.getFaultList, () => {
    it("a leak shows for the owner and the member, open, with a real time and a remote reopen; not for a stranger", async () => {
      await addEvent(deviceId, "close", 513);
      await setState(deviceId, true, 513);
      for (const w of ["owner", "member"] as const) {
        const res = await call(t.app, endpoints.getFaultList, { as: tokens[w] });
        expect(res.status).toBe(200);
        const faults = res.result as TFault[];
        expect(faults.map((f) => [f.deviceName, f.kind, f.closeReason, f.open, f.reopen])).toEqual([
          ["Kitchen softener", "close", 513, true, "command"],
          ["Garage softener", "close", 1025, true, "button"],
          ["Garage softener", "offline", null, true, null],
        ]);
        expect(faults[0].startedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        expect(faults[0].familyName).toBe("Home");
      }
      const stranger = await call(t.app, endpoints.getFaultList, { as: tokens.stranger });
      expect(stranger.result).toEqual([]);
      const one = await call(t.app, endpoints.getFaultList, { as: tokens.stranger, query: { deviceId }, lang: "fr" });
      expect(one.status).toBe(404);
      expect(one.body.error.message).toBe("Appareil introuvable.");
      const unknown = await call(t.app, endpoints.getFaultList, {
        as: tokens.owner,
        query: { deviceId: "nope" },
        lang: "fr",
      });
      expect(unknown.status).toBe(404);
      expect(unknown.body.error).toEqual(one.body.error);
    });
  });

  describeEndpoint(endpoints.reopenWater, () => {
    it("reopens a closed valve with forced-switch once per key; refuses an open valve, an offline one and a stranger", async () => {
      // A stranger cannot reopen; nothing is sent.
      const sent = () => t.devices.calls.filter((c) => c.name === "forced-switch").length;
      const refused = await call(t.app, endpoints.reopenWater, { as: tokens.stranger, query: { deviceId } });
      expect(refused.status).toBe(404);
      expect(sent()).toBe(0);
      // The offline device: the instruction to press the valve button, in the caller's language.
      const offline = await call(t.app, endpoints.reopenWater, {
        as: tokens.owner,
        query: { deviceId: offlineId },
        lang: "ru",
      });
      expect(offline.status).toBe(409);
      expect(offline.body.error).toMatchObject({ code: "DeviceOffline" });
      expect(offline.body.error.message).toContain("Нажмите кнопку на клапане");
      expect(sent()).toBe(0);
      // The member reopens (spec §6: members use the household's devices); a double tap with one key sends once.
      const key = randomUUID();
      const commandId = randomUUID();
      const [a, b] = await Promise.all(
        [1, 2].map(() =>
          call(t.app, endpoints.reopenWater, {
            as: tokens.member,
            query: { deviceId, commandId },
            headers: { "idempotency-key": key },
          }),
        ),
      );
      expect([a.status, b.status]).toEqual([200, 200]);
      expect(a.result).toMatchObject({ commandId, status: "done" });
      expect(b.result).toEqual(a.result);
      expect(t.devices.calls.filter((c) => c.name === "forced-switch")).toMatchObject([
        { deviceId, commandId, userId: ids.member },
      ]);
      // The valve reopened: the leak is cleared at the reset's time and reopening again is refused.
      await addEvent(deviceId, "reset");
      await setState(deviceId, true, null);
      const faults = (await call(t.app, endpoints.getFaultList, { as: tokens.owner, query: { deviceId } }))
        .result as TFault[];
      expect(faults).toMatchObject([{ closeReason: 513, open: false, reopen: null }]);
      expect(Date.parse(faults[0].clearedAt ?? "")).toBeGreaterThan(Date.parse(faults[0].startedAt ?? ""));
      const again = await call(t.app, endpoints.reopenWater, { as: tokens.owner, query: { deviceId }, lang: "es" });
      expect(again.status).toBe(409);
      expect(again.body.error).toMatchObject({
        code: "Conflict",
        message: "El agua no está cerrada; no hay nada que volver a abrir.",
      });
      expect(sent()).toBe(1);
      // The app's resend of a lost answer (same key) gets the first answer again, without a second command.
      const resend = await call(t.app, endpoints.reopenWater, {
        as: tokens.member,
        query: { deviceId, commandId },
        headers: { "idempotency-key": key },
      });
      expect(resend.status).toBe(200);
      expect(resend.result).toEqual(a.result);
      expect(sent()).toBe(1);
    });
  });
});
