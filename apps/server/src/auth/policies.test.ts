import { PERMISSIONS } from "@aquapilot/contract";
import { describe, expect, it } from "vitest";
import { grantedPoliciesFor, holdsPermission } from "./policies.ts";

// The permission names a client finds in grantedPolicies, written out literally rather than read from PERMISSIONS, so
// that renaming, dropping or adding one in the contract fails here. Spec §6 names "master" ("held only by a master");
// the others are the names the app's routes and menus check (one per area: household management, device view,
// control and settings, messages, after-sales).
const PERMISSION_NAMES = [
  "master",
  "Family.Manage",
  "Device.View",
  "Device.Control",
  "Device.Setting",
  "Message",
  "AfterSale",
] as const;

describe("grantedPoliciesFor (spec §6)", () => {
  const all: readonly string[] = PERMISSION_NAMES;

  it("the contract's permissions are exactly the written names", () => {
    expect([...Object.values(PERMISSIONS)].sort()).toEqual([...all].sort());
  });

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
    const names = [...PERMISSION_NAMES, "nope", "toString", "constructor", ""];
    for (const user of [{ isMaster: true }, { isMaster: false }, {}, null]) {
      for (const name of names) {
        expect(holdsPermission(user, name), `${JSON.stringify(user)} ${name}`).toBe(
          Object.hasOwn(grantedPoliciesFor(user), name),
        );
      }
    }
    expect(holdsPermission({ isMaster: false }, "master")).toBe(false);
    expect(holdsPermission({ isMaster: true }, "master")).toBe(true);
  });
});
