import type { TArticleSummary } from "@aquapilot/contract/wire";
import { Button, SearchBar, Skeleton } from "antd-mobile";
import { ExclamationCircleOutline, QuestionCircleOutline, RightOutline } from "antd-mobile-icons";
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../../shared/api/errors.ts";
import { currentLanguage } from "../../../shared/i18n/index.ts";
import { navigateTo, PATHS, useRouteParams } from "../../../shared/navigation/index.ts";
import { formatDate, PageShell, StateBlock } from "../../../shared/ui/index.ts";
import { PagedList, type PageRequest } from "../../../shared/ui/paged-list.tsx";
import { useArticle } from "../api/get-article.ts";
import { getHelpArticlePage } from "../api/get-article-list.ts";
import { articleKeys } from "../api/keys.ts";
import { MarkdownContent } from "../components/markdown-content.tsx";
import "../article.css";

/** Navigation params of /Article: `id` opens one article; without it the help list shows (searching `keyword`). */
export interface ArticleParams {
  id?: string;
  keyword?: string;
}

/** Pause after typing before the help list searches, ms (spec §9 search debounce). */
export const HELP_SEARCH_DEBOUNCE_MS = 500;

/**
 * /Article (spec §2 "help detail", open without a token): with `{id}` one article — title, last update and the
 * Markdown content rendered safely; without an id the help list (My tab → Help): paged (spec §4), searchable by
 * keyword.
 */
export function ArticleScreen() {
  const { id, keyword } = useRouteParams<ArticleParams>();
  return id ? <ArticleView id={id} /> : <HelpList initialKeyword={keyword ?? ""} />;
}

const itemKey = (a: TArticleSummary) => a.id;

/** The help list: a search box and the paged articles of category "help". */
function HelpList({ initialKeyword }: { initialKeyword: string }) {
  const { t } = useTranslation();
  const [text, setText] = useState(initialKeyword);
  const [keyword, setKeyword] = useState(initialKeyword.trim());

  useEffect(() => {
    const timer = setTimeout(() => setKeyword(text.trim()), HELP_SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  const fetchPage = useCallback(
    (page: PageRequest, signal?: AbortSignal) => getHelpArticlePage(keyword, page, signal),
    [keyword],
  );

  return (
    <PageShell title={t("article.help")} testId="help-list-screen" className="article-page">
      <div className="help-search">
        <SearchBar
          placeholder={t("article.searchPlaceholder")}
          value={text}
          onChange={setText}
          onSearch={(v) => setKeyword(v.trim())}
          onClear={() => setKeyword("")}
          data-testid="help-search"
        />
      </div>
      <PagedList
        key={keyword}
        queryKey={articleKeys.list(keyword)}
        fetchPage={fetchPage}
        itemKey={itemKey}
        testId="help-list"
        renderItem={(a) => (
          <button
            key={a.id}
            type="button"
            className="help-row"
            onClick={() => navigateTo(PATHS.Article, { id: a.id })}
            data-testid="help-row"
            data-article-id={a.id}
          >
            <span className="help-row__body">
              <span className="help-row__title">{a.title}</span>
              {a.summary ? <span className="help-row__summary">{a.summary}</span> : null}
            </span>
            <RightOutline className="help-row__arrow" />
          </button>
        )}
        empty={
          <StateBlock
            icon={<QuestionCircleOutline />}
            title={keyword ? t("article.noResults") : t("article.empty")}
            text={keyword ? t("article.noResultsHint") : undefined}
          />
        }
      />
    </PageShell>
  );
}

/** One article. */
function ArticleView({ id }: { id: string }) {
  const { t } = useTranslation();
  const article = useArticle(id);
  const data = article.data;
  const gone = article.error instanceof ApiError && article.error.status === 404;
  const updated = data ? new Date(data.lastModificationTime) : null;

  return (
    <PageShell title={t("article.help")} tone="white" testId="article-screen" className="article-page">
      {article.isPending ? (
        <div className="article">
          <Skeleton.Title animated />
          <Skeleton.Paragraph lineCount={6} animated />
        </div>
      ) : !data ? (
        <StateBlock
          testId="article-error"
          icon={<ExclamationCircleOutline />}
          title={gone ? t("article.notFound") : t("errors.requestFailed")}
          action={
            gone ? null : (
              <Button color="primary" fill="outline" shape="rounded" onClick={() => void article.refetch()}>
                {t("common.retry")}
              </Button>
            )
          }
        />
      ) : (
        <article className="article" data-testid="article" data-article-id={data.id}>
          <h1 className="article__title" data-testid="article-title">
            {data.title}
          </h1>
          {updated && !Number.isNaN(updated.getTime()) ? (
            <div className="article__updated" data-testid="article-updated">
              {t("article.updated", { date: formatDate(updated, "yyyy-MM-dd") })}
            </div>
          ) : null}
          {data.language !== currentLanguage() ? (
            <div className="article__fallback" data-testid="article-fallback">
              {t("article.fallback")}
            </div>
          ) : null}
          <MarkdownContent source={data.content} testId="article-content" />
        </article>
      )}
    </PageShell>
  );
}
