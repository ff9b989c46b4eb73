import { endpoints, FAULT_ARTICLES, FAULT_LIST_MAX, type TFault } from "@aquapilot/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, openTestDatabase, type TestDatabase } from "../../../test/databases.ts";
import { insertFamily, insertMember, insertUser } from "../../../test/factories.ts";
import { requireAccess } from "../../auth/access.ts";
import type { Db } from "../../db/index.ts";
import { loadArticleSeeds } from "../article/seed.ts";
import { provisionDevice } from "../devices/provision.ts";
import { deviceFaults, listFaults, orderFaults } from "./service.ts";

const NOW = Date.parse("2026-06-15T12:00:00.000Z");
const MIN = 60_000;
const DAY = 86_400_000;
const at = (ms: number) => new Date(ms).toISOString();

describe("fault rules (pure)", () => {
  const device = (state: Partial<NonNullable<Parameters<typeof deviceFaults>[0]["state"]>> | null = {}) => ({
    id: "d1",
    name: "Cellar",
    familyId: "f1",
    familyName: "Home",
    state:
      state === null
        ? null
        : { online: true, closeReason: null, lastReportTime: at(NOW), updatedAt: at(NOW), ...state },
    offlineSince: null,
  });
  const ev = (id: string, type: "close" | "reset", ms: number, closeReason: number | null = null) => ({
    id,
    type,
    closeReason,
    ts: at(ms),
    receivedAt: at(ms + 500),
  });

  it("pairs each close with the next reset, keeps the last one open while the valve is closed", () => {
    const events = [ev("c1", "close", NOW - 3 * DAY, 769), ev("r1", "reset", NOW - 3 * DAY + 20 * MIN)];
    events.push(ev("c2", "close", NOW - 10 * MIN, 513));
    const faults = deviceFaults(device({ closeReason: 513, lastReportTime: at(NOW - 9 * MIN) }), events, null);
    expect(faults.map((f) => [f.id, f.closeReason, f.open, f.clearedAt, f.reopen])).toEqual([
      ["close:d1:c1", 769, false, at(NOW - 3 * DAY + 20 * MIN + 500), null],
      ["close:d1:c2", 513, true, null, "command"],
    ]);
    expect(faults[1]).toMatchObject({
      startedAt: at(NOW - 10 * MIN + 500),
      label: "systemError",
      articleId: "fault-leak",
    });
  });

  it("trusts a close event newer than the last state report, and a newer state over an older event", () => {
    const close = [ev("c1", "close", NOW - MIN, 1025)];
    // The state was reported before the close: the close is open (the app refreshes on the event).
    const stale = deviceFaults(device({ closeReason: null, lastReportTime: at(NOW - 2 * MIN) }), close, null);
    expect(stale).toMatchObject([{ open: true, closeReason: 1025, label: "excessiveFlow", reopen: "command" }]);
    // A later state says open and no reset was seen: cleared, time unknown.
    const later = deviceFaults(device({ closeReason: null, lastReportTime: at(NOW) }), close, null);
    expect(later).toMatchObject([{ open: false, clearedAt: null, reopen: null }]);
    // A reset received while the state still says closed (reported before the reset): cleared at the reset.
    const reset = [...close, ev("r1", "reset", NOW - 30_000)];
    const cleared = deviceFaults(device({ closeReason: 1025, lastReportTime: at(NOW - 45_000) }), reset, null);
    expect(cleared).toMatchObject([{ open: false, clearedAt: at(NOW - 30_000 + 500) }]);
  });

  it("a device whose reports the cloud refuses has an open fault from the first refusal, gone once one is accepted", () => {
    const refused = deviceFaults({ ...device(), reportsRefusedSince: at(NOW - 3 * MIN) }, [], null);
    expect(refused).toEqual([
      expect.objectContaining({
        id: `reports-refused:d1:${at(NOW - 3 * MIN)}`,
        kind: "reports-refused",
        label: "reportsRefused",
        closeReason: null,
        startedAt: at(NOW - 3 * MIN),
        open: true,
        reopen: null,
      }),
    ]);
    expect(deviceFaults({ ...device(), reportsRefusedSince: null }, [], null)).toEqual([]);
  });

  it("an offline device has an open offline fault, and a closed valve it cannot hear is reopened at the button", () => {
    const faults = deviceFaults(
      {
        ...device({ online: false, closeReason: 257, lastReportTime: at(NOW - DAY) }),
        offlineSince: at(NOW - 5 * MIN),
      },
      [],
      ev("old", "close", NOW - 40 * DAY, 257),
    );
    expect(faults).toMatchObject([
      { id: "offline:d1", kind: "offline", label: "deviceOffline", startedAt: at(NOW - 5 * MIN), open: true },
      { id: "close:d1:old", closeReason: 257, open: true, reopen: "button", startedAt: at(NOW - 40 * DAY + 500) },
    ]);
    // A device that never reported is offline, with no start time known.
    expect(deviceFaults(device(null), [], null)).toMatchObject([{ kind: "offline", startedAt: null }]);
    // Closed, but the cloud never saw the close: an open fault without a start time.
    expect(deviceFaults(device({ closeReason: 513 }), [], null)).toMatchObject([
      { id: "close:d1:state", closeReason: 513, startedAt: null, open: true },
    ]);
  });

  it("orders open faults first, then newest first, and caps the list", () => {
    const f = (id: string, open: boolean, startedAt: string | null) =>
      ({ id, open, startedAt, kind: "close" }) as TFault;
    const ordered = orderFaults([
      f("old-cleared", false, at(NOW - 5 * DAY)),
      f("new-cleared", false, at(NOW - DAY)),
      f("open-unknown", true, null),
      f("open-old", true, at(NOW - 2 * DAY)),
      f("open-new", true, at(NOW - MIN)),
    ]);
    expect(ordered.map((x) => x.id)).toEqual(["open-new", "open-old", "open-unknown", "new-cleared", "old-cleared"]);
    const many = Array.from({ length: FAULT_LIST_MAX + 5 }, (_, i) => f(`c${i}`, false, at(NOW - i * MIN)));
    expect(orderFaults(many)).toHaveLength(FAULT_LIST_MAX);
    expect(orderFaults(many)[0].id).toBe("c0");
  });

  it("links every fault to a help article seeded in all five languages", () => {
    const seeds = loadArticleSeeds();
    for (const id of [...Object.values(FAULT_ARTICLES), "fault-alarms"]) {
      expect(seeds.filter((s) => s.id === id).length, id).toBe(5);
    }
  });
});

describe.each(ENGINES)("fault list on %s", (engine) => {
  let tdb: TestDatabase;
  const users: Record<string, string> = {};
  const devices: Record<string, string> = {};
  const deps = () => ({ db: tdb.db, now: () => new Date(NOW) });

  async function state(db: Db, deviceId: string, s: { online: boolean; closeReason: number | null; reported: number }) {
    const values = {
      online: s.online ? 1 : 0,
      close_reason: s.closeReason,
      last_report_time: at(s.reported),
      updated_at: at(s.reported),
    };
    await db
      .insertInto("device_state")
      .values({ device_id: deviceId, vacation: 0, regeneration_count: 0, ...values })
      .onConflict((oc) => oc.column("device_id").doUpdateSet(values))
      .execute();
  }
  async function event(db: Db, deviceId: string, id: string, type: string, ms: number, closeReason?: number) {
    await db
      .insertInto("device_events")
      .values({
        id,
        device_id: deviceId,
        type,
        close_reason: closeReason ?? null,
        station: null,
        ts: at(ms),
        received_at: at(ms + 1000),
        progress: null,
      })
      .execute();
  }

  beforeAll(async () => {
    tdb = await openTestDatabase(engine);
    const now = at(NOW - 100 * DAY);
    for (const name of ["ann", "bob", "cat", "eve"]) users[name] = await insertUser(tdb.db, name, now);
    // Ann administers "ann's" (Bob is a member) and is a member of Cat's household.
    const annHome = await insertFamily(tdb.db, "ann", users.ann, now);
    await insertMember(tdb.db, annHome, users.bob, false, now);
    const catHome = await insertFamily(tdb.db, "cat", users.cat, now);
    await insertMember(tdb.db, catHome, users.ann, false, now);
    const bind = async (key: string, mac: string, name: string, familyId: string | null) => {
      devices[key] = (await provisionDevice(tdb.db, { mac, secret: "s", name })).id;
      await tdb.db.updateTable("devices").set({ family_id: familyId }).where("id", "=", devices[key]).execute();
    };
    await bind("cellar", "0AA5A1E0F001", "Cellar", annHome);
    await bind("garage", "0AA5A1E0F002", "Garage", annHome);
    await bind("cabin", "0AA5A1E0F003", "Cabin", catHome);
    await bind("loose", "0AA5A1E0F004", "Unbound", null);
    // Cellar: a leak 10 min ago, still closed (the state reported after the close says 513).
    await state(tdb.db, devices.cellar, { online: true, closeReason: 513, reported: NOW - 9 * MIN });
    await event(tdb.db, devices.cellar, "c-old", "close", NOW - 45 * DAY, 769);
    await event(tdb.db, devices.cellar, "r-old", "reset", NOW - 45 * DAY + MIN);
    await event(tdb.db, devices.cellar, "c1", "close", NOW - 2 * DAY, 1025);
    await event(tdb.db, devices.cellar, "st", "station", NOW - 2 * DAY + 1000);
    await event(tdb.db, devices.cellar, "r1", "reset", NOW - 2 * DAY + 30 * MIN);
    await event(tdb.db, devices.cellar, "c2", "close", NOW - 10 * MIN, 513);
    // Garage: offline for an hour, water open.
    await state(tdb.db, devices.garage, { online: false, closeReason: null, reported: NOW - 60 * MIN });
    // Cabin (Cat's household): closed by the valve button a day ago, reopened.
    await state(tdb.db, devices.cabin, { online: true, closeReason: null, reported: NOW - MIN });
    await event(tdb.db, devices.cabin, "c3", "close", NOW - DAY, 257);
    await event(tdb.db, devices.cabin, "r3", "reset", NOW - DAY + 5 * MIN);
    // An unbound device's leak is nobody's fault list.
    await state(tdb.db, devices.loose, { online: true, closeReason: 513, reported: NOW });
  });
  afterAll(() => tdb?.close());

  it("lists every household's open faults first, then the last 30 days' closes newest first, with real times", async () => {
    const faults = await listFaults(deps(), users.ann);
    expect(
      faults.map((f) => [f.deviceName, f.kind, f.closeReason, f.open, f.startedAt, f.clearedAt, f.familyName]),
    ).toEqual([
      ["Cellar", "close", 513, true, at(NOW - 10 * MIN + 1000), null, "ann's"],
      ["Garage", "offline", null, true, at(NOW - 60 * MIN), null, "ann's"],
      ["Cabin", "close", 257, false, at(NOW - DAY + 1000), at(NOW - DAY + 5 * MIN + 1000), "cat's"],
      ["Cellar", "close", 1025, false, at(NOW - 2 * DAY + 1000), at(NOW - 2 * DAY + 30 * MIN + 1000), "ann's"],
    ]);
    expect(faults[0]).toMatchObject({
      id: `close:${devices.cellar}:c2`,
      deviceId: devices.cellar,
      deviceOnline: true,
      label: "systemError",
      reopen: "command",
      articleId: "fault-leak",
    });
    expect(faults[3]).toMatchObject({ label: "excessiveFlow", articleId: "fault-excessive-flow", reopen: null });
  });

  it("a member sees their household's faults only; one device's list; a stranger is refused", async () => {
    expect((await listFaults(deps(), users.bob)).map((f) => f.deviceName)).toEqual(["Cellar", "Garage", "Cellar"]);
    expect((await listFaults(deps(), users.cat)).map((f) => f.deviceName)).toEqual(["Cabin"]);
    const one = await listFaults(deps(), users.bob, devices.cellar);
    expect(one.map((f) => [f.closeReason, f.open])).toEqual([
      [513, true],
      [1025, false],
    ]);
    expect(await listFaults(deps(), users.eve)).toEqual([]);
    // One device's list: the endpoint's declared rule (a member of the device's household) on this data.
    expect(endpoints.getFaultList.access.object).toMatchObject({ object: "device", role: "member" });
    const rule = (id: string) => ({ object: "device", role: "member", id }) as const;
    // Outside the household, or a device of none: the very answer of an unknown device.
    const absent = { status: 404, messageKey: "device.notFound" };
    await expect(requireAccess(tdb.db, users.eve, rule(devices.cellar))).rejects.toMatchObject(absent);
    await expect(requireAccess(tdb.db, users.cat, rule(devices.cellar))).rejects.toMatchObject(absent);
    await expect(requireAccess(tdb.db, users.ann, rule(devices.loose))).rejects.toMatchObject(absent);
    await expect(requireAccess(tdb.db, users.ann, rule("no-such-device"))).rejects.toMatchObject(absent);
  });

  it("a valve still closed by a close older than 30 days stays listed, with that close's time", async () => {
    await tdb.db
      .updateTable("device_state")
      .set({ close_reason: 769, last_report_time: at(NOW - MIN) })
      .where("device_id", "=", devices.cabin)
      .execute();
    await event(tdb.db, devices.cabin, "c-ancient", "close", NOW - 50 * DAY, 769);
    await tdb.db.deleteFrom("device_events").where("id", "in", ["c3", "r3"]).execute();
    const faults = await listFaults(deps(), users.cat, devices.cabin);
    expect(faults).toMatchObject([
      { id: `close:${devices.cabin}:c-ancient`, closeReason: 769, open: true, startedAt: at(NOW - 50 * DAY + 1000) },
    ]);
  });
});
