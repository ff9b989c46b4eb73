import { endpoints } from "@aquapilot/contract";
import type { FastifyInstance } from "fastify";
import { registerOpenEndpoint } from "../../http/route.ts";
import type { AppContext } from "../context.ts";
import { seedArticles } from "./seed.ts";
import { getArticle, listArticles } from "./service.ts";

/**
 * Routes of spec §7 /api/business-basic-data/app/article (open: no token needed, spec §2 "Article"), answered in
 * the caller's Accept-Language with zh-Hans fallback. Seeds the help content (content/<lang>/<id>.md) when the app
 * becomes ready, idempotently (see {@link seedArticles}).
 */
export function articleRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.addHook("onReady", async () => {
    await seedArticles(ctx.db, ctx.now());
  });
  registerOpenEndpoint(app, endpoints.getArticleList, async ({ query, lang }) => listArticles(ctx.db, lang, query));
  registerOpenEndpoint(app, endpoints.getArticle, async ({ params, lang }) => getArticle(ctx.db, params.id, lang));
}
