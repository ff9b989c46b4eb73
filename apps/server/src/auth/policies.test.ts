import { PERMISSIONS } from "@aquapilot/contract";
import { describe, expect, it } from "vitest";
import { grantedPoliciesFor } from "./policies.ts";

describe("grantedPoliciesFor (spec §6)", () => {
  const all = Object.values(PERMISSIONS);

  it("a device master holds every permission, master included", () => {
    expect(Object.keys(grantedPoliciesFor({ isMaster: true })).sort()).toEqual([...all].sort());
  });

  it("a normal user holds every permission except master", () => {
    const granted = grantedPoliciesFor({ isMaster: false });
    expect(granted.master).toBeUndefined();
    expect(Object.keys(granted).sort()).toEqual(all.filter((p) => p !== "master").sort());
    expect(Object.values(granted).every((v) => v === true)).toBe(true);
  });

  it("an anonymous caller holds nothing", () => {
    expect(grantedPoliciesFor(null)).toEqual({});
  });
});
