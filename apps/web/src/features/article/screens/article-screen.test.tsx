import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fail, never, renderScreen, routeOf } from "../../../shared/testing/render.tsx";
import { ArticleScreen } from "./article-screen.tsx";

const article = {
  id: "a1",
  title: "Refilling salt",
  content: "Pour **salt** into the tank.",
  language: "en",
  lastModificationTime: "2026-04-02T08:00:00Z",
};

describe("Article screen: one article", () => {
  it("shows a skeleton while loading", async () => {
    const view = await renderScreen(<ArticleScreen />, {
      route: routeOf("/Article", { id: "a1" }),
      session: null,
      api: { getArticle: never },
    });
    expect(view.container.querySelector(".adm-skeleton-title")).not.toBeNull();
  });

  it("shows the title, the update date and the Markdown content", async () => {
    const view = await renderScreen(<ArticleScreen />, {
      route: routeOf("/Article", { id: "a1" }),
      session: null,
      api: { getArticle: article },
    });
    expect((await screen.findByTestId("article-title")).textContent).toBe("Refilling salt");
    expect(screen.getByTestId("article-updated").textContent).toBe("Last updated 2026-04-02");
    expect(screen.getByText("salt").tagName).toBe("STRONG");
    expect(screen.queryByTestId("article-fallback")).toBeNull();
    expect(view.api.lastCall("getArticle").params).toEqual({ id: "a1" });
  });

  it("says when the article is shown in Chinese", async () => {
    await renderScreen(<ArticleScreen />, {
      route: routeOf("/Article", { id: "a1" }),
      api: { getArticle: { ...article, language: "zh-Hans" } },
    });
    expect(await screen.findByTestId("article-fallback")).toBeTruthy();
  });

  it("says an unknown article is gone, and offers a retry for other failures", async () => {
    const view = await renderScreen(<ArticleScreen />, {
      route: routeOf("/Article", { id: "nope" }),
      api: { getArticle: () => fail(404, "Not found") },
    });
    expect(await screen.findByText("This article is no longer available")).toBeTruthy();
    expect(screen.queryByText("Retry")).toBeNull();
    view.unmount();
    await renderScreen(<ArticleScreen />, {
      route: routeOf("/Article", { id: "a1" }),
      api: { getArticle: () => fail(500, "Boom") },
    });
    expect(await screen.findByText("Retry")).toBeTruthy();
  });
});

describe("Article screen: the help list", () => {
  it("lists the help articles and opens one", async () => {
    const view = await renderScreen(<ArticleScreen />, {
      route: "/Article",
      api: {
        getArticleList: {
          totalCount: 2,
          items: [
            { id: "a1", title: "Refilling salt", summary: "Every few weeks" },
            { id: "a2", title: "Error codes", summary: null },
          ],
        },
      },
    });
    await waitFor(() => expect(screen.getAllByTestId("help-row")).toHaveLength(2));
    expect(screen.getByText("Every few weeks")).toBeTruthy();
    expect(view.api.lastCall("getArticleList").query).toMatchObject({ category: "help" });
    fireEvent.click(screen.getByText("Error codes"));
    expect(view.navigatedParams()).toEqual({ id: "a2" });
  });

  it("searches by the keyword of the route and says when nothing matches", async () => {
    const view = await renderScreen(<ArticleScreen />, {
      route: routeOf("/Article", { keyword: "leak" }),
      api: { getArticleList: { totalCount: 0, items: [] } },
    });
    expect(await screen.findByText("No matching articles")).toBeTruthy();
    await waitFor(() => expect(view.api.lastCall("getArticleList").query).toMatchObject({ keyword: "leak" }));
  });
});
