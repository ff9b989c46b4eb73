import { vi } from "vitest";

/**
 * Test support for the HTTP client's edge (unit tests only; nothing in the app imports it): a scripted `fetch`, JSON
 * answers, and a body that arrives in pieces.
 */

/** One call the scripted `fetch` received. */
export interface FetchCall {
  url: string;
  init: RequestInit;
}

/**
 * Replaces the global `fetch` (undo with `vi.unstubAllGlobals()`) by one that records each call and answers from
 * `answers` in order: a Response, an Error to throw (a lost connection), or a function answering later (given the call's URL and init). A call beyond
 * the script throws "unexpected fetch". Answers the recorded calls.
 */
export function fakeFetch(
  ...answers: Array<Response | Error | ((url: string, init: RequestInit) => Promise<Response>)>
): FetchCall[] {
  const calls: FetchCall[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      const next = answers.shift();
      if (!next) throw new Error("unexpected fetch");
      if (next instanceof Error) throw next;
      if (typeof next === "function") return next(url, init);
      return next;
    }),
  );
  return calls;
}

/** A JSON answer with `status` (and `statusText`). */
export function json(status: number, body: unknown, statusText = ""): Response {
  return new Response(JSON.stringify(body), { status, statusText, headers: { "Content-Type": "application/json" } });
}

const encoder = new TextEncoder();

/**
 * A body that arrives in pieces: each piece is handed out only when the test calls `next()` (after the last one,
 * `next()` ends the body), so what the reader saw in between can be checked; `fail()` breaks the connection mid-body.
 */
export function trickle(pieces: string[]) {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  return {
    stream,
    next() {
      const piece = pieces.shift();
      if (piece === undefined) controller.close();
      else controller.enqueue(encoder.encode(piece));
    },
    fail() {
      controller.error(new TypeError("network error"));
    },
  };
}
