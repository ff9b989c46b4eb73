import { act, cleanup, render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setNavigator } from "../shared/navigation/index.ts";
import { Toast } from "../shared/ui/toast.ts";
import { missingParams, queryFallback, RouteQueryCheck } from "./route-query.tsx";
import { type AppRoute, allRoutes } from "./routes.ts";

const query = (params: object) => `?${new URLSearchParams({ params: JSON.stringify(params) })}`;
const route = (name: string): AppRoute => {
  const found = allRoutes().find((r) => r.name === name);
  if (!found) throw new Error(`no route ${name}`);
  return found;
};

describe("missingParams", () => {
  it("names each needed value that is absent, empty or not an id", () => {
    const needs = { params: ["familyId", "familyUserId"], parent: "FamilyUserList" } as const;
    expect(missingParams(needs, { familyId: "f1", familyUserId: "u1" })).toEqual([]);
    expect(missingParams(needs, { familyId: 7, familyUserId: "u1" })).toEqual([]);
    expect(missingParams(needs, { familyId: "f1" })).toEqual(["familyUserId"]);
    expect(missingParams(needs, { familyId: " ", familyUserId: null })).toEqual(["familyId", "familyUserId"]);
    expect(missingParams(needs, { familyId: {}, familyUserId: Number.NaN })).toEqual(["familyId", "familyUserId"]);
    expect(missingParams(undefined, {})).toEqual([]);
  });
});

describe("queryFallback (the route table's needs)", () => {
  it("lets a route with its values, or one that needs none, open", () => {
    expect(queryFallback(route("FamilyDetails"), query({ familyId: "f1" }))).toBeNull();
    expect(queryFallback(route("Device"), query({ deviceId: "d1" }))).toBeNull();
    expect(queryFallback(route("Setting"), "")).toBeNull();
    expect(queryFallback(route("Fault"), "")).toBeNull();
  });

  it("sends a household's screen without its id up to the household list", () => {
    for (const name of ["FamilyDetails", "FamilyUpdate", "FamilyQrcode", "FamilyUserList", "FamilyUserDetails"]) {
      const fallback = queryFallback(route(name), "");
      expect(fallback?.route.name, name).toBe("FamilyList");
      expect(fallback?.params, name).toEqual({});
    }
  });

  it("sends a device's screen without its id up to Home", () => {
    for (const name of [
      "Device",
      "DeviceAttribute",
      "DeviceNameUpdate",
      "DeviceInfo",
      "DeviceSetting",
      "DeviceNetworkNameUpdate",
      "DeviceImage",
    ]) {
      expect(queryFallback(route(name), "")?.route.name, name).toBe("Home");
      // A corrupt params value counts as none.
      expect(queryFallback(route(name), "?params=%7Bnot-json")?.route.name, name).toBe("Home");
    }
  });

  it("stops at the nearest parent whose own needs the query meets, and hands it those values only", () => {
    const fallback = queryFallback(route("FamilyUserDetails"), query({ familyId: "f1", extra: "x" }));
    expect(fallback?.route.name).toBe("FamilyUserList");
    expect(fallback?.params).toEqual({ familyId: "f1" });
  });

  it("ends at Home when a parent is not in the table or the parents loop", () => {
    const a: AppRoute = { name: "Test", path: "/Test", transition: "slide", needs: { params: ["x"], parent: "Test2" } };
    const b: AppRoute = {
      name: "Test2",
      path: "/Test2",
      transition: "slide",
      needs: { params: ["x"], parent: "Test" },
    };
    expect(queryFallback(a, "", [a, b])?.route.name).toBe("Home");
    expect(queryFallback(a, "", [a])?.route.name).toBe("Home");
  });

  it("every parent named in the table exists and every chain ends on a route that needs nothing", () => {
    for (const r of allRoutes()) {
      if (!r.needs) continue;
      expect(
        allRoutes().some((p) => p.name === r.needs?.parent),
        r.name,
      ).toBe(true);
      expect(queryFallback(r, "")?.route.needs, r.name).toBeUndefined();
    }
  });
});

describe("RouteQueryCheck (the route wrapper)", () => {
  let navigate: ReturnType<typeof vi.fn<(to: string | number, options?: { replace?: boolean }) => void>>;
  beforeEach(() => {
    navigate = vi.fn<(to: string | number, options?: { replace?: boolean }) => void>();
    setNavigator({ navigate });
    vi.spyOn(Toast, "show");
  });
  afterEach(() => {
    cleanup();
    setNavigator(null);
    vi.restoreAllMocks();
  });

  it("renders the screen when the query holds what the route needs", async () => {
    render(
      <MemoryRouter initialEntries={[`/FamilyDetails${query({ familyId: "f1" })}`]}>
        <RouteQueryCheck route={route("FamilyDetails")}>details</RouteQueryCheck>
      </MemoryRouter>,
    );
    await act(async () => {});
    expect(screen.getByText("details")).toBeTruthy();
    expect(navigate).not.toHaveBeenCalled();
    expect(Toast.show).not.toHaveBeenCalled();
  });

  it("without it: no screen, a toast, and the parent replaces the entry with the values it needs", async () => {
    render(
      <MemoryRouter initialEntries={[`/FamilyUserDetails${query({ familyId: "f1" })}`]}>
        <RouteQueryCheck route={route("FamilyUserDetails")}>member</RouteQueryCheck>
      </MemoryRouter>,
    );
    await act(async () => {});
    expect(screen.queryByText("member")).toBeNull();
    expect(Toast.show).toHaveBeenCalledWith({ content: "链接不完整" });
    expect(navigate).toHaveBeenCalledWith(
      `/App?${new URLSearchParams({ target: "/FamilyUserList", params: JSON.stringify({ familyId: "f1" }) })}`,
      { replace: true },
    );
  });
});
