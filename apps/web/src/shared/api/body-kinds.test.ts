import { endpoint, SIGNED_IN, toWire } from "@aquapilot/contract";
import { endpoints } from "@aquapilot/contract/wire";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { i18n } from "../i18n/index.ts";
import { setItem } from "../storage/index.ts";
import { api } from "./client.ts";
import { type FetchCall, fakeFetch, json } from "./testing/fake-fetch.ts";
import { requestToken } from "./token.ts";
import { binaryBody, formBody, multipartBody, setTenant, TENANT_HEADER } from "./transport.ts";
import { uploadMultipart } from "./upload.ts";

type Call = FetchCall;

const envelope = (result: unknown) => ({ success: true, result, error: null });
const header = (call: Call, name: string) => new Headers(call.init.headers).get(name);

/** A POST endpoint declaring an object body, like the contract's JSON entries. */
const declared = toWire(
  endpoint({
    method: "POST",
    path: "/api/test/declared",
    query: z.object({}),
    body: z.object({ name: z.string(), ids: z.array(z.number()).optional(), at: z.date().optional() }),
    result: z.unknown(),
    access: SIGNED_IN,
    summary: "test",
  }),
);

/** A POST endpoint without a JSON schema (an upload). */
const upload = toWire(
  endpoint({
    method: "POST",
    path: "/api/test/upload",
    query: z.object({}),
    body: undefined,
    result: z.object({ fileUrl: z.string() }),
    access: SIGNED_IN,
    summary: "test upload",
  }),
);

beforeEach(async () => {
  localStorage.clear();
  setTenant(null);
  await i18n.changeLanguage("en");
});
afterEach(() => vi.unstubAllGlobals());

describe("one api() for every body kind (spec §7)", () => {
  it("JSON stays the default: application/json, nulls dropped", async () => {
    const calls = fakeFetch(json(200, envelope(1)));
    await api(declared, { body: { name: "a", ids: [1, 2] } });
    expect(header(calls[0], "Content-Type")).toBe("application/json");
    expect(calls[0].init.body).toBe('{"name":"a","ids":[1,2]}');
  });

  it("form-urlencoded: lists without indices, dates as ISO text, null dropped, declared keys only", async () => {
    const calls = fakeFetch(json(200, envelope(1)));
    const at = new Date("2025-06-01T10:00:00.000Z");
    await api(declared, { body: formBody({ name: "a b", ids: [1, null, 3], at, extra: null }) });
    expect(header(calls[0], "Content-Type")).toBe("application/x-www-form-urlencoded");
    expect(calls[0].init.body).toBe("name=a+b&ids=1&ids=3&at=2025-06-01T10%3A00%3A00.000Z");
    expect(header(calls[0], "Idempotency-Key")).toMatch(/^[0-9a-f-]{36}$/);
    await expect(api(declared, { body: formBody({ name: "a", other: 1 }) })).rejects.toThrow(
      /Undeclared body parameter "other"/,
    );
    expect(calls).toHaveLength(1);
  });

  it("an identical form call under way is joined; multipart and binary calls never are", async () => {
    let release: (r: Response) => void = () => {};
    const calls: Call[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string, init: RequestInit) => {
        calls.push({ url, init });
        if (calls.length === 1) return new Promise<Response>((resolve) => (release = resolve));
        return json(200, envelope(calls.length));
      }),
    );
    const first = api(declared, { body: formBody({ name: "x" }) });
    const twin = api(declared, { body: formBody({ name: "x" }) });
    const file = new Blob(["abc"], { type: "image/png" });
    await api(upload, { body: multipartBody({ file }) });
    await api(upload, { body: multipartBody({ file }) });
    await api(upload, { body: binaryBody(file) });
    await api(upload, { body: binaryBody(file) });
    expect(calls).toHaveLength(5);
    release(json(200, envelope("first")));
    await expect(Promise.all([first, twin])).resolves.toEqual(["first", "first"]);
    expect(calls).toHaveLength(5);
  });

  it("multipart: the FormData goes to the platform, which writes the boundary; parts named as given", async () => {
    const calls = fakeFetch(json(200, envelope({ fileUrl: "/uploads/files/a.png" })));
    const photo = new Blob([new Uint8Array([1, 2, 3])], { type: "image/png" });
    await api(upload, {
      body: multipartBody({ file: { blob: photo, fileName: "a.png" }, note: "hi", when: new Date(0), skip: null }),
    });
    const form = calls[0].init.body as FormData;
    expect(form).toBeInstanceOf(FormData);
    expect(header(calls[0], "Content-Type")).toBeNull();
    expect([...form.keys()]).toEqual(["file", "note", "when"]);
    expect((form.get("file") as File).name).toBe("a.png");
    expect(new Uint8Array(await (form.get("file") as File).arrayBuffer())).toEqual(new Uint8Array([1, 2, 3]));
    expect(form.get("note")).toBe("hi");
    expect(form.get("when")).toBe("1970-01-01T00:00:00.000Z");
  });

  it("binary: the bytes as they are, with their content type (default: the blob's, else octet-stream)", async () => {
    const calls = fakeFetch(json(200, envelope(1)), json(200, envelope(2)), json(200, envelope(3)));
    const png = new Blob([new Uint8Array([137, 80])], { type: "image/png" });
    await api(upload, { body: binaryBody(png) });
    const bytes = new Uint8Array([0, 255]).buffer;
    await api(upload, { body: binaryBody(bytes) });
    await api(upload, { body: binaryBody(bytes, "application/x-firmware") });
    expect(calls.map((c) => header(c, "Content-Type"))).toEqual([
      "image/png",
      "application/octet-stream",
      "application/x-firmware",
    ]);
    expect(calls[0].init.body).toBe(png);
    expect(calls[1].init.body).toBe(bytes);
  });

  it("a GET takes no body of any kind, and a JSON body needs a declared schema", async () => {
    const calls = fakeFetch();
    await expect(api(endpoints.getProfile, { body: formBody({ a: 1 }) as never })).rejects.toThrow(/takes no body/);
    await expect(api(upload, { body: { a: 1 } as never })).rejects.toThrow(/takes no body/);
    expect(calls).toHaveLength(0);
  });

  it("sends the native shell's tenant on every call while one is set (spec §3 native config)", async () => {
    const calls = fakeFetch(json(200, envelope(null)), json(200, envelope(null)), json(200, envelope(null)));
    setTenant("acme");
    await api(endpoints.getProfile);
    setTenant("  ");
    await api(endpoints.getProfile);
    setTenant(null);
    await api(endpoints.getProfile);
    expect(calls.map((c) => header(c, TENANT_HEADER))).toEqual(["acme", null, null]);
  });

  it("the token call goes over the same wire: form body, language and tenant", async () => {
    await i18n.changeLanguage("fr");
    setTenant("acme");
    const calls = fakeFetch(
      json(200, { access_token: "A", token_type: "Bearer", expires_in: 60, refresh_token: "R" }),
      new TypeError("Failed to fetch"),
    );
    await requestToken({ grant_type: "password", username: "u", password: "p w" });
    expect(calls[0].init.body).toBe("grant_type=password&username=u&password=p+w");
    expect(header(calls[0], "Content-Type")).toBe("application/x-www-form-urlencoded");
    expect(header(calls[0], "Accept-Language")).toBe("fr");
    expect(header(calls[0], TENANT_HEADER)).toBe("acme");
    expect(header(calls[0], "Authorization")).toBeNull();
    // A network failure is code -2 with the server-error text in the user's language.
    const err = await requestToken({ grant_type: "refresh_token", refresh_token: "R" }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: -2, message: i18n.t("errors.serverError") });
    expect(i18n.t("errors.serverError")).not.toBe("Server error, please try again later");
  });
});

/**
 * A scripted XMLHttpRequest (the browser's edge): records what was sent, and answers with the next script —
 * upload progress steps then a status and JSON text, or a network error.
 */
type XhrScript = {
  progress?: Array<[number, number]>;
  status?: number;
  body?: unknown;
  fail?: boolean;
  hang?: boolean;
};
function fakeXhr(...scripts: XhrScript[]) {
  const sent: Array<{ method: string; url: string; headers: Record<string, string>; body: unknown }> = [];
  const instances: FakeXhr[] = [];
  class FakeXhr {
    upload: { onprogress: ((e: ProgressEvent) => void) | null } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    ontimeout: (() => void) | null = null;
    onabort: (() => void) | null = null;
    responseType = "";
    status = 0;
    statusText = "";
    response: Blob | null = null;
    aborted = false;
    private method = "";
    private url = "";
    private headers: Record<string, string> = {};
    constructor() {
      instances.push(this);
    }
    open(method: string, url: string) {
      this.method = method;
      this.url = url;
    }
    setRequestHeader(name: string, value: string) {
      this.headers[name] = value;
    }
    getAllResponseHeaders() {
      return "content-type: application/json\r\nx-test: 1\r\n";
    }
    abort() {
      this.aborted = true;
      queueMicrotask(() => this.onabort?.());
    }
    send(body: unknown) {
      sent.push({ method: this.method, url: this.url, headers: this.headers, body });
      const script = scripts.shift() ?? { fail: true };
      if (script.hang) return;
      setTimeout(() => {
        for (const [loaded, total] of script.progress ?? []) {
          this.upload.onprogress?.({ loaded, total, lengthComputable: total > 0 } as ProgressEvent);
        }
        if (script.fail) {
          this.onerror?.();
          return;
        }
        this.status = script.status ?? 200;
        this.response = new Blob([JSON.stringify(script.body)], { type: "application/json" });
        this.onload?.();
      }, 0);
    }
  }
  vi.stubGlobal("XMLHttpRequest", FakeXhr);
  return { sent, instances };
}

describe("upload progress (XMLHttpRequest: the only browser API that reports it)", () => {
  it("reports the bytes sent and resolves the unwrapped result; Content-Type left to the platform", async () => {
    setItem("token", { accessToken: "tok", refreshToken: "ref", expiresAt: Date.now() + 3600_000 });
    const fetchCalls = fakeFetch();
    const { sent } = fakeXhr({
      progress: [
        [100, 300],
        [300, 300],
      ],
      body: envelope({ fileUrl: "/uploads/files/x.png", contentType: "image/png", size: 1 }),
    });
    const seen: unknown[] = [];
    const result = await uploadMultipart(endpoints.uploadFile, new Blob(["x"]), "x.png", undefined, (p) =>
      seen.push(p),
    );
    expect(result).toEqual({ fileUrl: "/uploads/files/x.png", contentType: "image/png", size: 1 });
    expect(seen).toEqual([
      { loaded: 100, total: 300 },
      { loaded: 300, total: 300 },
    ]);
    expect(fetchCalls).toHaveLength(0);
    expect(sent[0].method).toBe("POST");
    expect(sent[0].url).toBe("/api/app/file/upload");
    expect(sent[0].headers.Authorization).toBe("Bearer tok");
    expect(sent[0].headers["Idempotency-Key"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent[0].headers["Content-Type"]).toBeUndefined();
    expect(((sent[0].body as FormData).get("file") as File).name).toBe("x.png");
  });

  it("a lost answer is sent once more with the same key; an error answer maps like api()", async () => {
    const { sent } = fakeXhr(
      { fail: true },
      { status: 400, body: { success: false, error: { code: "File.TooLarge", message: "Too large" } } },
    );
    const err = await uploadMultipart(endpoints.uploadFile, new Blob(["x"]), "x.png", undefined, () => {}).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: "File.TooLarge", status: 400, message: "Too large" });
    expect(sent).toHaveLength(2);
    expect(sent[1].headers["Idempotency-Key"]).toBe(sent[0].headers["Idempotency-Key"]);
  });

  it("an abort stops the request: AbortError, no resend", async () => {
    const { sent, instances } = fakeXhr({ hang: true });
    const controller = new AbortController();
    const call = uploadMultipart(endpoints.uploadFile, new Blob(["x"]), "x.png", controller.signal, () => {});
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    controller.abort();
    await expect(call).rejects.toMatchObject({ name: "AbortError" });
    expect(instances[0].aborted).toBe(true);
    expect(sent).toHaveLength(1);
  });

  it("without a progress listener the upload stays on fetch", async () => {
    const calls = fakeFetch(json(200, envelope({ fileUrl: "/f", contentType: "image/png", size: 1 })));
    const { sent } = fakeXhr();
    await uploadMultipart(endpoints.uploadFile, new Blob(["x"]), "x.png");
    expect(calls).toHaveLength(1);
    expect(sent).toHaveLength(0);
  });
});
