import { PERMISSIONS } from "@aquapilot/contract";
import { describe, expect, it } from "vitest";
import { grantedPoliciesFor, holdsPermission } from "./policies.ts";

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

describe("holdsPermission (the route check without the map)", () => {
  it("answers what grantedPoliciesFor grants, for every permission, unknown names and every kind of caller", () => {
    const names = [...Object.values(PERMISSIONS), "nope", "toString", "constructor", ""];
    for (const user of [{ isMaster: true }, { isMaster: false }, {}, null]) {
      for (const name of names) {
        expect(holdsPermission(user, name), `${JSON.stringify(user)} ${name}`).toBe(
          Object.hasOwn(grantedPoliciesFor(user), name),
        );
      }
    }
    expect(holdsPermission({ isMaster: false }, PERMISSIONS.master)).toBe(false);
    expect(holdsPermission({ isMaster: true }, PERMISSIONS.master)).toBe(true);
  });
});
