import { type Endpoint, endpoint, SIGNED_IN, toWire } from "@aquapilot/contract";
import { endpoints } from "@aquapilot/contract/wire";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { i18n } from "../i18n/index.ts";
import { setItem } from "../storage/index.ts";
import { api } from "./client.ts";
import { ApiError } from "./errors.ts";
import { onUnauthorized } from "./events.ts";
import { pendingLoads, setLoadingIndicator } from "./loading.ts";
import { asPage } from "./page.ts";
import { type FetchCall, fakeFetch, json } from "./testing/fake-fetch.ts";
import { setProjectId } from "./transport.ts";

type Call = FetchCall;

function envelope(result: unknown) {
  return { success: true, result, error: null, unAuthorizedRequest: false, __abp: true };
}

const header = (call: Call, name: string) => new Headers(call.init.headers).get(name);

/** A test endpoint with a query, a JSON body and a path value, declared like the contract's entries. */
const testEndpoint = toWire({
  method: "POST",
  path: "/api/test/{id}/do",
  query: z.object({ ids: z.array(z.number()).optional(), at: z.date().optional(), name: z.string().nullable() }),
  body: z.object({ a: z.number(), b: z.string().nullable().optional(), nested: z.object({ c: z.null() }).optional() }),
  result: z.object({ ok: z.boolean() }),
  params: z.object({ id: z.string() }),
  access: SIGNED_IN,
  summary: "test",
} satisfies Endpoint);

beforeEach(async () => {
  localStorage.clear();
  setProjectId(null);
  await i18n.changeLanguage("en");
});
afterEach(() => vi.unstubAllGlobals());

describe("api() request (spec §7)", () => {
  it("sends bearer token, Accept-Language and project-id; serialises the query and body", async () => {
    setItem("token", { accessToken: "tok", refreshToken: "ref", expiresAt: Date.now() + 3600_000 });
    setProjectId("p-7");
    const calls = fakeFetch(json(200, envelope({ ok: true })));
    const at = new Date("2025-01-02T03:04:05.000Z");
    const result = await api(testEndpoint, {
      params: { id: "x 1" },
      query: { ids: [1, 2], at, name: null },
      body: { a: 1, b: null, nested: { c: null } },
    });
    expect(result).toEqual({ ok: true });
    expect(calls[0].url).toBe("/api/test/x%201/do?ids=1&ids=2&at=2025-01-02T03%3A04%3A05.000Z");
    expect(calls[0].init.method).toBe("POST");
    expect(header(calls[0], "Authorization")).toBe("Bearer tok");
    expect(header(calls[0], "Accept-Language")).toBe("en");
    expect(header(calls[0], "project-id")).toBe("p-7");
    expect(header(calls[0], "Content-Type")).toBe("application/json");
    expect(JSON.parse(calls[0].init.body as string)).toEqual({ a: 1, nested: {} });
  });

  it("sends no Authorization or project-id when signed out and unset; language follows i18n", async () => {
    await i18n.changeLanguage("zh-Hans");
    const calls = fakeFetch(json(200, envelope([])));
    await api(endpoints.userBindTypeList);
    expect(header(calls[0], "Authorization")).toBeNull();
    expect(header(calls[0], "project-id")).toBeNull();
    expect(header(calls[0], "Accept-Language")).toBe("zh-Hans");
    expect(calls[0].url).toBe("/api/basic-data/app/account/user_bind_type_list");
  });

  it("throws before sending when a query or body key is not declared (spec §5)", async () => {
    const calls = fakeFetch();
    await expect(api(endpoints.getFamilyDevices, { query: { familyId: "f", extra: 1 } as never })).rejects.toThrow(
      /Undeclared query parameter "extra"/,
    );
    await expect(api(testEndpoint, { params: { id: "1" }, body: { a: 1, z: 2 } as never })).rejects.toThrow(
      /Undeclared body parameter "z"/,
    );
    await expect(api(endpoints.getProfile, { body: {} as never })).rejects.toThrow(/takes no body/);
    expect(calls).toHaveLength(0);
  });
});

describe('path parameters (spec §7 "P")', () => {
  /** Like the contract's `GET /family/{id}`: a path with one `{id}` segment and its `params` schema. */
  const byId = toWire(
    endpoint({
      method: "DELETE",
      path: "/api/run-lucky/device/app/family/{id}",
      query: z.object({}),
      body: undefined,
      params: z.object({ id: z.string() }),
      result: z.null(),
      access: SIGNED_IN,
      summary: "test by id",
    }),
  );

  it("substitutes {id} from params, URI-encoded", async () => {
    const calls = fakeFetch(json(200, envelope(null)), json(200, envelope(null)));
    await api(byId, { params: { id: "f-1" } });
    await api(byId, { params: { id: "a/b c" } });
    expect(calls.map((c) => c.url)).toEqual([
      "/api/run-lucky/device/app/family/f-1",
      "/api/run-lucky/device/app/family/a%2Fb%20c",
    ]);
    expect(calls[0].init.method).toBe("DELETE");
  });

  it("a missing, empty or undeclared path value throws before anything is sent", async () => {
    const calls = fakeFetch();
    await expect(api(byId, { params: {} as never })).rejects.toThrow(/Missing path value "id"/);
    await expect(api(byId, { params: { id: "" } })).rejects.toThrow(/Missing path value "id"/);
    await expect(api(byId, { params: { id: "1", other: "2" } as never })).rejects.toThrow(
      /Undeclared path parameter "other"/,
    );
    await expect(api(endpoints.getProfile, { params: { id: "1" } } as never)).rejects.toThrow(
      /Undeclared path parameter "id"/,
    );
    expect(calls).toHaveLength(0);
  });

  it("params are typed from the contract: required for {id} endpoints, refused elsewhere", () => {
    // Compile-time checks (tsc -p apps/web): each @ts-expect-error fails the typecheck if the typing regresses.
    const typed = () => {
      // @ts-expect-error params is required for a path with {id}
      void api(byId);
      // @ts-expect-error the id must be text
      void api(byId, { params: { id: 1 } });
      // @ts-expect-error an endpoint without {…} takes no params
      void api(endpoints.getProfile, { params: { id: "1" } });
    };
    expect(typeof typed).toBe("function");
  });
});

describe("api() answers and the error mapping of spec §8", () => {
  it("unwraps a page and a bare array alike", async () => {
    fakeFetch(json(200, envelope({ items: [{ id: 1 }], totalCount: 9 })), json(200, envelope([{ id: 2 }])));
    const page = asPage(await api(endpoints.getFamilies, { query: { skipCount: 0, maxResultCount: 15 } }));
    expect(page).toEqual({ items: [{ id: 1 }], totalCount: 9 });
    const bare = asPage((await api(endpoints.getFamilyDevices, { query: { familyId: "f" } })) as never);
    expect(bare).toEqual({ items: [{ id: 2 }], totalCount: 1 });
  });

  it("no success flag and no error object: code -1 with an empty message", async () => {
    fakeFetch(json(200, { something: 1 }));
    const err = await api(endpoints.getProfile).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: -1, message: "" });
  });

  it("network failure without a response: code -2, shown as server error", async () => {
    fakeFetch(new TypeError("Failed to fetch"));
    const err = await api(endpoints.getProfile).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: -2, status: null, message: "Server error, please try again later" });
  });

  it("a creating call carries an Idempotency-Key and, its answer lost, is sent once more with the same key", async () => {
    const calls = fakeFetch(new TypeError("Failed to fetch"), json(200, envelope({ ok: true })));
    await expect(api(testEndpoint, { params: { id: "x" }, query: { name: null }, body: { a: 1 } })).resolves.toEqual({
      ok: true,
    });
    expect(calls).toHaveLength(2);
    const key = header(calls[0], "Idempotency-Key");
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(header(calls[1], "Idempotency-Key")).toBe(key);
    // A read carries none and is not sent twice.
    const reads = fakeFetch(new TypeError("Failed to fetch"));
    await api(endpoints.getProfile).catch(() => null);
    expect(reads).toHaveLength(1);
    expect(header(reads[0], "Idempotency-Key")).toBeNull();
  });

  it("an identical creating call made while one is under way joins it; a different one goes on its own", async () => {
    let release: (r: Response) => void = () => {};
    const calls = fakeFetch(
      () => new Promise<Response>((resolve) => (release = resolve)),
      json(200, envelope({ ok: false })),
    );
    const options = { params: { id: "x" }, query: { name: null }, body: { a: 1 } };
    const first = api(testEndpoint, options);
    const second = api(testEndpoint, options);
    const other = api(testEndpoint, { ...options, body: { a: 2 } });
    await expect(other).resolves.toEqual({ ok: false });
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    release(json(200, envelope({ ok: true })));
    await expect(Promise.all([first, second])).resolves.toEqual([{ ok: true }, { ok: true }]);
    expect(calls).toHaveLength(2);
    expect(header(calls[0], "Idempotency-Key")).not.toBe(header(calls[1], "Idempotency-Key"));
  });

  it("an identical call with an abort signal is never joined: a cancelled read leaves its replacement its answer", async () => {
    const calls = fakeFetch(
      (_url, init) =>
        new Promise<Response>((_resolve, reject) =>
          init?.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))),
        ),
      json(200, envelope({ ok: "fresh" })),
    );
    const options = { params: { id: "x" }, query: { name: null }, body: { a: 1 } };
    const cancelled = new AbortController();
    const first = api(testEndpoint, { ...options, signal: cancelled.signal }).catch((e: unknown) => e);
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    const second = api(testEndpoint, { ...options, signal: new AbortController().signal });
    cancelled.abort();
    await expect(first).resolves.toMatchObject({ name: "AbortError" });
    await expect(second).resolves.toEqual({ ok: "fresh" });
    expect(calls).toHaveLength(2);
  });

  it("HTTP 401: Login expired and the global unauthorised event", async () => {
    fakeFetch(json(401, { error: { code: "Unauthorized", message: "nope" } }));
    const seen = vi.fn();
    const off = onUnauthorized(seen);
    const err = await api(endpoints.getProfile).catch((e: unknown) => e);
    off();
    expect(err).toMatchObject({ status: 401, message: "Login expired" });
    expect(seen).toHaveBeenCalledTimes(1);
  });

  it("other HTTP errors: server message, else error_description, else status text", async () => {
    fakeFetch(
      json(400, {
        success: false,
        error: { code: "Validation", message: "Bad input", validationErrors: [{ message: "x" }] },
      }),
      json(400, { error: "invalid_grant", error_description: "Wrong password" }),
      new Response("", { status: 503, statusText: "Service Unavailable" }),
    );
    await expect(api(endpoints.getProfile)).rejects.toMatchObject({
      code: "Validation",
      status: 400,
      message: "Bad input",
      validationErrors: ["x"],
    });
    await expect(api(endpoints.getProfile)).rejects.toMatchObject({ status: 400, message: "Wrong password" });
    await expect(api(endpoints.getProfile)).rejects.toMatchObject({ status: 503, message: "Service Unavailable" });
  });

  it("success false: the generic failed-request error unless the server says more", async () => {
    fakeFetch(
      json(200, { success: false, result: null, error: null, __abp: true }),
      json(200, { success: false, result: null, error: { code: "DeviceOffline", message: "Device offline" } }),
    );
    await expect(api(endpoints.getProfile)).rejects.toMatchObject({ message: "Request failed" });
    await expect(api(endpoints.getProfile)).rejects.toMatchObject({ code: "DeviceOffline", message: "Device offline" });
  });
});

describe("counted loading indicator (spec §5)", () => {
  it("shows once for overlapping requests and hides only after the last one ends", async () => {
    const events: string[] = [];
    setLoadingIndicator({ show: () => events.push("show"), hide: () => events.push("hide") });
    let releaseFirst!: () => void;
    const first = new Promise<Response>((resolve) => {
      releaseFirst = () => resolve(json(200, envelope(null)));
    });
    fakeFetch(() => first, json(500, { error: { code: "Internal", message: "boom" } }));
    const a = api(endpoints.getProfile, { loading: true });
    const b = api(endpoints.getProfile, { loading: true }).catch(() => "failed");
    expect(await b).toBe("failed");
    expect(events).toEqual(["show"]);
    expect(pendingLoads()).toBe(1);
    releaseFirst();
    await a;
    expect(events).toEqual(["show", "hide"]);
    expect(pendingLoads()).toBe(0);
  });

  it("uncounted calls leave the indicator alone", async () => {
    const events: string[] = [];
    setLoadingIndicator({ show: () => events.push("show"), hide: () => events.push("hide") });
    fakeFetch(json(200, envelope(null)));
    await api(endpoints.getProfile);
    expect(events).toEqual([]);
  });
});
