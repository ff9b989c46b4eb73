import { LANGUAGES } from "@aquapilot/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, openTestDatabase, type TestDatabase } from "../../../test/databases.ts";
import { PRIVACY_POLICY_ARTICLE_ID, USER_AGREEMENT_ARTICLE_ID } from "./ids.ts";
import { type ArticleSeed, loadArticleSeeds, parseArticleFile, seedArticles } from "./seed.ts";
import { getArticle, listArticles } from "./service.ts";

describe("seeded help content", () => {
  const seeds = loadArticleSeeds();

  it("has every article in all five languages with the same category and sort, and real text", () => {
    const ids = [...new Set(seeds.map((s) => s.id))];
    expect(ids).toEqual(
      expect.arrayContaining([
        "salt",
        "regeneration",
        "vacation-mode",
        "add-device",
        "water-statistics",
        "fault-alarms",
        PRIVACY_POLICY_ARTICLE_ID,
        USER_AGREEMENT_ARTICLE_ID,
      ]),
    );
    for (const id of ids) {
      const versions = seeds.filter((s) => s.id === id);
      expect(versions.map((v) => v.language).sort()).toEqual([...LANGUAGES].sort());
      expect(new Set(versions.map((v) => `${v.category}/${v.sort}`)).size).toBe(1);
      for (const v of versions) expect(v.content.length, `${v.language}/${id}`).toBeGreaterThan(300);
    }
    expect(seeds.find((s) => s.id === PRIVACY_POLICY_ARTICLE_ID)?.category).toBe("policy");
  });

  it("names the spec's stations and close reasons in every language", () => {
    for (const lang of LANGUAGES) {
      const faults = seeds.find((s) => s.id === "fault-alarms" && s.language === lang);
      for (const code of ["257", "513", "769", "1025"]) expect(faults?.content).toContain(`## ${code} `);
    }
    const en = seeds.find((s) => s.id === "regeneration" && s.language === "en")?.content ?? "";
    for (const station of ["Backwashing", "Brine draw and slow rinse", "Brine refilling", "Fast rinsing"]) {
      expect(en).toContain(`**${station}**`);
    }
  });

  it("refuses a file without front matter or with a bad category", () => {
    expect(() => parseArticleFile("# Title\n", "x", "en")).toThrow(/front matter/);
    expect(() => parseArticleFile("---\ntitle: T\nsummary: S\ncategory: news\nsort: 1\n---\nBody", "x", "en")).toThrow(
      /category/,
    );
  });
});

describe.each(ENGINES)("article data layer on %s", (engine) => {
  let tdb: TestDatabase;
  const seed = (over: Partial<ArticleSeed> = {}): ArticleSeed => ({
    id: "softening",
    language: "en",
    category: "help",
    sort: 5,
    title: "Softening Basics",
    summary: "What ÉCHANGE d'ions means.",
    content: "Resin exchanges **Calcium** for sodium.\n",
    ...over,
  });

  beforeAll(async () => {
    tdb = await openTestDatabase(engine);
  });
  afterAll(() => tdb?.close());

  it("upserts idempotently, also when two servers seed at once, and moves the time only on change", async () => {
    const rows = [
      seed(),
      seed({ language: "zh-Hans", title: "软化基础", summary: "离子交换", content: "树脂交换钙离子。\n" }),
    ];
    const counts = await Promise.all([
      seedArticles(tdb.db, new Date("2026-01-01T00:00:00Z"), rows),
      seedArticles(tdb.db, new Date("2026-01-01T00:00:00Z"), rows),
    ]);
    expect(counts.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(2);
    expect(await seedArticles(tdb.db, new Date("2026-02-01T00:00:00Z"), rows)).toBe(0);
    let en = await getArticle(tdb.db, "softening", "en");
    expect(en.lastModificationTime).toBe("2026-01-01T00:00:00.000Z");
    const changed = [{ ...rows[0], content: "Resin exchanges **Calcium** and magnesium for sodium.\n" }, rows[1]];
    expect(await seedArticles(tdb.db, new Date("2026-03-01T00:00:00Z"), changed)).toBe(1);
    en = await getArticle(tdb.db, "softening", "en");
    expect(en).toMatchObject({ lastModificationTime: "2026-03-01T00:00:00.000Z", content: changed[0].content });
    const count = await tdb.db
      .selectFrom("articles")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(2);
  });

  it("falls back to zh-Hans and searches the same way on both engines", async () => {
    expect((await getArticle(tdb.db, "softening", "ru")).language).toBe("zh-Hans");
    const search = async (keyword: string, lang: "en" | "ru" | "zh-Hans") =>
      (await listArticles(tdb.db, lang, { keyword })).items.map((a) => `${a.id}/${a.language}`);
    expect(await search("softening BASICS", "en")).toEqual(["softening/en"]);
    expect(await search("échange", "en")).toEqual(["softening/en"]);
    expect(await search("calcium and", "en")).toEqual(["softening/en"]);
    expect(await search("钙离子", "ru")).toEqual(["softening/zh-Hans"]);
    expect(await search("calcium", "ru")).toEqual([]);
    expect(await search("x%", "en")).toEqual([]);
    const page = await listArticles(tdb.db, "en", { skipCount: 0, maxResultCount: 15 });
    expect(page).toMatchObject({ totalCount: 1, items: [{ id: "softening", language: "en", sort: 5 }] });
  });

  it("seeds the shipped content", async () => {
    expect(await seedArticles(tdb.db, new Date("2026-04-01T00:00:00Z"))).toBeGreaterThanOrEqual(40);
    expect(await seedArticles(tdb.db, new Date("2026-04-02T00:00:00Z"))).toBe(0);
    const list = await listArticles(tdb.db, "fr", { keyword: "SAUMURE" });
    expect(list.items.map((a) => a.id)).toEqual(expect.arrayContaining(["salt", "regeneration"]));
  });
});
