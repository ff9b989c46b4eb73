import { endpoint, endpoints, noQuery, SIGNED_IN, ZId, ZInt, ZQueryInt, ZText } from "@aquapilot/contract";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type CallTarget, call, describeEndpoint, nameOf, okResult, pathOf } from "./call.ts";

/**
 * The API tests' one helper, `call()` of test/call.ts, against a server that only echoes what it
 * received: method and path from the endpoint object, `{name}` values URL-encoded into it, the bearer token, the
 * query, JSON and raw bodies, the language, the client address, and the answer read back — in process (`inject`) and
 * over real HTTP (`{ url }`). A query key the endpoint does not declare is a compile error, checked by
 * `npm run typecheck`.
 */

/** A made-up endpoint with two path values, declared query keys and a JSON body (no route of the app has all). */
const probe = endpoint({
  method: "PUT",
  access: SIGNED_IN,
  path: "/api/probe/{id}/items/{name}",
  query: z.object({ page: ZQueryInt(0, 9).optional(), tag: z.array(ZText(9)).optional() }),
  body: z.object({ size: ZInt(0, 9) }),
  result: z.object({ echoed: z.boolean() }),
  params: z.object({ id: ZId, name: ZId }),
  summary: "test probe",
});

/** An endpoint without query parameters or body. */
const bare = endpoint({
  method: "DELETE",
  access: SIGNED_IN,
  path: "/api/probe/bare",
  query: noQuery,
  body: undefined,
  result: z.null(),
  summary: "test probe without input",
});

/** What the echo server received of one request. */
interface Seen {
  method: string;
  /** Path and query exactly as they came over the wire. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  /** The client's address as the server saw it. */
  ip: string;
}

describe("test/call.ts call()", () => {
  let echo: FastifyInstance;
  let url: string;
  const seen: Seen[] = [];
  const last = (): Seen => {
    const one = seen.at(-1);
    if (!one) throw new Error("the echo server received nothing");
    return one;
  };

  beforeAll(async () => {
    echo = Fastify();
    echo.addContentTypeParser("application/octet-stream", { parseAs: "buffer" }, (_req, body, done) =>
      done(null, (body as Buffer).toString("hex")),
    );
    echo.all("/*", async (req, reply) => {
      seen.push({ method: req.method, url: req.url, headers: req.headers, body: req.body ?? null, ip: req.ip });
      const status = Number(req.headers["x-answer-status"] ?? 200);
      reply.header("X-Echo", "yes");
      return reply.code(status).send({
        success: status === 200,
        result: status === 200 ? { echoed: true } : null,
        error: status === 200 ? null : { code: "Nope", message: "refused", details: null, validationErrors: null },
        unAuthorizedRequest: false,
        __abp: true,
      });
    });
    url = await echo.listen({ port: 0, host: "127.0.0.1" });
  });
  afterAll(() => echo?.close());

  const targets: Array<[string, () => CallTarget]> = [
    ["in process (inject)", () => echo],
    ["in process through { app }", () => ({ app: echo })],
    ["over HTTP ({ url })", () => ({ url })],
  ];

  describe.each(targets)("%s", (_name, target) => {
    it("takes method and path from the endpoint, URL-encodes the {name} values, sends the body as JSON", async () => {
      const res = await call(target(), probe, { params: { id: "a b/c", name: "é?" }, body: { size: 3 } });
      expect(last()).toMatchObject({
        method: "PUT",
        url: "/api/probe/a%20b%2Fc/items/%C3%A9%3F",
        body: { size: 3 },
      });
      expect(last().headers["content-type"]).toMatch(/^application\/json/);
      await call(target(), endpoints.getFamilies, {});
      expect(last()).toMatchObject({ method: "GET", url: "/api/run-lucky/device/app/family/", body: null });
      await call(target(), bare);
      expect(last()).toMatchObject({ method: "DELETE", url: "/api/probe/bare" });
      expect(res.status).toBe(200);
    });

    it("refuses to call a path whose {name} value is missing", async () => {
      const before = seen.length;
      await expect(call(target(), probe, { params: { id: "1" }, body: { size: 1 } })).rejects.toThrow(
        "no value for {name} of /api/probe/{id}/items/{name}",
      );
      expect(seen.length).toBe(before);
    });

    it("sends the caller's bearer token however it is given, and none without a caller", async () => {
      for (const as of ["abc.def", "Bearer abc.def", { token: "abc.def" }, { token: "Bearer abc.def" }]) {
        await call(target(), bare, { as });
        expect(last().headers.authorization, JSON.stringify(as)).toBe("Bearer abc.def");
      }
      for (const as of [undefined, null, "", { token: "" }]) {
        await call(target(), bare, { as });
        expect(last().headers, JSON.stringify(as)).not.toHaveProperty("authorization");
      }
    });

    it("sends the query as text: arrays as repeated keys, undefined values left out", async () => {
      await call(target(), probe, {
        params: { id: "1", name: "n" },
        query: { page: 2, tag: ["x", "y z"] },
        body: { size: 1 },
      });
      expect(last().url).toBe("/api/probe/1/items/n?page=2&tag=x&tag=y+z");
      await call(target(), probe, { params: { id: "1", name: "n" }, query: { page: undefined }, body: { size: 1 } });
      expect(last().url).toBe("/api/probe/1/items/n");
    });

    it("refuses a query key the endpoint does not declare (a compile error), and sends what a cast lets through", async () => {
      const params = { id: "1", name: "n" };
      // @ts-expect-error "nope" is not a query parameter of the probe endpoint.
      await call(target(), probe, { params, query: { nope: "1" }, body: { size: 1 } });
      expect(last().url).toBe("/api/probe/1/items/n?nope=1");
      // @ts-expect-error an endpoint without query parameters takes none.
      await call(target(), bare, { query: { nope: "2" } });
      expect(last().url).toBe("/api/probe/bare?nope=2");
      await call(target(), bare, { query: { nope: "3" } as never });
      expect(last().url).toBe("/api/probe/bare?nope=3");
    });

    it("sends English by default, the language asked for or none, and extra headers over its own", async () => {
      await call(target(), bare);
      expect(last().headers["accept-language"]).toBe("en");
      await call(target(), bare, { lang: "zh-CN" });
      expect(last().headers["accept-language"]).toBe("zh-CN");
      const to = target();
      await call(to, bare, { lang: null });
      // fetch() adds "accept-language: *" (any language) to a request without one; inject() sends nothing.
      expect(last().headers["accept-language"]).toBe("url" in to ? "*" : undefined);
      await call(target(), bare, { as: "t", lang: "fr", headers: { authorization: "Basic x", "x-extra": "1" } });
      expect(last().headers).toMatchObject({ authorization: "Basic x", "x-extra": "1", "accept-language": "fr" });
    });

    it("sends a Buffer body as is, with the content-type given", async () => {
      await call(target(), probe, {
        params: { id: "1", name: "n" },
        body: Buffer.from([0, 1, 254]),
        headers: { "content-type": "application/octet-stream" },
      });
      expect(last().body).toBe("0001fe");
    });

    it("answers the status, the envelope, the typed result, the raw text and the headers; an error status does not throw", async () => {
      const ok = await call(target(), probe, { params: { id: "1", name: "n" }, body: { size: 1 } });
      expect(ok.status).toBe(200);
      expect(ok.result.echoed).toBe(true);
      expect(ok.body).toMatchObject({ success: true, result: { echoed: true }, __abp: true });
      expect(JSON.parse(ok.text)).toEqual(ok.body);
      expect(ok.headers["x-echo"]).toBe("yes");
      const refused = await call(target(), bare, { headers: { "x-answer-status": "409" } });
      expect(refused.status).toBe(409);
      expect(refused.result).toBeNull();
      expect(refused.body.error.code).toBe("Nope");
    });

    it("okResult() answers the result of a 2xx call and throws with the status otherwise", async () => {
      expect(await okResult(call(target(), probe, { params: { id: "1", name: "n" }, body: { size: 1 } }))).toEqual({
        echoed: true,
      });
      await expect(okResult(call(target(), bare, { headers: { "x-answer-status": "403" } }))).rejects.toThrow(
        /^call failed: 403 .*"Nope"/,
      );
    });
  });

  it("goes over HTTP when the target holds a url, even if it also holds an app", async () => {
    const elsewhere = Fastify();
    elsewhere.all("/*", async () => ({ elsewhere: true }));
    await elsewhere.ready();
    try {
      const res = await call({ app: elsewhere, url } as CallTarget, bare);
      expect(res.headers["x-echo"]).toBe("yes");
    } finally {
      await elsewhere.close();
    }
  });

  it("in process, calls from the client address asked for (127.0.0.1 by default); over HTTP it refuses to", async () => {
    for (const target of [echo, { app: echo }]) {
      await call(target, bare);
      expect(last().ip).toBe("127.0.0.1");
      await call(target, bare, { remoteAddress: "198.51.100.7" });
      expect(last().ip).toBe("198.51.100.7");
    }
    const before = seen.length;
    await expect(call({ url }, bare, { remoteAddress: "198.51.100.7" })).rejects.toThrow(/in process only/);
    expect(seen.length).toBe(before);
  });

  it("over HTTP, an aborted request rejects", async () => {
    const before = seen.length;
    await expect(call({ url }, bare, { signal: AbortSignal.abort() })).rejects.toThrow();
    expect(seen.length).toBe(before);
  });
});

describe("test/call.ts names", () => {
  it("nameOf() is the endpoint's method and verbatim path", () => {
    expect(nameOf(probe)).toBe("PUT /api/probe/{id}/items/{name}");
    expect(nameOf(endpoints.getFamily)).toBe(`GET ${endpoints.getFamily.path}`);
  });

  it("pathOf() fills every {name} value and leaves a path without any as it is", () => {
    expect(pathOf(probe, { id: "1", name: "a&b" })).toBe("/api/probe/1/items/a%26b");
    expect(pathOf(bare)).toBe("/api/probe/bare");
  });

  describeEndpoint(probe, () => {
    it("names the block after the endpoint", (ctx) => {
      expect(ctx.task.suite?.name).toBe("PUT /api/probe/{id}/items/{name}");
    });
  });

  describeEndpoint(probe, "with a note", () => {
    it("puts the note after the name in parentheses", (ctx) => {
      expect(ctx.task.suite?.name).toBe("PUT /api/probe/{id}/items/{name} (with a note)");
    });
  });
});
