import { endpoints } from "@aquapilot/contract/wire";
import { QueryObserver } from "@tanstack/react-query";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { changeLanguage } from "../i18n/index.ts";
import { api } from "./client.ts";
import { ApiError } from "./errors.ts";
import { createAppQueryClient, invalidateOnePerTask, NO_ANSWER_RETRIES, retryQuery } from "./query-client.ts";

/** Answers every call; records each call's Accept-Language. */
function server(): string[] {
  const languages: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (_input: string, init: RequestInit = {}) => {
      languages.push((init.headers as Record<string, string>)["Accept-Language"] ?? "");
      return Response.json({ success: true, result: { volumeUnit: "L", hardnessUnit: "mmol" }, error: null });
    }),
  );
  return languages;
}

const units = { queryKey: ["units"], queryFn: () => api(endpoints.getUnitPreferences), staleTime: 60_000 };

beforeEach(async () => {
  localStorage.clear();
  await changeLanguage("en");
});

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe("the query client on a change of language (server texts in the new language; start-up's first calls)", () => {
  it("asks again for answers given in another language", async () => {
    const languages = server();
    const client = createAppQueryClient(() => {});
    await client.fetchQuery(units);
    expect(languages).toEqual(["en"]);
    await changeLanguage("fr");
    expect(client.getQueryState(units.queryKey)?.isInvalidated).toBe(true);
  });

  it("keeps answers asked in the language being switched to while its texts loaded (start-up's first calls)", async () => {
    const languages = server();
    const client = createAppQueryClient(() => {});
    const switching = changeLanguage("ru");
    await client.fetchQuery(units);
    await switching;
    expect(languages).toEqual(["ru"]);
    expect(client.getQueryState(units.queryKey)?.isInvalidated).toBe(false);
  });
});

describe("invalidateOnePerTask (a hub's re-read, one call per task)", () => {
  it("asks again for each shown query in a task of its own, marks the others stale without asking", async () => {
    const client = createAppQueryClient(() => {});
    const calls: Array<{ key: string; tick: number }> = [];
    let tick = 0;
    const ticking = setInterval(() => tick++, 0);
    const observers = ["a", "b", "c"].map(
      (key) =>
        new QueryObserver(client, {
          queryKey: ["device", key],
          queryFn: async () => {
            calls.push({ key, tick });
            return `${key}@${calls.length}`;
          },
        }),
    );
    const offs = observers.map((o) => o.subscribe(() => {}));
    await vi.waitFor(() => expect(calls).toHaveLength(3));
    client.setQueryData(["device", "hidden"], "not shown");
    calls.length = 0;
    await invalidateOnePerTask(client, { queryKey: ["device"] });
    clearInterval(ticking);
    expect(calls.map((c) => c.key)).toEqual(["a", "b", "c"]);
    expect(new Set(calls.map((c) => c.tick)).size).toBe(3);
    expect(client.getQueryState(["device", "hidden"])?.isInvalidated).toBe(true);
    expect(client.getQueryData(["device", "c"])).toBe("c@3");
    for (const off of offs) off();
    client.clear();
  });
});

describe("retryQuery: which failed queries are asked again", () => {
  const attempts = (err: unknown) => {
    let count = 0;
    while (retryQuery(count, err)) count++;
    return count;
  };
  it("never after a 4xx, once after a 5xx or an unreadable answer, three times when no answer came", () => {
    expect(attempts(new ApiError("Forbidden", 403, 403))).toBe(0);
    expect(attempts(new ApiError("Login expired", 401, 401))).toBe(0);
    expect(attempts(new ApiError("Server error", 500, 500))).toBe(1);
    expect(attempts(new ApiError("Server error", 503, 503))).toBe(1);
    expect(attempts(new TypeError("bad body"))).toBe(1);
    expect(NO_ANSWER_RETRIES).toBe(3);
    expect(attempts(new ApiError("No network connection", -2, null))).toBe(3);
  });
});
