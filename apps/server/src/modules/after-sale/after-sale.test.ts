import { endpoints } from "@aquapilot/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMember, familyWithDevices, signUpUser } from "../../../test/api-factories.ts";
import { call, describeEndpoint, nameOf } from "../../../test/call.ts";
import { createTestApp, type TestApp } from "../../../test/helpers.ts";
import { runAfterSaleCli } from "../../cli/after-sale.ts";
import { storeUpload } from "../files/service.ts";
import { handleAfterSale } from "./service.ts";

const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000100ffff03000006000557bfabd40000000049454e44ae426082",
  "hex",
);

describe("after-sales requests over HTTP (spec §7)", () => {
  let t: TestApp;
  const clock = { ms: Date.parse("2026-03-20T09:00:00.000Z") };
  const tokens: Record<"owner" | "member" | "stranger", string> = { owner: "", member: "", stranger: "" };
  const ids: Record<"owner" | "member" | "stranger", string> = { owner: "", member: "", stranger: "" };
  let familyId: string;
  let deviceId: string;
  let requestId: string;

  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date(clock.ms) });
    for (const who of ["owner", "member", "stranger"] as const) {
      const user = await signUpUser(t.app, `${who}@after-sale.test`);
      ids[who] = user.userId;
      tokens[who] = user.token;
    }
    const home = await familyWithDevices(t, tokens.owner, [
      { mac: "0AA5A1E00001", secret: "s", name: "Kitchen softener", model: "AQ-S35" },
    ]);
    familyId = home.id;
    await addMember(t, home, ids.member, { at: new Date(clock.ms).toISOString() });
    deviceId = home.devices[0].id;
    await t.db.updateTable("devices").set({ firmware_version: "2.4.1" }).where("id", "=", deviceId).execute();
  });
  afterAll(() => t.close());

  const create = async (who: keyof typeof tokens, body: object, lang = "en") => {
    clock.ms += 1000;
    return call(t.app, endpoints.createAfterSale, { as: tokens[who], body, lang });
  };

  it("needs a token for every call", async () => {
    for (const endpoint of [
      endpoints.getAfterSaleList,
      endpoints.createAfterSale,
      endpoints.getAfterSale,
      endpoints.updateAfterSale,
      endpoints.deleteAfterSale,
    ]) {
      const { method } = endpoint;
      const res = await call(t.app, endpoint, {
        params: { id: "x" },
        body: method === "POST" || method === "PUT" ? {} : undefined,
      });
      expect(res.status, nameOf(endpoint)).toBe(401);
      expect(res.body.unAuthorizedRequest).toBe(true);
    }
  });

  describeEndpoint(endpoints.createAfterSale, () => {
    it("refuses invalid bodies with field errors in the caller's language", async () => {
      const short = await create("owner", { deviceId, description: "bad" }, "fr");
      expect(short.status).toBe(400);
      expect(short.body.error.validationErrors).toEqual([
        { message: "description doit contenir au moins 5 caractères.", members: ["description"] },
      ]);
      const zh = await create("owner", { description: "The softener leaks at the valve." }, "zh-CN");
      expect(zh.status).toBe(400);
      expect(zh.body.error.validationErrors).toEqual([{ message: "deviceId 为必填项。", members: ["deviceId"] }]);
      const many = await create("owner", {
        deviceId,
        description: "Too many photos attached here.",
        photos: Array.from({ length: 7 }, (_, i) => `/uploads/files/${i}.png`),
      });
      expect(many.status).toBe(400);
      expect(many.body.error.validationErrors[0].members).toEqual(["photos"]);
      expect(await t.db.selectFrom("after_sale_requests").selectAll().execute()).toEqual([]);
    });

    it("refuses a device outside the caller's households and photos the caller did not upload", async () => {
      const stranger = await create("stranger", { deviceId, description: "Not my softener at all." }, "es");
      expect(stranger.status).toBe(404);
      expect(stranger.body.error.message).toBe("Dispositivo no encontrado.");
      const unknown = await create("owner", { deviceId: "no-such-device", description: "Unknown device here." }, "es");
      expect(unknown.status).toBe(404);
      expect(unknown.body.error).toEqual(stranger.body.error);
      const theirs = await storeUpload(t.db, t.config.DATA_DIR, ids.stranger, PNG, "png", new Date(clock.ms));
      const foreign = await create("owner", {
        deviceId,
        description: "Someone else's photo.",
        photos: [theirs.fileUrl],
      });
      expect(foreign.status).toBe(400);
      expect(foreign.body.error.code).toBe("Validation");
      const outside = await create("owner", {
        deviceId,
        description: "An outside URL as photo.",
        photos: ["https://example.com/x.png"],
      });
      expect(outside.status).toBe(400);
      expect(await t.db.selectFrom("after_sale_requests").selectAll().execute()).toEqual([]);
    });

    it("creates a request with photos and a frozen diagnostics snapshot, and reads it back", async () => {
      const now = new Date(clock.ms).toISOString();
      await t.db
        .updateTable("device_state")
        .set({
          online: 1,
          station: 0,
          settings_json: JSON.stringify({ saltAddition: 1.2, rawWaterHardness: 18 }),
          last_report_time: now,
          updated_at: now,
        })
        .where("device_id", "=", deviceId)
        .execute();
      await t.db
        .insertInto("device_events")
        .values(
          [
            {
              id: "e1",
              device_id: deviceId,
              type: "close",
              close_reason: 513,
              station: null,
              ts: "2026-03-19T22:10:00.000Z",
            },
            {
              id: "e2",
              device_id: deviceId,
              type: "regeneration-start",
              close_reason: null,
              station: 1,
              ts: "2026-03-19T02:00:00.000Z",
            },
            {
              id: "e3",
              device_id: deviceId,
              type: "close",
              close_reason: 769,
              station: null,
              ts: "2026-01-01T10:00:00.000Z",
            },
          ].map((e) => ({ ...e, received_at: now })),
        )
        .execute();
      await t.db
        .insertInto("device_water_daily")
        .values({ device_id: deviceId, day: "2026-03-19", water_l: 412.5, samples: 24, updated_at: now })
        .execute();
      const photo = await storeUpload(t.db, t.config.DATA_DIR, ids.owner, PNG, "png", new Date(clock.ms));

      const res = await create("owner", {
        deviceId,
        description: "  Water on the floor next to the softener every night.  ",
        photos: [photo.fileUrl],
        contactPhone: "+33 6 12 34 56 78",
        attachDiagnostics: true,
      });
      expect(res.status).toBe(200);
      const created = res.result;
      requestId = created.id;
      expect(created).toMatchObject({
        deviceId,
        deviceName: "Kitchen softener",
        familyId,
        description: "Water on the floor next to the softener every night.",
        photos: [photo.fileUrl],
        contactPhone: "+33 6 12 34 56 78",
        handled: false,
        handledTime: null,
        reply: null,
        lastModificationTime: null,
      });
      const d = created.diagnostics!;
      expect(d).toMatchObject({
        firmwareVersion: "2.4.1",
        model: "AQ-S35",
        online: true,
        lastReportTime: now,
        settings: { saltAddition: 1.2, rawWaterHardness: 18 },
      });
      // The January event is older than 30 days; newest first.
      expect(d.events).toEqual([
        { time: "2026-03-19T22:10:00.000Z", type: "close", closeReason: 513 },
        { time: "2026-03-19T02:00:00.000Z", type: "regeneration-start", closeReason: null },
      ]);
      expect(d.dailyUsage).toHaveLength(30);
      expect(d.dailyUsage.at(-1)?.date).toBe("2026-03-20");
      expect(d.dailyUsage.find((u: { date: string }) => u.date === "2026-03-19")).toEqual({
        date: "2026-03-19",
        waterL: 412.5,
        regenerations: 1,
      });

      // Frozen: later events do not change the stored snapshot.
      await t.db
        .insertInto("device_events")
        .values({
          id: "e4",
          device_id: deviceId,
          type: "close",
          close_reason: 1025,
          station: null,
          ts: now,
          received_at: now,
        })
        .execute();
      const again = await call(t.app, endpoints.getAfterSale, { as: tokens.owner, params: { id: requestId } });
      expect(again.status).toBe(200);
      expect(again.result).toEqual(created);

      const plain = await create("owner", { deviceId, description: "No diagnostics attached here." });
      expect(plain.result).toMatchObject({ diagnostics: null, photos: [], contactPhone: null });
    });
  });

  describeEndpoint(endpoints.getAfterSaleList, () => {
    it("lists only the caller's own requests, newest first, paged, with the handled filter", async () => {
      await create("member", { deviceId, description: "The member's own request." });
      await create("owner", { deviceId, description: "Third request of the owner." });

      const page1 = (
        await call(t.app, endpoints.getAfterSaleList, { as: tokens.owner, query: { maxResultCount: "2" } })
      ).result;
      expect(page1.totalCount).toBe(3);
      expect(page1.items.map((i: { description: string }) => i.description)).toEqual([
        "Third request of the owner.",
        "No diagnostics attached here.",
      ]);
      const page2 = (
        await call(t.app, endpoints.getAfterSaleList, {
          as: tokens.owner,
          query: { skipCount: "2", maxResultCount: "2" },
        })
      ).result;
      expect(page2).toMatchObject({ totalCount: 3, items: [{ id: requestId }] });
      const defaults = (await call(t.app, endpoints.getAfterSaleList, { as: tokens.owner })).result;
      expect(defaults.items).toHaveLength(3);

      const member = (await call(t.app, endpoints.getAfterSaleList, { as: tokens.member })).result;
      expect(member.totalCount).toBe(1);
      expect(member.items[0].description).toBe("The member's own request.");
      expect((await call(t.app, endpoints.getAfterSaleList, { as: tokens.stranger })).result).toEqual({
        items: [],
        totalCount: 0,
      });

      const bad = await call(t.app, endpoints.getAfterSaleList, { as: tokens.owner, query: { handled: "maybe" } });
      expect(bad.status).toBe(400);
      expect(bad.body.error.validationErrors[0].members).toEqual(["handled"]);
    });
  });

  it("never lets another user — stranger or member of the same household — read, edit or delete a request", async () => {
    for (const who of ["member", "stranger"] as const) {
      const get = await call(t.app, endpoints.getAfterSale, { as: tokens[who], params: { id: requestId }, lang: "ru" });
      expect(get.status).toBe(404);
      expect(get.body.error.message).toBe("Заявка на сервисное обслуживание не найдена.");
      const put = await call(t.app, endpoints.updateAfterSale, {
        as: tokens[who],
        params: { id: requestId },
        body: { description: "Hijacked description here." },
      });
      expect(put.status).toBe(404);
      const del = await call(t.app, endpoints.deleteAfterSale, { as: tokens[who], params: { id: requestId } });
      expect(del.status).toBe(404);
    }
    const row = await t.db
      .selectFrom("after_sale_requests")
      .selectAll()
      .where("id", "=", requestId)
      .executeTakeFirstOrThrow();
    expect(row.description).toBe("Water on the floor next to the softener every night.");
  });

  describeEndpoint(endpoints.updateAfterSale, () => {
    it("edits an unhandled request: new text, photos, diagnostics withdrawn or refreshed", async () => {
      clock.ms += 60_000;
      const withdrawn = await call(t.app, endpoints.updateAfterSale, {
        as: tokens.owner,
        params: { id: requestId },
        body: { description: "Leak found at the brine tank overflow.", photos: [] },
      });
      expect(withdrawn.status).toBe(200);
      expect(withdrawn.result).toMatchObject({
        description: "Leak found at the brine tank overflow.",
        photos: [],
        contactPhone: null,
        diagnostics: null,
        lastModificationTime: new Date(clock.ms).toISOString(),
      });
      const refreshed = await call(t.app, endpoints.updateAfterSale, {
        as: tokens.owner,
        params: { id: requestId },
        body: { description: "Leak found at the brine tank overflow.", attachDiagnostics: true },
      });
      const events = refreshed.result.diagnostics!.events;
      expect(events[0]).toMatchObject({ type: "close", closeReason: 1025 });
      const short = await call(t.app, endpoints.updateAfterSale, {
        as: tokens.owner,
        params: { id: requestId },
        body: { description: "x" },
        lang: "es",
      });
      expect(short.status).toBe(400);
      expect(short.body.error.validationErrors[0].message).toBe("description debe tener al menos 5 caracteres.");
    });

    it("refuses to edit or withdraw a handled request, in the caller's language; the owner reads the reply", async () => {
      const handled = await handleAfterSale(
        { db: t.db, now: () => new Date(clock.ms) },
        requestId,
        "Replace the overflow hose; a technician calls you today.",
      );
      expect(handled).toMatchObject({
        handled: true,
        reply: "Replace the overflow hose; a technician calls you today.",
      });
      for (const [lang, text] of [
        [
          "en",
          "This after-sales request has already been handled by the service team and can no longer be changed or withdrawn.",
        ],
        ["zh-CN", "该售后申请已由服务团队处理，不能再修改或撤回。"],
      ]) {
        const put = await call(t.app, endpoints.updateAfterSale, {
          as: tokens.owner,
          params: { id: requestId },
          body: { description: "Trying to change it late." },
          lang,
        });
        expect(put.status).toBe(409);
        expect(put.body.error.message).toBe(text);
        const del = await call(t.app, endpoints.deleteAfterSale, { as: tokens.owner, params: { id: requestId }, lang });
        expect(del.status).toBe(409);
        expect(del.body.error.message).toBe(text);
      }
      const read = (await call(t.app, endpoints.getAfterSale, { as: tokens.owner, params: { id: requestId } })).result;
      expect(read).toMatchObject({ handled: true, handledTime: new Date(clock.ms).toISOString() });
      const handledOnly = (
        await call(t.app, endpoints.getAfterSaleList, { as: tokens.owner, query: { handled: "true" } })
      ).result;
      expect(handledOnly).toMatchObject({ totalCount: 1, items: [{ id: requestId }] });
      const open = (await call(t.app, endpoints.getAfterSaleList, { as: tokens.owner, query: { handled: "false" } }))
        .result;
      expect(open.totalCount).toBe(2);
      expect(open.items.every((i: { handled: boolean }) => !i.handled)).toBe(true);
    });
  });

  describeEndpoint(endpoints.deleteAfterSale, () => {
    it("withdraws an unhandled request", async () => {
      const mine = (await call(t.app, endpoints.getAfterSaleList, { as: tokens.owner, query: { handled: "false" } }))
        .result;
      const id = mine.items[0].id;
      const del = await call(t.app, endpoints.deleteAfterSale, { as: tokens.owner, params: { id } });
      expect(del.status).toBe(200);
      expect(del.body).toMatchObject({ success: true, result: null });
      expect((await call(t.app, endpoints.getAfterSale, { as: tokens.owner, params: { id } })).status).toBe(404);
      expect((await call(t.app, endpoints.deleteAfterSale, { as: tokens.owner, params: { id } })).status).toBe(404);
    });
  });

  it("lets the service team list and handle requests from the operator CLI", async () => {
    const out: string[] = [];
    const err: string[] = [];
    const io = { out: (s: string) => out.push(s), err: (s: string) => err.push(s) };
    expect(await runAfterSaleCli(t.db, ["list", "--unhandled"], io)).toBe(0);
    const listing = out.join("");
    expect(listing).toContain("member@after-sale.test");
    expect(listing).toContain("Kitchen softener");
    expect(listing).not.toContain(requestId);
    const open = (await call(t.app, endpoints.getAfterSaleList, { as: tokens.member })).result.items[0];
    out.length = 0;
    expect(
      await runAfterSaleCli(t.db, ["handle", open.id, "--reply", "We will call you."], io, () => new Date(clock.ms)),
    ).toBe(0);
    expect(out.join("")).toContain(`${open.id} marked handled`);
    expect(await runAfterSaleCli(t.db, ["handle", open.id, "--reply", "Again."], io)).toBe(1);
    expect(err.join("")).toContain("already handled");
    expect(await runAfterSaleCli(t.db, ["handle", "nope", "--reply", "x"], io)).toBe(1);
    expect(await runAfterSaleCli(t.db, ["handle", open.id], io)).toBe(2);
    expect(await runAfterSaleCli(t.db, ["frobnicate"], io)).toBe(2);
    out.length = 0;
    expect(await runAfterSaleCli(t.db, ["list", "--json"], io)).toBe(0);
    const all = JSON.parse(out.join(""));
    expect(all.find((a: { id: string }) => a.id === requestId)).toMatchObject({
      handled: true,
      userName: expect.any(String),
    });
    const member = (await call(t.app, endpoints.getAfterSale, { as: tokens.member, params: { id: open.id } })).result;
    expect(member).toMatchObject({ handled: true, reply: "We will call you." });
  });

  it("keeps old requests readable after the device and the household are deleted", async () => {
    const del = await call(t.app, endpoints.deleteFamily, { as: tokens.owner, params: { id: familyId } });
    expect(del.status).toBe(200);
    await t.db.deleteFrom("devices").where("id", "=", deviceId).execute();
    const list = await call(t.app, endpoints.getAfterSaleList, { as: tokens.owner });
    expect(list.status).toBe(200);
    expect(list.result.items.map((i: { deviceName: string }) => i.deviceName)).toEqual([
      "Kitchen softener",
      "Kitchen softener",
    ]);
    const one = await call(t.app, endpoints.getAfterSale, { as: tokens.owner, params: { id: requestId } });
    expect(one.result).toMatchObject({ deviceId, familyId, deviceName: "Kitchen softener" });
    const gone = await create("owner", { deviceId, description: "The device no longer exists." });
    expect(gone.status).toBe(404);
  });
});
