import { endpoints } from "@aquapilot/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../../test/call.ts";
import { bearer, createTestApp, registerByEmail, type TestApp } from "../../test/helpers.ts";
import { storeAnnouncement } from "./announce.ts";

describe("npm run announce (platform announcements)", () => {
  let t: TestApp;
  let aId: string;
  let bId: string;
  beforeAll(async () => {
    t = await createTestApp();
    aId = await registerByEmail(t.app, "a@home.test", "pass-word-1");
    bId = await registerByEmail(t.app, "b@home.test", "pass-word-1");
  });
  afterAll(() => t.close());

  const countFor = async (userId: string) =>
    (
      await t.db.selectFrom("messages").select("title").where("user_id", "=", userId).orderBy("creation_time").execute()
    ).map((m) => m.title);

  it("stores one unpublished type-3 message per live user, which the server's worker then publishes", async () => {
    const r = await storeAnnouncement(t.db, t.config, { title: " Maintenance ", content: "Tonight 02:00" });
    expect(r?.count).toBe(2);
    expect(await countFor(aId)).toEqual(["Maintenance"]);
    const source = await t.db
      .selectFrom("message_sources")
      .selectAll()
      .where("source_key", "=", r?.sourceKey ?? "")
      .executeTakeFirstOrThrow();
    expect(source.published_at).toBeNull();
    expect(await t.app.messages.publishPending()).toBe(2);
  });

  it("sends to one user with --user, refuses an unknown e-mail and empty texts", async () => {
    expect(
      (await storeAnnouncement(t.db, t.config, { title: "Hi", content: "Only B", userEmail: "B@home.test" }))?.count,
    ).toBe(1);
    expect(await countFor(bId)).toEqual(["Maintenance", "Hi"]);
    expect(await countFor(aId)).toEqual(["Maintenance"]);
    expect(
      await storeAnnouncement(t.db, t.config, { title: "Hi", content: "x", userEmail: "nobody@home.test" }),
    ).toBeNull();
    await expect(storeAnnouncement(t.db, t.config, { title: " ", content: "x" })).rejects.toThrow(RangeError);
  });

  it("keeps the languages it was written in: each reader gets theirs, else the main text", async () => {
    await storeAnnouncement(t.db, t.config, {
      title: "Price change",
      content: "From March",
      userEmail: "a@home.test",
      texts: { fr: { title: "Changement de prix", content: "À partir de mars" } },
    });
    const auth = await bearer(t.app, "a@home.test", "pass-word-1");
    const newest = async (lang: string) =>
      (await call(t, endpoints.getUserMessageList, { as: auth, lang })).result.items[0];
    expect(await newest("fr")).toMatchObject({ title: "Changement de prix", content: "À partir de mars" });
    expect(await newest("ru")).toMatchObject({ title: "Price change", content: "From March" });
    await expect(
      storeAnnouncement(t.db, t.config, { title: "x", content: "y", texts: { fr: { title: "", content: "z" } } }),
    ).rejects.toThrow(RangeError);
  });
});
