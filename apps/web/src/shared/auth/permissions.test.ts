import { describe, expect, it } from "vitest";
import {
  checkPermission,
  grantedPolicyNames,
  hasAllPermissions,
  hasAnyPermission,
  hasPermission,
  isMaster,
  resolveAccess,
} from "./permissions.ts";

const member = ["Device.View", "Message"];
const master = ["master"];

describe("permission checks (spec §6)", () => {
  it("single: granted or not", () => {
    expect(hasPermission(member, "Device.View")).toBe(true);
    expect(hasPermission(member, "Device.Setting")).toBe(false);
    expect(hasPermission([], "Device.View")).toBe(false);
  });

  it("any-of: one is enough, none fails, empty list fails", () => {
    expect(hasAnyPermission(member, ["Device.Setting", "Message"])).toBe(true);
    expect(hasAnyPermission(member, ["Device.Setting", "AfterSale"])).toBe(false);
    expect(hasAnyPermission(member, [])).toBe(false);
  });

  it("all-of: every one is needed", () => {
    expect(hasAllPermissions(member, ["Device.View", "Message"])).toBe(true);
    expect(hasAllPermissions(member, ["Device.View", "AfterSale"])).toBe(false);
    expect(hasAllPermissions(member, [])).toBe(true);
  });

  it("a master passes every check", () => {
    expect(isMaster(master)).toBe(true);
    expect(isMaster(member)).toBe(false);
    expect(hasPermission(master, "Device.Setting")).toBe(true);
    expect(hasAnyPermission(master, [])).toBe(true);
    expect(hasAllPermissions(master, ["Device.Setting", "AfterSale"])).toBe(true);
    expect(checkPermission(master, () => false)).toBe(true);
  });

  it("checkPermission dispatches on the requirement's form", () => {
    expect(checkPermission(member, undefined)).toBe(true);
    expect(checkPermission(member, "Message")).toBe(true);
    expect(checkPermission(member, "AfterSale")).toBe(false);
    expect(checkPermission(member, { anyOf: ["AfterSale", "Message"] })).toBe(true);
    expect(checkPermission(member, { allOf: ["AfterSale", "Message"] })).toBe(false);
    expect(checkPermission(member, (g) => g.length === 2)).toBe(true);
    expect(checkPermission(member, (g) => g.includes("AfterSale"))).toBe(false);
  });

  it("keeps only policies whose value is true from the ABP map", () => {
    expect(grantedPolicyNames({ Message: true, "Device.View": true, AfterSale: false })).toEqual([
      "Device.View",
      "Message",
    ]);
    expect(grantedPolicyNames(undefined)).toEqual([]);
  });

  it("a set (array of names) passes when any one is granted", () => {
    expect(checkPermission(member, ["AfterSale", "Message"])).toBe(true);
    expect(checkPermission(member, ["AfterSale", "Device.Setting"])).toBe(false);
    expect(checkPermission(master, ["AfterSale"])).toBe(true);
  });
});

describe("access of routes and menu items (spec §6: permission, set, enabled, visible, validator)", () => {
  it("plain requirements hide what fails", () => {
    expect(resolveAccess(member, undefined)).toBe("allowed");
    expect(resolveAccess(member, "Message")).toBe("allowed");
    expect(resolveAccess(member, "AfterSale")).toBe("hidden");
    expect(resolveAccess(member, { allOf: ["Message", "AfterSale"] })).toBe("hidden");
    expect(resolveAccess(member, ["AfterSale", "Message"])).toBe("allowed");
    expect(resolveAccess(member, (g) => g.length > 5)).toBe("hidden");
  });

  it("visible false hides and enabled false disables, for everyone (flags are not permissions)", () => {
    expect(resolveAccess(member, { visible: false })).toBe("hidden");
    expect(resolveAccess(master, { visible: false })).toBe("hidden");
    expect(resolveAccess(member, { enabled: false })).toBe("disabled");
    expect(resolveAccess(master, { enabled: false })).toBe("disabled");
    expect(resolveAccess(member, { visible: false, enabled: false })).toBe("hidden");
    expect(resolveAccess(member, { visible: true, enabled: true })).toBe("allowed");
  });

  it("a rule's permission and validator must both pass; whenDenied chooses hide or disable", () => {
    expect(resolveAccess(member, { permission: "Message" })).toBe("allowed");
    expect(resolveAccess(member, { permission: "AfterSale" })).toBe("hidden");
    expect(resolveAccess(member, { permission: "AfterSale", whenDenied: "disable" })).toBe("disabled");
    expect(resolveAccess(member, { permission: { anyOf: ["AfterSale", "Message"] } })).toBe("allowed");
    expect(resolveAccess(member, { permission: { allOf: ["AfterSale", "Message"] } })).toBe("hidden");
    expect(resolveAccess(member, { permission: ["AfterSale", "Message"] })).toBe("allowed");
    expect(resolveAccess(member, { permission: "Message", validator: () => false })).toBe("hidden");
    expect(resolveAccess(member, { validator: (g) => g.includes("Message") })).toBe("allowed");
    expect(resolveAccess(member, { permission: "Message", enabled: false })).toBe("disabled");
  });

  it("a master passes the permission and the validator of a rule", () => {
    expect(resolveAccess(master, { permission: "AfterSale", validator: () => false })).toBe("allowed");
    expect(checkPermission(master, { permission: { allOf: ["AfterSale", "Device.Setting"] } })).toBe(true);
  });

  it("checkPermission (the route guard's check) is true only for allowed rules", () => {
    expect(checkPermission(member, { permission: "Message" })).toBe(true);
    expect(checkPermission(member, { enabled: false })).toBe(false);
    expect(checkPermission(member, { permission: "AfterSale", whenDenied: "disable" })).toBe(false);
  });
});
