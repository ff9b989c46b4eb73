import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, render, renderHook, screen, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../api/errors.ts";
import {
  fetchAllPages,
  flattenPages,
  type LoadedPage,
  nextPageSkip,
  PagedList,
  type PageRequest,
  toLoadedPage,
  usePagedQuery,
} from "./paged-list.tsx";
import { Toast } from "./toast.ts";

/** A server list of `total` numbered rows answering `{items, totalCount}` pages (or bare arrays). */
function server(total: number, bare = false) {
  const rows = Array.from({ length: total }, (_, i) => ({ id: `m${i + 1}` }));
  const calls: PageRequest[] = [];
  const fetchPage = async (page: PageRequest) => {
    calls.push(page);
    const items = rows.slice(page.skipCount, page.skipCount + page.maxResultCount);
    return bare ? items : { items, totalCount: total };
  };
  return { calls, fetchPage };
}

const page = (n: number, totalCount: number | null): LoadedPage<number> => ({
  items: Array.from({ length: n }, (_, i) => i),
  totalCount,
});

function wrapper() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe("paging rule (spec §4/§9)", () => {
  it("normalises paged answers, bare arrays (total unknown) and nothing", () => {
    expect(toLoadedPage({ items: [1, 2], totalCount: 9 })).toEqual({ items: [1, 2], totalCount: 9 });
    expect(toLoadedPage([1, 2, 3])).toEqual({ items: [1, 2, 3], totalCount: null });
    expect(toLoadedPage(null)).toEqual({ items: [], totalCount: 0 });
  });

  it("starts at 0, continues at the loaded count, stops at totalCount or a short page", () => {
    expect(nextPageSkip([])).toBe(0);
    expect(nextPageSkip([page(15, 40)])).toBe(15);
    expect(nextPageSkip([page(15, 40), page(15, 40)])).toBe(30);
    expect(nextPageSkip([page(15, 40), page(15, 40), page(10, 40)])).toBeUndefined();
    // total reached with a full page
    expect(nextPageSkip([page(15, 30), page(15, 30)])).toBeUndefined();
    // a short page ends the list even when the total says more (items deleted meanwhile)
    expect(nextPageSkip([page(15, 50), page(7, 50)])).toBeUndefined();
    expect(nextPageSkip([page(0, 0)])).toBeUndefined();
  });

  it("bare arrays end only on a short page", () => {
    expect(nextPageSkip([page(15, null)])).toBe(15);
    expect(nextPageSkip([page(15, null), page(3, null)])).toBeUndefined();
  });

  it("honours another page size", () => {
    expect(nextPageSkip([page(5, 12)], 5)).toBe(5);
    expect(nextPageSkip([page(5, 12), page(5, 12), page(2, 12)], 5)).toBeUndefined();
  });

  it("flattens pages and drops repeats across pages by key", () => {
    const pages = [
      { items: [{ id: "a" }, { id: "b" }], totalCount: 4 },
      { items: [{ id: "b" }, { id: "c" }], totalCount: 4 },
    ];
    expect(flattenPages(pages).map((x) => x.id)).toEqual(["a", "b", "b", "c"]);
    expect(flattenPages(pages, (x) => x.id).map((x) => x.id)).toEqual(["a", "b", "c"]);
  });

  it("fetchAllPages walks the pages with skipCount/maxResultCount 15", async () => {
    const s = server(40);
    const all = await fetchAllPages(s.fetchPage);
    expect(all).toHaveLength(40);
    expect(s.calls).toEqual([
      { skipCount: 0, maxResultCount: 15 },
      { skipCount: 15, maxResultCount: 15 },
      { skipCount: 30, maxResultCount: 15 },
    ]);
    const bare = server(30, true);
    expect(await fetchAllPages(bare.fetchPage)).toHaveLength(30);
    // 30 bare rows = two full pages, then an empty (short) page ends it
    expect(bare.calls.map((c) => c.skipCount)).toEqual([0, 15, 30]);
  });
});

describe("usePagedQuery", () => {
  it("loads 40 rows in three pages and then reports no more", async () => {
    const s = server(40);
    const { result } = renderHook(() => usePagedQuery({ queryKey: ["t", "40"], fetchPage: s.fetchPage }), {
      wrapper: wrapper(),
    });
    await waitFor(() => expect(result.current.items).toHaveLength(15));
    expect(result.current.totalCount).toBe(40);
    expect(result.current.hasMore).toBe(true);
    await act(() => result.current.loadMore());
    // Each load starts from the state the previous one rendered (the list calls loadMore once per scroll).
    await waitFor(() => expect(result.current.items).toHaveLength(30));
    await act(() => result.current.loadMore());
    await waitFor(() => expect(result.current.items).toHaveLength(40));
    expect(result.current.hasMore).toBe(false);
    expect(s.calls.map((c) => c.skipCount)).toEqual([0, 15, 30]);
  });

  it("refresh waits the 333 ms delay before reloading", async () => {
    const s = server(3);
    const { result } = renderHook(() => usePagedQuery({ queryKey: ["t", "refresh"], fetchPage: s.fetchPage }), {
      wrapper: wrapper(),
    });
    await waitFor(() => expect(result.current.items).toHaveLength(3));
    vi.useFakeTimers();
    const done = result.current.refresh();
    await vi.advanceTimersByTimeAsync(332);
    expect(s.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    vi.useRealTimers();
    await act(() => done);
    expect(s.calls).toHaveLength(2);
  });

  it("loadMore rejects when the page fails, so InfiniteScroll stops and offers a retry", async () => {
    let fail = false;
    const s = server(20);
    const fetchPage = async (p: PageRequest) => {
      if (fail) throw new ApiError("boom", 500, 500);
      return s.fetchPage(p);
    };
    const { result } = renderHook(() => usePagedQuery({ queryKey: ["t", "fail"], fetchPage }), { wrapper: wrapper() });
    await waitFor(() => expect(result.current.items).toHaveLength(15));
    fail = true;
    await act(async () => {
      await expect(result.current.loadMore()).rejects.toThrow("boom");
    });
    fail = false;
    await act(() => result.current.loadMore());
    await waitFor(() => expect(result.current.items).toHaveLength(20));
    expect(result.current.hasMore).toBe(false);
  });
});

describe("PagedList", () => {
  it("renders the rows and shows a failed first load as a toast and a retry block", async () => {
    const show = vi.spyOn(Toast, "show").mockImplementation(() => {});
    const Wrapper = wrapper();
    let fail = true;
    const fetchPage = async (p: PageRequest) => {
      if (fail) throw new ApiError("Server is down", 500, 500);
      return server(2).fetchPage(p);
    };
    render(
      <Wrapper>
        <PagedList
          queryKey={["t", "list"]}
          fetchPage={fetchPage}
          itemKey={(x: { id: string }) => x.id}
          renderItem={(x) => (
            <div key={x.id} data-testid="row">
              {x.id}
            </div>
          )}
        />
      </Wrapper>,
    );
    await screen.findByTestId("paged-list-error");
    expect(show).toHaveBeenCalledWith(expect.objectContaining({ content: "Server is down" }));
    fail = false;
    act(() => screen.getByTestId("paged-list-retry").click());
    await waitFor(() => expect(screen.getAllByTestId("row")).toHaveLength(2));
    expect(screen.getByTestId("paged-list").dataset.count).toBe("2");
  });

  it("shows the empty block for an empty list", async () => {
    const Wrapper = wrapper();
    render(
      <Wrapper>
        <PagedList
          queryKey={["t", "empty"]}
          fetchPage={async () => []}
          renderItem={() => null}
          empty={<span>none</span>}
          testId="things"
        />
      </Wrapper>,
    );
    expect((await screen.findByTestId("things-empty")).textContent).toBe("none");
  });
});
