import { describe, expect, it } from "vitest";
import {
  checkPermission,
  grantedPolicyNames,
  hasAllPermissions,
  hasAnyPermission,
  hasPermission,
  isMaster,
} from "./permissions.js";

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
});
