import { LANGUAGES, type Language, type TArticle, type TArticleSummary, type TPaged } from "@aquapilot/contract";
import { DEMO_ACCOUNT, type DevSystem } from "@aquapilot/dev";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import afterSaleEn from "../../apps/web/src/features/after-sale/locales/en.json" with { type: "json" };
import afterSaleEs from "../../apps/web/src/features/after-sale/locales/es.json" with { type: "json" };
import afterSaleFr from "../../apps/web/src/features/after-sale/locales/fr.json" with { type: "json" };
import afterSaleRu from "../../apps/web/src/features/after-sale/locales/ru.json" with { type: "json" };
import afterSaleZhHans from "../../apps/web/src/features/after-sale/locales/zh-Hans.json" with { type: "json" };
import articleEn from "../../apps/web/src/features/article/locales/en.json" with { type: "json" };
import articleEs from "../../apps/web/src/features/article/locales/es.json" with { type: "json" };
import articleFr from "../../apps/web/src/features/article/locales/fr.json" with { type: "json" };
import articleRu from "../../apps/web/src/features/article/locales/ru.json" with { type: "json" };
import articleZhHans from "../../apps/web/src/features/article/locales/zh-Hans.json" with { type: "json" };
import messageEn from "../../apps/web/src/features/message/locales/en.json" with { type: "json" };
import messageEs from "../../apps/web/src/features/message/locales/es.json" with { type: "json" };
import messageFr from "../../apps/web/src/features/message/locales/fr.json" with { type: "json" };
import messageRu from "../../apps/web/src/features/message/locales/ru.json" with { type: "json" };
import messageZhHans from "../../apps/web/src/features/message/locales/zh-Hans.json" with { type: "json" };
import { apiCall, openRoute, signInOnPage } from "../support/api.ts";
import { launchPhone, newPageIn, type Phone } from "../support/browser.ts";
import { startTestSystem } from "../support/system.ts";

const ARTICLE = { en: articleEn, "zh-Hans": articleZhHans, es: articleEs, ru: articleRu, fr: articleFr } as const;
const MESSAGE = { en: messageEn, "zh-Hans": messageZhHans, es: messageEs, ru: messageRu, fr: messageFr } as const;
const AFTER_SALE = {
  en: afterSaleEn,
  "zh-Hans": afterSaleZhHans,
  es: afterSaleEs,
  ru: afterSaleRu,
  fr: afterSaleFr,
} as const;
const ARTICLE_API = "/api/business-basic-data/app/article";

/**
 * Help articles and the list screens in Chromium: a help article opens on a phone that never signed in, in each of
 * the five languages, with the title the server answers for that language; the help list's search keeps exactly the
 * matching articles; the message centre, after-sales list and help list show their titles and tabs from the app's own
 * five locales.
 */
describe("help articles and list screens in five languages", () => {
  let system: DevSystem;
  let phone: Phone;

  beforeAll(async () => {
    system = await startTestSystem({ SIM_DEVICES: "1" });
    phone = await launchPhone("en-US");
  });
  afterAll(async () => {
    await phone?.close();
    await system?.close();
  });

  const pageIn = (lang: Language) => newPageIn(phone.context, lang);

  const navTitle = (page: Page, screen: string) =>
    page.getByTestId(screen).locator(".adm-nav-bar-title").first().textContent();

  it("an article opens without signing in, in each of the five languages, with the server's title", async () => {
    for (const lang of LANGUAGES) {
      const expected = await apiCall<TArticle>(system.url, `${ARTICLE_API}/salt`, { lang });
      expect(expected.status).toBe(200);
      expect(expected.result.language).toBe(lang);
      const page = await pageIn(lang);
      await openRoute(page, system.url, "/Article", { id: "salt" }, "article-screen");
      expect(await page.evaluate(() => localStorage.getItem("token"))).toBeNull();
      await page.locator('[data-testid="article"][data-article-id="salt"]').waitFor({ timeout: 10_000 });
      expect(await page.getByTestId("article-title").textContent(), lang).toBe(expected.result.title);
      expect(await navTitle(page, "article-screen")).toBe(ARTICLE[lang].article.help);
      expect(((await page.getByTestId("article-content").textContent()) ?? "").length).toBeGreaterThan(200);
      expect(await page.getByTestId("article-updated").count()).toBe(1);
      // Served in the asked language, so no fallback note; and the open route stayed (no detour to Login).
      expect(await page.getByTestId("article-fallback").count()).toBe(0);
      expect(page.url()).not.toContain("/login");
      await page.close();
    }
  });

  it("the help list's search keeps exactly the articles that match the keyword", async () => {
    const page = await pageIn("en");
    const all = await apiCall<TPaged<TArticleSummary>>(
      system.url,
      `${ARTICLE_API}/get-list?category=help&skipCount=0&maxResultCount=15`,
    );
    const matching = await apiCall<TPaged<TArticleSummary>>(
      system.url,
      `${ARTICLE_API}/get-list?category=help&keyword=brine&skipCount=0&maxResultCount=15`,
    );
    const allIds = all.result.items.map((a) => a.id);
    const matchingIds = matching.result.items.map((a) => a.id);
    expect(matchingIds.length).toBeGreaterThan(0);
    expect(matchingIds.length).toBeLessThan(allIds.length);

    await openRoute(page, system.url, "/Article", undefined, "help-list-screen");
    const ids = () =>
      page.getByTestId("help-row").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-article-id")));
    await expect.poll(ids, { timeout: 10_000 }).toEqual(allIds);
    const search = page.getByTestId("help-search").locator("input");
    expect(await search.getAttribute("placeholder")).toBe(articleEn.article.searchPlaceholder);
    await search.fill("brine");
    await expect.poll(ids, { timeout: 10_000 }).toEqual(matchingIds);
    // A word no article has: the empty state with its hint.
    await search.fill("zeolite-xyz");
    await page.getByTestId("help-list-empty").waitFor({ timeout: 10_000 });
    expect(await page.getByTestId("help-list-empty").textContent()).toContain(articleEn.article.noResults);
    await search.fill("");
    await expect.poll(ids, { timeout: 10_000 }).toEqual(allIds);
    // A row opens its article.
    await page.locator(`[data-testid="help-row"][data-article-id="${matchingIds[0]}"]`).click();
    await page.locator(`[data-testid="article"][data-article-id="${matchingIds[0]}"]`).waitFor({ timeout: 10_000 });
    await page.close();
  });

  it("the message centre, after-sales list and help list show their titles and tabs in each language", async () => {
    const first = await pageIn("en");
    await signInOnPage(first, system.url, DEMO_ACCOUNT.email, DEMO_ACCOUNT.password);
    await first.close();
    for (const lang of LANGUAGES) {
      const page = await pageIn(lang);
      const m = MESSAGE[lang].message;
      await openRoute(page, system.url, "/MessageDetails", { filter: "all" }, "message-centre-screen");
      expect(await navTitle(page, "message-centre-screen"), lang).toBe(m.centre);
      expect(await page.getByTestId("message-mark-all-read").textContent()).toContain(m.markAllRead);
      for (const f of ["all", "read", "unread"] as const) {
        expect(await page.getByTestId(`message-tab-${f}`).textContent()).toContain(m.filter[f]);
      }

      const a = AFTER_SALE[lang].afterSale;
      await openRoute(page, system.url, "/AfterSaleList", { tab: "unhandled" }, "after-sale-list-screen");
      expect(await navTitle(page, "after-sale-list-screen"), lang).toBe(a.title);
      expect(await page.getByTestId("after-sale-tab-unhandled").textContent()).toBe(a.status.unhandled);
      expect(await page.getByTestId("after-sale-tab-handled").textContent()).toBe(a.status.handled);
      expect(await page.getByTestId("after-sale-new").textContent()).toContain(a.new);

      await openRoute(page, system.url, "/Article", undefined, "help-list-screen");
      expect(await navTitle(page, "help-list-screen"), lang).toBe(ARTICLE[lang].article.help);
      expect(await page.getByTestId("help-search").locator("input").getAttribute("placeholder")).toBe(
        ARTICLE[lang].article.searchPlaceholder,
      );
      // The rows are the server's help articles in this language.
      const titles = await apiCall<TPaged<TArticleSummary>>(
        system.url,
        `${ARTICLE_API}/get-list?category=help&skipCount=0&maxResultCount=15`,
        { lang },
      );
      await expect
        .poll(() => page.getByTestId("help-row").first().textContent(), { timeout: 10_000 })
        .toContain(titles.result.items[0].title);
      await page.close();
    }
  });
});
