import { LIMITS, type TPaged } from "@aquapilot/contract/wire";
import { type QueryKey, useInfiniteQuery } from "@tanstack/react-query";
import { Button, InfiniteScroll, Skeleton } from "antd-mobile";
import { ExclamationCircleOutline, FileOutline } from "antd-mobile-icons";
import { type ReactNode, useCallback, useEffect, useMemo, useRef } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../api/errors.ts";
import { StateBlock } from "./state-block.tsx";
import { toast } from "./toast.ts";
import "./paged-list.css";
import { PullToRefresh } from "./pull-to-refresh.tsx";

/**
 * The one paged list of spec §4/§9, used by every list screen (message centre, after-sales, help): pull-down refresh
 * with the 333 ms delay, the next page when the end comes within 150 px of the viewport, pages of 15 through
 * `skipCount`/`maxResultCount`, finished when the loaded count reaches `totalCount` or a page comes back short; a
 * bare-array answer works too (then only the short page ends the list). A failed load shows its error as a toast
 * (spec §8) and leaves a retry link.
 */

/** What one page request sends (spec §7 "Paged lists send skipCount and maxResultCount (default 15)"). */
export interface PageRequest {
  skipCount: number;
  maxResultCount: number;
}

/** What a page fetcher may answer: `{items, totalCount}`, a bare array, or nothing (spec §3 "Paged list response"). */
export type PageAnswer<T> = TPaged<T> | readonly T[] | null | undefined;

/** One loaded page: its items and the server's total, or null when the answer was a bare array (total unknown). */
export interface LoadedPage<T> {
  items: T[];
  totalCount: number | null;
}

/** Fetches one page; `signal` aborts it when the list goes away. */
export type PageFetcher<T> = (page: PageRequest, signal?: AbortSignal) => Promise<PageAnswer<T>>;

/** Normalises an answer to a {@link LoadedPage}: a bare array keeps its items with an unknown total. */
export function toLoadedPage<T>(answer: PageAnswer<T>): LoadedPage<T> {
  if (Array.isArray(answer)) return { items: [...answer], totalCount: null };
  const paged = answer as TPaged<T> | null | undefined;
  if (paged && Array.isArray(paged.items)) {
    return { items: paged.items, totalCount: typeof paged.totalCount === "number" ? paged.totalCount : null };
  }
  return { items: [], totalCount: 0 };
}

/**
 * Where the next page starts (its `skipCount`), or undefined when the list is finished (spec §4): the last page came
 * back shorter than `pageSize`, or the loaded count reached the last known `totalCount`.
 */
export function nextPageSkip(
  pages: readonly LoadedPage<unknown>[],
  pageSize: number = LIMITS.pageSize,
): number | undefined {
  const last = pages.at(-1);
  if (!last) return 0;
  const loaded = pages.reduce((n, p) => n + p.items.length, 0);
  if (last.items.length < pageSize) return undefined;
  if (last.totalCount !== null && loaded >= last.totalCount) return undefined;
  return loaded;
}

/**
 * The items of all loaded pages in order. With `keyOf`, an item already seen on an earlier page is dropped (offset
 * paging repeats an item when a new one arrives between two page loads, e.g. a message).
 */
export function flattenPages<T>(pages: readonly LoadedPage<T>[], keyOf?: (item: T) => string): T[] {
  const all = pages.flatMap((p) => p.items);
  if (!keyOf) return all;
  const seen = new Set<string>();
  return all.filter((item) => {
    const key = keyOf(item);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Loads every page of a list with the same paging rule (for choosers that need the whole list, e.g. the devices of
 * all households). Stops after `maxPages` pages (default 40, i.e. 600 items at 15 a page).
 */
export async function fetchAllPages<T>(
  fetchPage: PageFetcher<T>,
  pageSize: number = LIMITS.pageSize,
  maxPages = 40,
  signal?: AbortSignal,
): Promise<T[]> {
  const pages: LoadedPage<T>[] = [];
  let skip = nextPageSkip(pages, pageSize);
  while (skip !== undefined && pages.length < maxPages) {
    pages.push(toLoadedPage(await fetchPage({ skipCount: skip, maxResultCount: pageSize }, signal)));
    skip = nextPageSkip(pages, pageSize);
  }
  return flattenPages(pages);
}

/** Options of {@link usePagedQuery}. */
export interface PagedQueryOptions<T> {
  /** TanStack Query key of the list (its first element names the API group, e.g. ["message", "list", "unread"]). */
  queryKey: QueryKey;
  fetchPage: PageFetcher<T>;
  /** Page size (default 15, spec §9). */
  pageSize?: number;
  /** De-duplicates items across pages. */
  itemKey?: (item: T) => string;
  enabled?: boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The paging state of a list as a hook (TanStack `useInfiniteQuery`): `items` of all loaded pages, `totalCount`
 * (the server's, or the loaded count for bare arrays), `hasMore`, `loadMore()` (rejects when the page fails, so
 * InfiniteScroll stops and offers a retry), `refresh()` (waits 333 ms, then reloads, spec §4). Errors are reported by
 * {@link PagedList} as toasts, so the query is marked silent for the app-wide handler.
 */
export function usePagedQuery<T>(options: PagedQueryOptions<T>) {
  const { queryKey, fetchPage, pageSize = LIMITS.pageSize, itemKey, enabled = true } = options;
  const fetchRef = useRef(fetchPage);
  fetchRef.current = fetchPage;
  const query = useInfiniteQuery({
    queryKey,
    enabled,
    meta: { silent: true },
    initialPageParam: 0,
    queryFn: async ({ pageParam, signal }) =>
      toLoadedPage(await fetchRef.current({ skipCount: pageParam, maxResultCount: pageSize }, signal)),
    getNextPageParam: (_last, pages) => nextPageSkip(pages, pageSize),
    refetchOnMount: "always",
  });
  const pages = query.data?.pages;
  const items = useMemo(() => flattenPages(pages ?? [], itemKey), [pages, itemKey]);
  const last = pages?.at(-1);
  const totalCount = last?.totalCount ?? items.length;
  const { fetchNextPage, refetch } = query;

  const loadMore = useCallback(async () => {
    const result = await fetchNextPage();
    if (result.isError) throw result.error;
  }, [fetchNextPage]);

  const refresh = useCallback(async () => {
    await sleep(LIMITS.refreshDelayMs);
    await refetch();
  }, [refetch]);

  return { query, items, totalCount, hasMore: query.hasNextPage, loadMore, refresh };
}

/** Props of {@link PagedList}. */
export interface PagedListProps<T> extends PagedQueryOptions<T> {
  renderItem: (item: T, index: number) => ReactNode;
  /** Shown when the list loaded with no items (default: a "nothing here" block). */
  empty?: ReactNode;
  /** Rows shown while the first page loads (default: three skeleton cards). */
  skeleton?: ReactNode;
  /** Above the items, inside the pull-to-refresh area. */
  header?: ReactNode;
  className?: string;
  /**
   * `data-testid` root (default "paged-list"): the items container; `-empty`, `-error`, `-retry`, `-footer`
   * (with `data-state` "more" | "loading" | "failed" | "done" and `data-count` = loaded items).
   */
  testId?: string;
}

/** The paged list (see the module comment). Items render inside `.paged-list__items` in the order of the pages. */
export function PagedList<T>(props: PagedListProps<T>) {
  const { t } = useTranslation();
  const { renderItem, empty, skeleton, header, className, testId = "paged-list" } = props;
  const { query, items, hasMore, loadMore, refresh } = usePagedQuery(props);

  // spec §8: a failed list load shows the error as a toast (once per failure).
  useEffect(() => {
    if (query.error && query.errorUpdatedAt) toast(errorMessage(query.error, t("errors.requestFailed")));
  }, [query.error, query.errorUpdatedAt, t]);

  const firstLoadFailed = query.isError && !query.data;

  return (
    <PullToRefresh onRefresh={refresh}>
      <div className={`paged-list ${className ?? ""}`}>
        {header}
        {query.isPending && !firstLoadFailed ? (
          (skeleton ?? <ListSkeleton />)
        ) : firstLoadFailed ? (
          <StateBlock
            testId={`${testId}-error`}
            icon={<ExclamationCircleOutline />}
            title={errorMessage(query.error, t("errors.requestFailed"))}
            action={
              <Button
                color="primary"
                fill="outline"
                shape="rounded"
                onClick={() => void query.refetch()}
                data-testid={`${testId}-retry`}
              >
                {t("common.retry")}
              </Button>
            }
          />
        ) : items.length === 0 ? (
          <div data-testid={`${testId}-empty`}>
            {empty ?? <StateBlock icon={<FileOutline />} title={t("pagedList.empty")} />}
          </div>
        ) : (
          <div className="paged-list__items" data-testid={testId} data-count={items.length}>
            {items.map((item, i) => renderItem(item, i))}
          </div>
        )}
        {items.length > 0 ? (
          <InfiniteScroll loadMore={loadMore} hasMore={hasMore} threshold={LIMITS.loadMoreOffsetPx}>
            {(more, failed, retry) => (
              <div
                className="paged-list__footer"
                data-testid={`${testId}-footer`}
                data-state={failed ? "failed" : !more ? "done" : query.isFetchingNextPage ? "loading" : "more"}
                data-count={items.length}
              >
                {failed ? (
                  <>
                    {t("pagedList.failed")}
                    <button
                      type="button"
                      className="paged-list__retry"
                      onClick={() => void retry()}
                      data-testid={`${testId}-retry`}
                    >
                      {t("common.retry")}
                    </button>
                  </>
                ) : more ? (
                  t("pagedList.loadingMore")
                ) : (
                  t("pagedList.noMore")
                )}
              </div>
            )}
          </InfiniteScroll>
        ) : null}
      </div>
    </PullToRefresh>
  );
}

/** Three skeleton cards while the first page loads. */
function ListSkeleton() {
  return (
    <div className="paged-list__items">
      {[0, 1, 2].map((i) => (
        <div className="paged-list__skeleton" key={i}>
          <Skeleton.Title animated />
          <Skeleton.Paragraph lineCount={2} animated />
        </div>
      ))}
    </div>
  );
}
