/**
 * The household and member rules as pure decisions (spec §5 "Create family: address required", spec §6 household
 * administrator and member), fast enough for mutation testing to rerun them per mutant: the address and its regions,
 * the columns a household change sets, who may leave, whom the administrator may remove, and the administrator
 * transfer's target and its one-administrator check. The database-backed flows are covered by family.test.ts and
 * family-user.test.ts; the expectations here are written from the spec's rules.
 */
import { ErrorCode } from "@aquapilot/contract";
import { describe, expect, it } from "vitest";
import { AppError } from "../../http/errors.ts";
import {
  requireOneAdministratorSwapped,
  requireRemovable,
  requireTransferTarget,
  transferTarget,
} from "../family-user/service.ts";
import { familyUpdateColumns, regionColumns, requireAddress, requireMayLeave } from "./service.ts";

/** The AppError `run` throws, as code, message key, and validation errors; fails the test when it throws none. */
function refusal(run: () => unknown): { code: ErrorCode; key: string; errors: unknown } {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    const err = e as AppError;
    return { code: err.code, key: err.messageKey, errors: err.validationErrors };
  }
  throw new Error("expected an AppError, nothing was thrown");
}

const ADDRESS_REQUIRED = {
  code: ErrorCode.Validation,
  key: "family.addressRequired",
  errors: [{ message: "family.addressRequired", members: ["address"] }],
};

describe("household address (spec §5: create family needs an address)", () => {
  it("takes the address text without surrounding blanks and both coordinates", () => {
    expect(requireAddress({ address: "  Hauptstraße 1, Berlin ", longitude: 13.4, latitude: 52.5 })).toEqual({
      address: "Hauptstraße 1, Berlin",
      longitude: 13.4,
      latitude: 52.5,
    });
    // 0 is a coordinate like any other (the equator, the prime meridian).
    expect(requireAddress({ address: "Null Island", longitude: 0, latitude: 0 })).toEqual({
      address: "Null Island",
      longitude: 0,
      latitude: 0,
    });
  });

  it("refuses a missing or blank address, or a missing coordinate, naming the address field", () => {
    const cases = [
      { longitude: 1, latitude: 2 },
      { address: null, longitude: 1, latitude: 2 },
      { address: "   ", longitude: 1, latitude: 2 },
      { address: "x", latitude: 2 },
      { address: "x", longitude: 1 },
      { address: "x", longitude: null, latitude: 2 },
      { address: "x", longitude: 1, latitude: null },
    ];
    for (const input of cases)
      expect(
        refusal(() => requireAddress(input)),
        JSON.stringify(input),
      ).toEqual(ADDRESS_REQUIRED);
  });

  it("keeps region names without surrounding blanks and stores blank or absent ones as null", () => {
    expect(regionColumns({ province: " Bayern ", city: "München", district: " Au" })).toEqual({
      province: "Bayern",
      city: "München",
      district: "Au",
    });
    expect(regionColumns({ province: "  ", city: null })).toEqual({ province: null, city: null, district: null });
    expect(regionColumns({ province: "P", city: "", district: "D" })).toEqual({
      province: "P",
      city: null,
      district: "D",
    });
    expect(regionColumns({ province: "", city: "C", district: " " })).toEqual({
      province: null,
      city: "C",
      district: null,
    });
  });
});

describe("household change (spec §7 update-family-name / -avatar / -address)", () => {
  it("sets only the name, or only the avatar", () => {
    expect(familyUpdateColumns({ name: "Ferienhaus" })).toEqual({ name: "Ferienhaus" });
    expect(familyUpdateColumns({ avatar: "https://x.example/a.png" })).toEqual({ avatar: "https://x.example/a.png" });
  });

  it("sets the address, both coordinates and the regions, clearing a region left out", () => {
    expect(
      familyUpdateColumns({ address: { address: " Ring 2 ", longitude: 11.5, latitude: 48.1, province: " Bayern " } }),
    ).toEqual({ address: "Ring 2", longitude: 11.5, latitude: 48.1, province: "Bayern", city: null, district: null });
  });

  it("refuses an address change without an address or its coordinates", () => {
    expect(refusal(() => familyUpdateColumns({ address: { address: "Ring 2", longitude: 11.5 } }))).toEqual(
      ADDRESS_REQUIRED,
    );
  });
});

describe("leaving a household (spec §6: a member may leave; the administrator may not)", () => {
  it("lets a member leave", () => {
    expect(() => requireMayLeave({ isAdmin: false })).not.toThrow();
  });

  it("refuses the administrator with a conflict: the role must be transferred or the household deleted first", () => {
    expect(refusal(() => requireMayLeave({ isAdmin: true }))).toEqual({
      code: ErrorCode.Conflict,
      key: "family.adminCannotLeave",
      errors: null,
    });
  });
});

describe("removing a member (spec §6: the administrator adds and removes members)", () => {
  const REFUSED = { code: ErrorCode.Validation, key: "family.cannotRemoveSelf", errors: null };

  it("lets the administrator remove another, ordinary member", () => {
    expect(() => requireRemovable("admin", { user_id: "member", is_admin: 0 })).not.toThrow();
  });

  it("refuses removing oneself and removing the administrator", () => {
    expect(refusal(() => requireRemovable("admin", { user_id: "admin", is_admin: 1 }))).toEqual(REFUSED);
    expect(refusal(() => requireRemovable("admin", { user_id: "admin", is_admin: 0 }))).toEqual(REFUSED);
    expect(refusal(() => requireRemovable("admin", { user_id: "other", is_admin: 1 }))).toEqual(REFUSED);
  });
});

describe("transferring the administrator role (spec §6)", () => {
  it("needs a target named by family-user id or by user id", () => {
    expect(() => requireTransferTarget({ familyUserId: "fu-1" })).not.toThrow();
    expect(() => requireTransferTarget({ userId: "u-1" })).not.toThrow();
    expect(() => requireTransferTarget({ familyUserId: "fu-1", userId: "u-1" })).not.toThrow();
    const none = { code: ErrorCode.Validation, key: "family.transferTargetRequired", errors: null };
    expect(refusal(() => requireTransferTarget({}))).toEqual(none);
    expect(refusal(() => requireTransferTarget({ familyUserId: "", userId: "" }))).toEqual(none);
  });

  it("hands the role to another member of the household only", () => {
    const member = { id: "fu-2", user_id: "u-2" };
    expect(transferTarget("u-1", member)).toBe(member);
    expect(refusal(() => transferTarget("u-1", undefined))).toEqual({
      code: ErrorCode.NotFound,
      key: "family.memberNotFound",
      errors: null,
    });
    expect(refusal(() => transferTarget("u-1", { id: "fu-1", user_id: "u-1" }))).toEqual({
      code: ErrorCode.Validation,
      key: "family.transferToSelf",
      errors: null,
    });
  });

  it("accepts a transfer that cleared one flag and set one, and refuses any other outcome", () => {
    expect(() => requireOneAdministratorSwapped("f-1", { numUpdatedRows: 1n }, { numUpdatedRows: 1n })).not.toThrow();
    const outcomes: [bigint, bigint][] = [
      [0n, 1n],
      [1n, 0n],
      [2n, 1n],
      [1n, 2n],
      [0n, 0n],
    ];
    for (const [cleared, set] of outcomes) {
      expect(
        () => requireOneAdministratorSwapped("f-1", { numUpdatedRows: cleared }, { numUpdatedRows: set }),
        `${cleared}/${set}`,
      ).toThrow("transferAdministrator: family f-1 changed during the transfer");
    }
  });
});

describe("household regions, each on its own", () => {
  it("trims every region name and accepts any of them absent", () => {
    expect(regionColumns({ city: " Köln " })).toEqual({ province: null, city: "Köln", district: null });
    expect(regionColumns({})).toEqual({ province: null, city: null, district: null });
  });
});
