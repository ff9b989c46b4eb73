import { catalogue } from "../../http/catalogue.ts";
import { registerMessages } from "../../http/messages.ts";

/** Texts of the article module in the five languages (spec §1); English is the source. */
export const articleMessages = catalogue(
  { "article.notFound": "Article not found." },
  {
    "zh-Hans": { "article.notFound": "文章不存在。" },
    es: { "article.notFound": "Artículo no encontrado." },
    ru: { "article.notFound": "Статья не найдена." },
    fr: { "article.notFound": "Article introuvable." },
  },
);

declare module "../../http/messages.ts" {
  /** This module's keys in the catalogue's key union (http/messages.ts {@link CatalogueKeys}). */
  interface CatalogueKeys extends Record<keyof (typeof articleMessages)["en"], true> {}
}

// The HTTP layer translates this module's keys once the module is loaded (http/messages.ts registerMessages).
registerMessages(articleMessages);
