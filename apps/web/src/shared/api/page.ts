import type { TPaged } from "@aquapilot/contract/wire";

/**
 * A list answer of spec §3/§7 as one shape: `{items, totalCount}` as it is, a bare array as a page of all its items
 * (totalCount = its length), anything else (null, undefined, no items) as an empty page.
 */
export function asPage<T>(result: TPaged<T> | T[] | null | undefined): TPaged<T> {
  if (Array.isArray(result)) return { items: result, totalCount: result.length };
  if (result && Array.isArray(result.items)) return { items: result.items, totalCount: result.totalCount };
  return { items: [], totalCount: 0 };
}
