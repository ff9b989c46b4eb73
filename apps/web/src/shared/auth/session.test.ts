import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { getItem, setItem } from "../storage/index.ts";
import {
  clearLoginInfo,
  getGrantedPolicies,
  loadGrantedPolicies,
  permissionsLoaded,
  signIn,
  signOut,
} from "./session.ts";

const config = (policies: Record<string, boolean>) => ({
  success: true,
  error: null,
  unAuthorizedRequest: false,
  __abp: true,
  result: {
    currentUser: { isAuthenticated: true, id: "u1", userName: "ana", name: null, email: "ana@x.io", phoneNumber: null },
    auth: { grantedPolicies: policies },
    localization: { currentCulture: { name: "en" } },
  },
});

function fakeFetch(...answers: Array<() => Response>) {
  const urls: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) => {
      urls.push(url);
      const next = answers.shift();
      if (!next) throw new Error(`unexpected fetch ${url}`);
      return next();
    }),
  );
  return urls;
}
const json = (status: number, body: unknown) => () => new Response(JSON.stringify(body), { status });

beforeEach(() => {
  localStorage.clear();
  signOut();
});
afterEach(() => vi.unstubAllGlobals());

describe("session (spec §4)", () => {
  it("signIn stores token and login info with the granted policy names", async () => {
    const urls = fakeFetch(
      json(200, { access_token: "A", token_type: "Bearer", expires_in: 3600, refresh_token: "R" }),
      json(200, config({ Message: true, "Device.View": true, AfterSale: false })),
    );
    await signIn("ana@x.io", "secret1");
    expect(urls).toEqual(["/connect/token", "/api/abp/application-configuration"]);
    expect(getItem("loginInfo")).toEqual({ userName: "ana", grantedPolicies: ["Device.View", "Message"], token: "A" });
    expect(getGrantedPolicies()).toEqual(["Device.View", "Message"]);
  });

  it("loads permissions once per session; a failure can be retried", async () => {
    setItem("token", { accessToken: "A", refreshToken: "R", expiresAt: Date.now() + 3600_000 });
    const urls = fakeFetch(
      json(500, { error: { code: "Internal", message: "down" } }),
      json(200, config({ master: true })),
    );
    await expect(loadGrantedPolicies()).rejects.toMatchObject({ message: "down" });
    expect(permissionsLoaded()).toBe(false);
    await loadGrantedPolicies();
    await loadGrantedPolicies();
    expect(urls).toHaveLength(2);
    expect(getGrantedPolicies()).toEqual(["master"]);
  });

  it("entering Login clears login info and token; logout also clears the device", () => {
    setItem("token", { accessToken: "A", refreshToken: "R", expiresAt: 1 });
    setItem("loginInfo", { userName: "ana", grantedPolicies: ["x"], token: "A" });
    setItem("device", { id: "d" });
    // A Device screen's snapshot an earlier version kept (storage RETIRED_KEYS): the next account must not see it.
    localStorage.setItem("deviceSnapshot", JSON.stringify({ v: 1, lang: "en", nodes: ["Kitchen"], deviceId: "d" }));
    clearLoginInfo();
    expect(getItem("loginInfo")).toBeNull();
    expect(getItem("token")).toBeNull();
    expect(localStorage.getItem("deviceSnapshot")).toBeNull();
    expect(getItem("device")).toEqual({ id: "d" });
    signOut();
    expect(getItem("device")).toBeNull();
  });
});
