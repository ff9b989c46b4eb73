import { QueryClient } from "@tanstack/react-query";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { installSimulatedBridge } from "../../shared/bridge/index.ts";
import { getItem, setItem } from "../../shared/storage/index.ts";
import { clearAppCaches } from "./clear-cache.ts";

beforeEach(() => localStorage.clear());
afterEach(() => vi.unstubAllGlobals());

function fillStorage() {
  setItem("token", { accessToken: "A", refreshToken: "R", expiresAt: 1 });
  setItem("loginInfo", { userName: "ana", grantedPolicies: [], token: "A" });
  setItem("lang", "fr");
  setItem("pushInstallationId", "installation-id-0001");
  setItem("device", { id: "d" });
  setItem("wifi", { name: "home", password: "x" });
  localStorage.setItem("other", "1");
}

describe("clear cache (Setting)", () => {
  it("clears queries, CacheStorage and storage but keeps token, login info, language and installation id", async () => {
    fillStorage();
    const deleted: string[] = [];
    vi.stubGlobal("caches", {
      keys: async () => ["images", "api"],
      delete: async (name: string) => deleted.push(name) > 0,
    });
    const queryClient = new QueryClient();
    queryClient.setQueryData(["profile"], { userName: "ana" });
    const result = await clearAppCaches(queryClient);
    expect(result).toEqual({ native: false, cacheStorage: 2, storageKeys: 3 });
    expect(deleted).toEqual(["images", "api"]);
    expect(queryClient.getQueryData(["profile"])).toBeUndefined();
    expect(getItem("token")?.accessToken).toBe("A");
    expect(getItem("loginInfo")?.userName).toBe("ana");
    expect(getItem("lang")).toBe("fr");
    expect(getItem("pushInstallationId")).toBe("installation-id-0001");
    expect(getItem("device")).toBeNull();
    expect(getItem("wifi")).toBeNull();
    expect(localStorage.getItem("other")).toBeNull();
  });

  it("goes through the native bridge when a shell injected it", async () => {
    fillStorage();
    const clearCache = vi.fn();
    const remove = installSimulatedBridge({ clearCache });
    try {
      const result = await clearAppCaches(null);
      expect(clearCache).toHaveBeenCalledTimes(1);
      expect(result.native).toBe(true);
    } finally {
      remove();
    }
  });
});
