import { endpoints } from "@aquapilot/contract";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { CORE_PLUGIN, type CoreServices, coreServices } from "../../core-services.ts";
import { registerOpenEndpoint } from "../../http/route.ts";
import { seedArticles } from "./seed.ts";
import { getArticle, listArticles } from "./service.ts";

/**
 * Routes of spec §7 /api/business-basic-data/app/article (open: no token needed, spec §2 "Article"), answered in
 * the caller's Accept-Language with zh-Hans fallback. Seeds the help content (content/<lang>/<id>.md) when the app
 * becomes ready, idempotently (see {@link seedArticles}).
 */
function articleRoutes(app: FastifyInstance, ctx: CoreServices): void {
  app.addHook("onReady", async () => {
    await seedArticles(ctx.db, ctx.now());
  });
  registerOpenEndpoint(app, endpoints.getArticleList, async ({ query, lang }) => listArticles(ctx.db, lang, query));
  registerOpenEndpoint(app, endpoints.getArticle, async ({ params, lang }) => getArticle(ctx.db, params.id, lang));
}

/**
 * The article module as the plugin "module-article": {@link articleRoutes} on the core's decorations ({@link
 * coreServices}). Encapsulated: its hooks apply to its own routes only; it decorates nothing another module uses.
 */
export const articleModule = fp(async (app) => articleRoutes(app, coreServices(app)), {
  name: "module-article",
  fastify: "5.x",
  dependencies: [CORE_PLUGIN],
  encapsulate: true,
});
