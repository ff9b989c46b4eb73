import { QueryClient } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ROUTES } from "../app/routes.ts";
import { removeItem, setItem } from "../shared/storage/index.ts";
import { firstRoutes, firstTextGroups, loadedScreen, preloadFirstScreen } from "./first-screen.ts";

const names = (hash: string) => firstRoutes(hash).map((r) => r.name);

function signIn() {
  setItem("token", { accessToken: "a", refreshToken: "r", expiresAt: Date.now() + 3_600_000 });
}

describe("first screen preload (its chunks, texts and calls at start-up)", () => {
  afterEach(() => removeItem("token"));

  it("matches the opened path, outermost route first, and sends / and unknown paths to Home", () => {
    signIn();
    expect(names("#/index/home")).toEqual(["Index", "Home"]);
    expect(names("#/index/my")).toEqual(["Index", "My"]);
    expect(names("")).toEqual(["Index", "Home"]);
    expect(names("#/")).toEqual(["Index", "Home"]);
    expect(names("#/no-such-page")).toEqual(["Index", "Home"]);
    expect(names("#/login?from=x")).toEqual(["Login"]);
  });

  it("opens Login instead of a route that needs a session when no token is stored, but keeps open routes", () => {
    expect(names("#/index/home")).toEqual(["Login"]);
    expect(names("")).toEqual(["Login"]);
    expect(names("#/register")).toEqual(["Register"]);
  });

  it("collects the routes' text groups, all groups for a route that names none", () => {
    signIn();
    expect(firstTextGroups(firstRoutes("#/index/home")).sort()).toEqual(["home", "start"]);
    expect(firstTextGroups(firstRoutes("#/login"))).toEqual(["start"]);
    expect(firstTextGroups(firstRoutes("#/register")).sort()).toEqual(["account", "start"]);
    const undeclared = firstRoutes("#/index/home").map((r) => ({ ...r, texts: undefined }));
    expect(firstTextGroups(undeclared).sort()).toEqual(["account", "device", "home", "rest", "start"]);
  });

  it("tells start-up the first screen's groups and whether it needs a session", () => {
    expect(preloadFirstScreen("#/login")).toMatchObject({ textGroups: ["start"], needsSession: false });
    expect(preloadFirstScreen("#/index/home")).toMatchObject({ textGroups: ["start"], needsSession: false });
    signIn();
    const home = preloadFirstScreen("#/index/home");
    expect(home.needsSession).toBe(true);
    expect(home.textGroups.sort()).toEqual(["home", "start"]);
  });

  it("holds the first render for its data on the Device screen only (signed in), not on Home, Login or elsewhere", () => {
    const device = `#/Device?params=${encodeURIComponent(JSON.stringify({ deviceId: "d1", familyId: "f1" }))}`;
    // Signed out, the Device route's first screen is Login: nothing to hold for.
    expect(preloadFirstScreen(device).holdsFirstRender).toBe(false);
    signIn();
    expect(preloadFirstScreen(device)).toMatchObject({
      holdsFirstRender: true,
      needsSession: true,
      textGroups: ["start", "home", "device"],
    });
    for (const hash of ["#/index/home", "#/login", "#/DeviceAttribute", "#/MessageDetails"]) {
      expect(preloadFirstScreen(hash).holdsFirstRender, hash).toBe(false);
    }
  });

  it("once ready, hands the router the loaded screen of each first route, and of no other route", async () => {
    const login = ROUTES.find((r) => r.name === "Login");
    const register = ROUTES.find((r) => r.name === "Register");
    if (!login || !register) throw new Error("route table without Login or Register");
    const first = preloadFirstScreen("#/login");
    await first.ready;
    const screen = loadedScreen(login);
    expect(screen).toBe((await import("../features/account/screens/login-screen.tsx")).LoginScreen);
    expect(loadedScreen(register)).toBeNull();
  });

  it("starts the first routes' own calls, and no other route's", async () => {
    const home = ROUTES.find((r) => r.name === "Index")?.children?.find((r) => r.name === "Home");
    expect(home?.data).toBeTypeOf("function");
    const start = vi.fn(async (_client: QueryClient) => {});
    const data = vi.spyOn(home as NonNullable<typeof home>, "data").mockResolvedValue(start);
    try {
      const client = new QueryClient();
      await preloadFirstScreen("#/index/home").loadData(client); // no token: Login, which has no calls
      expect(data).not.toHaveBeenCalled();
      signIn();
      await preloadFirstScreen("#/index/my").loadData(client);
      expect(start).not.toHaveBeenCalled();
      // The starter loads with the screen's chunk, before start-up asks for the calls.
      const first = preloadFirstScreen("#/index/home");
      expect(data).toHaveBeenCalledOnce();
      expect(start).not.toHaveBeenCalled();
      await first.loadData(client);
      expect(start).toHaveBeenCalledExactlyOnceWith(client);
      // A starter that fails, or fails to load, never fails start-up.
      start.mockRejectedValueOnce(new Error("offline"));
      await expect(preloadFirstScreen("#/index/home").loadData(client)).resolves.toBeUndefined();
      data.mockRejectedValueOnce(new Error("chunk"));
      await expect(preloadFirstScreen("#/index/home").loadData(client)).resolves.toBeUndefined();
    } finally {
      data.mockRestore();
    }
  });
});
