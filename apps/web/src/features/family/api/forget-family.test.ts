import type { TFamily, TFamilyDevice } from "@aquapilot/contract";
import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { queryKeys } from "../../../shared/api/query-keys.ts";
import { forgetFamily } from "./forget-family.ts";
import { nextSkipCount } from "./get-family-list.ts";
import { familyKeys } from "./keys.ts";

const family = (id: string) => ({ id, name: id }) as TFamily;

describe("leaving a family drops it at once (spec §6)", () => {
  it("removes its devices, details and members; the home list loses it; the rest is stale", async () => {
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    qc.setQueryData(queryKeys.families, [family("a"), family("b")]);
    qc.setQueryData<TFamilyDevice[]>(queryKeys.familyDevices("a"), []);
    qc.setQueryData<TFamilyDevice[]>(queryKeys.familyDevices("b"), []);
    qc.setQueryData(familyKeys.detail("a"), family("a"));
    qc.setQueryData(familyKeys.users("a"), []);

    await forgetFamily(qc, "a");

    expect(qc.getQueryData(queryKeys.familyDevices("a"))).toBeUndefined();
    expect(qc.getQueryData(familyKeys.detail("a"))).toBeUndefined();
    expect(qc.getQueryData(familyKeys.users("a"))).toBeUndefined();
    expect(qc.getQueryData<TFamily[]>(queryKeys.families)?.map((f) => f.id)).toEqual(["b"]);
    expect(qc.getQueryState(queryKeys.familyDevices("b"))?.isInvalidated).toBe(true);
    expect(qc.getQueryState(queryKeys.families)?.isInvalidated).toBe(true);
  });
});

describe("paged lists (spec §4: finished when the count reaches the total or a page is short)", () => {
  const page = (n: number, totalCount: number) => ({ items: Array.from({ length: n }, (_, i) => i), totalCount });
  it("asks for the next page while full pages keep coming", () => {
    expect(nextSkipCount([page(15, 40)])).toBe(15);
    expect(nextSkipCount([page(15, 40), page(15, 40)])).toBe(30);
  });
  it("stops at the total or on a short page", () => {
    expect(nextSkipCount([page(15, 15)])).toBeUndefined();
    expect(nextSkipCount([page(15, 40), page(3, 40)])).toBeUndefined();
    expect(nextSkipCount([])).toBeUndefined();
  });
});
