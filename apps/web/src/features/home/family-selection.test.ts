import { describe, expect, it } from "vitest";
import { selectHomeFamily, shouldShowNoFamily } from "./family-selection.ts";

const a = { id: "a" };
const b = { id: "b" };
const c = { id: "c" };

describe("home family selection (spec §3 userFamilyCache)", () => {
  it("keeps the selected family while the user belongs to it", () => {
    expect(selectHomeFamily([a, b, c], "b")).toBe(b);
  });

  it("falls back to the first family when the selected one was left, deleted or the user was removed", () => {
    expect(selectHomeFamily([a, c], "b")).toBe(a);
    expect(selectHomeFamily([c], "b")).toBe(c);
  });

  it("without a selection takes the first family", () => {
    expect(selectHomeFamily([b, a], null)).toBe(b);
  });

  it("no family at all: null, and NoFamily once the list has loaded", () => {
    expect(selectHomeFamily([], "a")).toBeNull();
    expect(shouldShowNoFamily({ isSuccess: true, isFetching: false, families: [] })).toBe(true);
    expect(shouldShowNoFamily({ isSuccess: false, isFetching: false, families: undefined })).toBe(false);
    expect(shouldShowNoFamily({ isSuccess: true, isFetching: false, families: [a] })).toBe(false);
    // A cached empty list being refetched (just after creating or joining a household) is not yet an answer.
    expect(shouldShowNoFamily({ isSuccess: true, isFetching: true, families: [] })).toBe(false);
  });
});
