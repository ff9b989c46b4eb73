import { describe, expect, it, vi } from "vitest";
import { appUrl, navigateTo, parseRouteParams, resolveAppTarget, setNavigator } from "./index.ts";
import { PATHS } from "./paths.ts";

describe("navigation through /App (spec §2)", () => {
  it("puts params as JSON in one query value and passes requestPageId/projectId apart", () => {
    const url = appUrl(PATHS.Device, { deviceId: "d1", tags: ["a"] }, { requestPageId: "p1", projectId: "7" });
    expect(url.startsWith("/App?")).toBe(true);
    const query = new URLSearchParams(url.slice("/App?".length));
    expect(query.get("target")).toBe("/Device");
    expect(JSON.parse(query.get("params") ?? "")).toEqual({ deviceId: "d1", tags: ["a"] });
    expect(query.get("requestPageId")).toBe("p1");
    expect(query.get("projectId")).toBe("7");
  });

  it("/App resolves to the target with the rest of its query", () => {
    const url = appUrl(PATHS.Device, { deviceId: "d1" });
    const target = resolveAppTarget(url.slice("/App".length));
    expect(target.startsWith("/Device?params=")).toBe(true);
    expect(parseRouteParams(target.slice("/Device".length))).toEqual({ deviceId: "d1" });
    expect(resolveAppTarget("?target=/login")).toBe("/login");
  });

  it("an unknown or missing target goes home; /App never targets itself", () => {
    expect(resolveAppTarget("")).toBe("/index/home");
    expect(resolveAppTarget("?target=https://evil.example")).toBe("/index/home");
    expect(resolveAppTarget("?target=/App")).toBe("/index/home");
  });

  it("corrupt params read as {}", () => {
    expect(parseRouteParams("?params=%7Bnope")).toEqual({});
    expect(parseRouteParams("?params=[1]")).toEqual({});
  });

  it("navigateTo hands the /App URL to the router", () => {
    const navigate = vi.fn();
    setNavigator({ navigate });
    navigateTo(PATHS.FamilyCreate, null, { replace: true });
    expect(navigate).toHaveBeenCalledWith("/App?target=%2FFamilyCreate", { replace: true });
    setNavigator(null);
  });
});
