import type { TPaged, TPagedQuery } from "@aquapilot/contract";
import { LIMITS } from "@aquapilot/contract";

/** `{skipCount, maxResultCount}` with the spec §9 defaults applied (0 and 15). */
export function pageWindow(query: Partial<TPagedQuery> = {}): { offset: number; limit: number } {
  return { offset: query.skipCount ?? 0, limit: query.maxResultCount ?? LIMITS.pageSize };
}

/**
 * Runs a count and a page query and answers the paged list of spec §3 `{items, totalCount}`.
 * `fetchPage` receives offset and limit (rows); `count` returns the total without paging.
 */
export async function paged<T>(
  query: Partial<TPagedQuery>,
  count: () => Promise<number>,
  fetchPage: (offset: number, limit: number) => Promise<T[]>,
): Promise<TPaged<T>> {
  const { offset, limit } = pageWindow(query);
  const [totalCount, items] = [await count(), await fetchPage(offset, limit)];
  return { items, totalCount };
}
