import { afterEach, describe, expect, it, vi } from "vitest";
import { goAfterSignIn, setNavigator } from "./index.ts";
import { parseReturnTo, returnToAppUrl, returnToFromHash, returnToParams } from "./return-to.ts";

const device = `/Device?${new URLSearchParams({ params: JSON.stringify({ deviceId: "d1" }) })}`;

describe("parseReturnTo (only this app's own routes)", () => {
  it("takes a route of the table with its query, in the table's spelling", () => {
    expect(parseReturnTo(device)).toEqual({ path: "/Device", query: device.split("?")[1] });
    expect(parseReturnTo("/setting")).toEqual({ path: "/Setting", query: "" });
    expect(parseReturnTo("/index/home")).toEqual({ path: "/index/home", query: "" });
  });

  it("refuses anything that is not a route of the app: no open redirect", () => {
    for (const raw of [
      "https://evil.example/Device",
      "//evil.example/Device",
      "/\\evil.example",
      "javascript:alert(1)",
      "Device",
      "/Device/../../x",
      "/Nowhere",
      "/Device\n",
      "",
      42,
      null,
      { path: "/Device" },
    ]) {
      expect(parseReturnTo(raw), String(raw)).toBeNull();
    }
  });

  it("refuses the sign-in screens and the internal redirects (no loop, no second hop)", () => {
    for (const raw of [
      "/login",
      "/Register",
      "/FindPassword",
      "/CountrySelect",
      "/App?target=/Device",
      "/Reload",
      "/Splash",
    ]) {
      expect(parseReturnTo(raw), raw).toBeNull();
    }
  });

  it("drops a target value from the query (only /App reads it)", () => {
    expect(parseReturnTo("/Setting?target=https://evil.example&x=1")).toEqual({ path: "/Setting", query: "x=1" });
  });
});

describe("carrying and following the return value", () => {
  it("keeps the hash's route and query, or nothing", () => {
    expect(returnToFromHash(`#${device}`)).toBe(device);
    expect(returnToFromHash("#/login")).toBeNull();
    expect(returnToFromHash("")).toBeNull();
    expect(returnToParams(device)).toEqual({ returnTo: device });
    expect(returnToParams("https://evil.example")).toBeNull();
  });

  it("opens the route through /App with its query", () => {
    expect(returnToAppUrl(device)).toBe(
      `/App?${new URLSearchParams({ target: "/Device", params: JSON.stringify({ deviceId: "d1" }) })}`,
    );
    expect(returnToAppUrl("//evil.example")).toBeNull();
  });

  afterEach(() => setNavigator(null));

  it("goAfterSignIn opens the kept route, else Home; the sign-in entry is replaced either way", async () => {
    const navigate = vi.fn();
    setNavigator({ navigate });
    goAfterSignIn(device);
    goAfterSignIn("https://evil.example/");
    goAfterSignIn(undefined);
    await Promise.resolve();
    expect(navigate.mock.calls).toEqual([
      [returnToAppUrl(device), { replace: true }],
      ["/App?target=%2Findex%2Fhome", { replace: true }],
      ["/App?target=%2Findex%2Fhome", { replace: true }],
    ]);
  });
});
