import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { getItem, setItem } from "../../shared/storage/index.ts";
import { clearAppCaches } from "./clear-cache.ts";
import {
  checkWebVersion,
  fetchDeployedVersion,
  startWebVersionWatch,
  VERSION_CHECK_INTERVAL_MS,
} from "./web-version.ts";

beforeEach(() => localStorage.clear());
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

function deps(version: string | null) {
  return { fetchVersion: vi.fn(async () => version), clear: vi.fn(async () => {}), reload: vi.fn() };
}

describe("web version check (spec §7)", () => {
  it("reads version.json without cache", async () => {
    const fetch = vi.fn(async (_url: string, _init: RequestInit) => new Response(JSON.stringify({ version: "1+b" })));
    vi.stubGlobal("fetch", fetch);
    expect(await fetchDeployedVersion("version.json", () => 42)).toBe("1+b");
    expect(fetch.mock.calls[0][0]).toBe("version.json?t=42");
    expect(fetch.mock.calls[0][1]).toMatchObject({ cache: "no-store" });
    vi.stubGlobal("fetch", async () => new Response("not json"));
    expect(await fetchDeployedVersion()).toBeNull();
    vi.stubGlobal("fetch", async () => new Response("{}", { status: 404 }));
    expect(await fetchDeployedVersion()).toBeNull();
  });

  it("first run stores the version without reloading", async () => {
    const d = deps("1+a");
    expect(await checkWebVersion(d)).toBe("stored");
    expect(getItem("version")).toBe("1+a");
    expect(d.reload).not.toHaveBeenCalled();
  });

  it("the same version does nothing; an unreadable one changes nothing", async () => {
    setItem("version", "1+a");
    const same = deps("1+a");
    expect(await checkWebVersion(same)).toBe("same");
    const none = deps(null);
    expect(await checkWebVersion(none)).toBe("unknown");
    expect(getItem("version")).toBe("1+a");
    expect([same.clear, same.reload, none.clear, none.reload].every((f) => f.mock.calls.length === 0)).toBe(true);
  });

  it("a different version clears caches and reloads once, even when clearing drops the stored version", async () => {
    setItem("version", "1+a");
    setItem("lang", "en");
    setItem("family", { id: "f", name: "Home" });
    const d = { ...deps("1+b"), clear: vi.fn(() => clearAppCaches(null)) };
    expect(await checkWebVersion(d)).toBe("reloaded");
    expect(d.clear).toHaveBeenCalledTimes(1);
    expect(d.reload).toHaveBeenCalledTimes(1);
    expect(getItem("version")).toBe("1+b");
    expect(getItem("family")).toBeNull();
    expect(getItem("lang")).toBe("en");
    // the reloaded page finds the same version: no second reload
    const again = deps("1+b");
    expect(await checkWebVersion(again)).toBe("same");
    expect(again.reload).not.toHaveBeenCalled();
  });

  it("checks at start and every 10 minutes until stopped", async () => {
    vi.useFakeTimers();
    setItem("version", "1+a");
    const d = deps("1+a");
    const stop = startWebVersionWatch(d);
    await vi.advanceTimersByTimeAsync(0);
    expect(d.fetchVersion).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(VERSION_CHECK_INTERVAL_MS - 1);
    expect(d.fetchVersion).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(d.fetchVersion).toHaveBeenCalledTimes(2);
    stop();
    await vi.advanceTimersByTimeAsync(VERSION_CHECK_INTERVAL_MS * 3);
    expect(d.fetchVersion).toHaveBeenCalledTimes(2);
  });
});
