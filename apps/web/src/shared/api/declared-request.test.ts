import { describe, expect, it } from "vitest";
import { fillPath, serializeQuery } from "./declared-request.ts";

describe('path parameters (spec §7 "P")', () => {
  it("fillPath fills several segments and leaves plain paths alone", () => {
    expect(fillPath("/a/{familyId}/b/{id}", { familyId: "F", id: 7 })).toBe("/a/F/b/7");
    expect(fillPath("/plain", undefined)).toBe("/plain");
  });
});

describe("helpers", () => {
  it("serializeQuery drops null and undefined, repeats array keys", () => {
    expect(serializeQuery({ a: null, b: undefined, c: [1, null, 3], d: "x y" })).toBe("?c=1&c=3&d=x+y");
    expect(serializeQuery({})).toBe("");
  });
});
