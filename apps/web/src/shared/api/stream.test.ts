import { endpoint, SIGNED_IN, toWire } from "@aquapilot/contract";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { i18n } from "../i18n/index.ts";
import { getItem, setItem } from "../storage/index.ts";
import { onUnauthorized } from "./events.ts";
import { pendingLoads } from "./loading.ts";
import { apiStream } from "./stream.ts";
import { fakeFetch, trickle } from "./testing/fake-fetch.ts";

/** A streamed GET like the CSV export: declared query, an answer that is not an envelope. */
const csv = toWire(
  endpoint({
    method: "GET",
    path: "/api/test/export.csv",
    query: z.object({ deviceId: z.string() }),
    body: undefined,
    result: z.string(),
    access: SIGNED_IN,
    summary: "test stream",
  }),
);

beforeEach(async () => {
  localStorage.clear();
  await i18n.changeLanguage("en");
});
afterEach(() => vi.unstubAllGlobals());

describe("apiStream(): a streamed answer read as it arrives (spec §7 'streaming response')", () => {
  it("hands out every piece with the bytes so far, then the whole body, its type and file name", async () => {
    setItem("token", { accessToken: "tok", refreshToken: "r", expiresAt: Date.now() + 3600_000 });
    const body = trickle(["a,b\n", "1,2\n", "3,4\n"]);
    const calls = fakeFetch(
      new Response(body.stream, {
        headers: {
          "content-type": "text/csv; charset=utf-8",
          "content-disposition": 'attachment; filename="water-hourly.csv"',
          "x-total-rows": "2",
        },
      }),
    );
    const progress: Array<[string, number, number | null]> = [];
    let announced: string | null = null;
    const done = apiStream(csv, {
      query: { deviceId: "d 1" },
      onResponse: (h) => {
        announced = h.get("x-total-rows");
      },
      onChunk: (chunk, p) => progress.push([new TextDecoder().decode(chunk), p.loaded, p.total]),
    });
    await vi.waitFor(() => expect(announced).toBe("2"));
    expect(progress).toEqual([]);
    body.next();
    await vi.waitFor(() => expect(progress).toHaveLength(1));
    expect(progress[0]).toEqual(["a,b\n", 4, null]);
    body.next();
    body.next();
    body.next();
    const result = await done;
    expect(progress.map((p) => p[1])).toEqual([4, 8, 12]);
    expect(result.bytes).toBe(12);
    expect(await result.blob.text()).toBe("a,b\n1,2\n3,4\n");
    expect(result.blob.type).toBe("text/csv; charset=utf-8");
    expect(result.fileName).toBe("water-hourly.csv");
    expect(calls[0].url).toBe("/api/test/export.csv?deviceId=d+1");
    expect(new Headers(calls[0].init.headers).get("Authorization")).toBe("Bearer tok");
    expect(new Headers(calls[0].init.headers).get("Idempotency-Key")).toBeNull();
  });

  it("the total is the announced Content-Length; collect: false keeps nothing", async () => {
    fakeFetch(new Response("0123456789", { headers: { "content-length": "10" } }));
    const totals: Array<number | null> = [];
    const result = await apiStream(csv, {
      query: { deviceId: "d" },
      collect: false,
      onChunk: (_c, p) => totals.push(p.total),
    });
    expect(totals.every((t) => t === 10)).toBe(true);
    expect(result.bytes).toBe(10);
    expect(result.blob.size).toBe(0);
  });

  it("an error answer is read as the envelope: the server's message in the user's language", async () => {
    fakeFetch(
      new Response(JSON.stringify({ success: false, error: { code: "Forbidden", message: "Accès refusé" } }), {
        status: 403,
        headers: { "content-type": "application/json" },
      }),
    );
    const onChunk = vi.fn();
    await expect(apiStream(csv, { query: { deviceId: "d" }, onChunk })).rejects.toMatchObject({
      status: 403,
      code: "Forbidden",
      message: "Accès refusé",
    });
    expect(onChunk).not.toHaveBeenCalled();
  });

  it("a connection that breaks mid-body is code -2 (server error); an abort mid-body is an AbortError", async () => {
    await i18n.changeLanguage("ru");
    const broken = trickle(["a\n"]);
    const aborted = trickle(["a\n"]);
    fakeFetch(new Response(broken.stream), new Response(aborted.stream));
    const seen: number[] = [];
    const first = apiStream(csv, { query: { deviceId: "d" }, onChunk: (_c, p) => seen.push(p.loaded) });
    broken.next();
    await vi.waitFor(() => expect(seen).toEqual([2]));
    broken.fail();
    await expect(first).rejects.toMatchObject({ code: -2, message: i18n.t("errors.serverError") });

    const controller = new AbortController();
    const second = apiStream(csv, { query: { deviceId: "d" }, signal: controller.signal, loading: true });
    aborted.next();
    await vi.waitFor(() => expect(pendingLoads()).toBe(1));
    controller.abort();
    await expect(second).rejects.toMatchObject({ name: "AbortError" });
    expect(pendingLoads()).toBe(0);
  });

  it("a 401 refreshes the token once and streams the retried answer", async () => {
    setItem("token", { accessToken: "old", refreshToken: "r", expiresAt: Date.now() + 3600_000 });
    const calls = fakeFetch(
      new Response("", { status: 401 }),
      new Response(
        JSON.stringify({ access_token: "new", token_type: "Bearer", expires_in: 3600, refresh_token: "r2" }),
      ),
      new Response("x\n"),
    );
    const seen = vi.fn();
    const off = onUnauthorized(seen);
    const result = await apiStream(csv, { query: { deviceId: "d" } });
    off();
    expect(await result.blob.text()).toBe("x\n");
    expect(new Headers(calls[2].init.headers).get("Authorization")).toBe("Bearer new");
    expect(getItem("token")?.accessToken).toBe("new");
    expect(seen).not.toHaveBeenCalled();
  });

  it("a throwing onChunk stops the read with its own error", async () => {
    fakeFetch(new Response("abc"));
    await expect(
      apiStream(csv, {
        query: { deviceId: "d" },
        onChunk: () => {
          throw new Error("disk full");
        },
      }),
    ).rejects.toThrow("disk full");
  });
});
