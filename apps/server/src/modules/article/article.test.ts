import { endpoints } from "@aquapilot/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, describeEndpoint, type QueryOptions } from "../../../test/call.ts";
import { createTestApp, type TestApp } from "../../../test/helpers.ts";
import { searchable } from "./seed.ts";

const HELP_IDS = ["salt", "regeneration", "vacation-mode", "add-device", "water-statistics", "fault-alarms"];
// One article per fault, linked from the fault list, after the general one.
HELP_IDS.push("fault-leak", "fault-excessive-flow", "fault-continuous-use", "fault-valve-button", "fault-offline");
const POLICY_IDS = ["privacy-policy", "user-agreement"];

describe("help articles over HTTP (spec §7 article)", () => {
  let t: TestApp;
  /** The article list, without a token; no Accept-Language unless `opts.lang`. */
  const list = (opts: { query?: QueryOptions<typeof endpoints.getArticleList>; lang?: string } = {}) =>
    call(t, endpoints.getArticleList, { query: opts.query, lang: opts.lang ?? null });
  /** One article, without a token; no Accept-Language unless `lang`. */
  const article = (id: string, lang?: string) => call(t, endpoints.getArticle, { params: { id }, lang: lang ?? null });

  beforeAll(async () => {
    t = await createTestApp();
    // An article that only exists in zh-Hans, to see the fallback.
    await t.db
      .insertInto("articles")
      .values({
        id: "zh-only",
        language: "zh-Hans",
        category: "help",
        sort: 70,
        title: "仅中文的文章",
        summary: "只有中文版本。",
        content: "这篇文章只有中文版本，用来检验回退。\n",
        search_text: searchable("仅中文的文章\n只有中文版本。\n这篇文章只有中文版本，用来检验回退。"),
        content_hash: "x",
        last_modification_time: "2026-01-01T00:00:00.000Z",
      })
      .execute();
  });
  afterAll(() => t.close());

  describeEndpoint(endpoints.getArticleList, () => {
    it("seeds the help and the policies at start and serves them without a token, sorted, in the caller's language", async () => {
      for (const lang of ["en", "es", "ru", "fr", "zh-CN"]) {
        const res = await list({ lang, query: { maxResultCount: "100" } });
        expect(res.status).toBe(200);
        const { items, totalCount } = res.result;
        expect(totalCount).toBe(14);
        expect(items.map((a) => a.id)).toEqual([...HELP_IDS, "zh-only", ...POLICY_IDS]);
        const expected = lang === "zh-CN" ? "zh-Hans" : lang;
        expect(items.filter((a) => a.id !== "zh-only").every((a) => a.language === expected)).toBe(true);
        expect(items.find((a) => a.id === "zh-only")).toMatchObject({
          language: "zh-Hans",
          title: "仅中文的文章",
        });
        expect(items[0]).not.toHaveProperty("content");
      }
      const noHeader = (await list()).result.items[0];
      expect(noHeader).toMatchObject({ id: "salt", language: "zh-Hans", category: "help" });
    });

    it("searches title, summary and content case-insensitively, in the served version only", async () => {
      const ids = async (keyword: string, lang: string) =>
        (await list({ lang, query: { keyword } })).result.items.map((a) => a.id);
      expect(await ids("VACATION", "en")).toEqual(expect.arrayContaining(["vacation-mode"]));
      expect(await ids("1025", "en")).toEqual(["fault-alarms"]);
      expect(await ids("pairing code", "en")).toEqual(["add-device"]);
      expect(await ids("ОБРАТНАЯ ПРОМЫВКА", "ru")).toEqual(expect.arrayContaining(["regeneration"]));
      expect(await ids("ÉCHEC", "fr")).toEqual(["add-device"]);
      expect(await ids("回退", "en")).toEqual(["zh-only"]);
      expect(await ids("回退", "zh-Hans")).toEqual(["zh-only"]);
      // An English word is not found through another language's version.
      expect(await ids("brine", "ru")).toEqual([]);
      // LIKE wildcards are literal.
      expect(await ids("99.5 %", "en")).toEqual(["salt"]);
      expect(await ids("9%5", "en")).toEqual([]);
      const policies = (await list({ lang: "en", query: { category: "policy" } })).result;
      expect(policies.items.map((a) => a.id)).toEqual(POLICY_IDS);
      expect(policies.totalCount).toBe(2);
      const tooLong = await list({ lang: "fr", query: { keyword: "x".repeat(65) } });
      expect(tooLong.status).toBe(400);
      expect(tooLong.body.error.validationErrors[0]).toEqual({
        message: "keyword doit contenir au plus 64 caractères.",
        members: ["keyword"],
      });
    });

    it("pages with skipCount and maxResultCount and reports totalCount", async () => {
      const page = async (skip: number, max: number) =>
        (await list({ lang: "en", query: { skipCount: String(skip), maxResultCount: String(max) } })).result;
      const first = await page(0, 4);
      expect(first.totalCount).toBe(14);
      expect(first.items.map((a) => a.id)).toEqual(HELP_IDS.slice(0, 4));
      const last = await page(13, 4);
      expect(last.items.map((a) => a.id)).toEqual(["user-agreement"]);
      expect((await page(20, 4)).items).toEqual([]);
      const keyworded = (await list({ lang: "en", query: { keyword: "salt", maxResultCount: "2" } })).result;
      expect(keyworded.items).toHaveLength(2);
      expect(keyworded.totalCount).toBeGreaterThan(2);
    });
  });

  describeEndpoint(endpoints.getArticle, () => {
    it("answers one article in the caller's language, else zh-Hans; Markdown content; 404 in the caller's language", async () => {
      const en = await article("salt", "en-GB,en;q=0.9");
      expect(en.status).toBe(200);
      expect(en.result).toMatchObject({
        id: "salt",
        language: "en",
        category: "help",
        title: "Salt: how it works and when to refill",
        sort: 10,
      });
      expect(en.result.content).toMatch(/^## Why a softener needs salt/);
      const ru = (await article("regeneration", "ru")).result;
      expect(ru.content).toContain("Обратная промывка");
      const fallback = (await article("zh-only", "fr")).result;
      expect(fallback).toMatchObject({ id: "zh-only", language: "zh-Hans", content: expect.stringContaining("回退") });
      const missing = await article("no-such-article", "es");
      expect(missing.status).toBe(404);
      expect(missing.body).toMatchObject({
        success: false,
        error: { code: "NotFound", message: "Artículo no encontrado." },
      });
      const policy = (await article("privacy-policy", "de")).result;
      expect(policy).toMatchObject({ category: "policy", language: "zh-Hans", title: "隐私政策" });
    });
  });
});
