import Markdown, { type Components, defaultUrlTransform } from "react-markdown";
import { imageUrl } from "../../../shared/api/api-host.ts";
import { navigateTo, PATHS } from "../../../shared/navigation/index.ts";

/** Prefix of links from one article to another: `[Salt](article:salt)`. */
const ARTICLE_LINK = "article:";

/**
 * Link rule of article Markdown: links to other articles (`article:<id>`) and phone numbers (`tel:`) are kept; every
 * other URL goes through react-markdown's safe default (http, https, mailto and relative only, so no `javascript:`).
 */
export function articleUrlTransform(url: string): string {
  if (url.startsWith(ARTICLE_LINK) || url.startsWith("tel:")) return url;
  return defaultUrlTransform(url);
}

const components: Components = {
  a: ({ href, children }) => {
    if (href?.startsWith(ARTICLE_LINK)) {
      const id = href.slice(ARTICLE_LINK.length);
      return (
        <a
          href={`#${PATHS.Article}`}
          onClick={(e) => {
            e.preventDefault();
            navigateTo(PATHS.Article, { id });
          }}
        >
          {children}
        </a>
      );
    }
    const external = Boolean(href && /^https?:/i.test(href));
    return (
      <a href={href} target={external ? "_blank" : undefined} rel={external ? "noopener noreferrer" : undefined}>
        {children}
      </a>
    );
  },
  img: ({ src, alt }) => {
    const url = typeof src === "string" ? imageUrl(src) : null;
    return url ? <img src={url} alt={alt ?? ""} loading="lazy" /> : null;
  },
};

/**
 * Renders an article's Markdown (CommonMark) safely: raw HTML is dropped (`skipHtml`), URLs pass
 * {@link articleUrlTransform}, images get the API host (spec §7 "Images").
 */
export function MarkdownContent({ source, testId }: { source: string; testId?: string }) {
  return (
    <div className="markdown" data-testid={testId}>
      <Markdown skipHtml urlTransform={articleUrlTransform} components={components}>
        {source}
      </Markdown>
    </div>
  );
}
