/**
 * Answers to the opening screen's first calls that the page's boot script asked for before the app's code had loaded
 * (the Device screen must be interactive within 2 s: no request waits for the app's code to download and run).
 * apps/web/src/first-paint/boot.js sends them, on a signed-in page opening on the Device screen, with exactly the
 * headers the app's client sends (token, language, time zone) and puts each under {@link EARLY_ANSWERS_GLOBAL}; the
 * app's wire (shared/api/transport.ts `transmit`) takes the one whose method, URL and headers equal its own call's,
 * once, instead of sending the call again. Any difference (a refreshed token, another language, a tenant, a body)
 * means the app sends its own call: an early answer can only ever stand in for the very same request.
 */

/** The window property boot.js fills: a list of {@link EarlyAnswer}. */
export const EARLY_ANSWERS_GLOBAL = "__aquapilotEarly";

/** How long after boot.js sent it an early answer may stand in for the app's call, ms (then the app asks itself). */
export const EARLY_ANSWER_MAX_AGE_MS = 10_000;

/** Headers that may differ between boot.js's request and the app's own (a fresh key per sender). */
const IGNORED_HEADERS = new Set(["idempotency-key"]);

/** One call boot.js sent. */
export interface EarlyAnswer {
  /** HTTP method, upper case. */
  method: string;
  /** The URL as the app's client builds it (`callUrl`): path and query, no host. */
  url: string;
  /** The request's headers as sent. */
  headers: Record<string, string>;
  /** `Date.now()` when it was sent, ms. */
  at: number;
  /** The answer, whatever its status; null when no answer came (the app then sends the call itself). */
  response: Promise<Response | null>;
}

/** The headers that must match, names lower case. */
function comparable(headers: Record<string, string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, value] of Object.entries(headers)) {
    const key = name.toLowerCase();
    if (!IGNORED_HEADERS.has(key)) out.set(key, value);
  }
  return out;
}

/** Whether two header sets are the same, but for {@link IGNORED_HEADERS}. */
function sameHeaders(a: Record<string, string>, b: Record<string, string>): boolean {
  const [x, y] = [comparable(a), comparable(b)];
  return x.size === y.size && [...x].every(([name, value]) => y.get(name) === value);
}

/**
 * The early answer to the call `method url` with `headers` (the app's own, including its token), taken off the list
 * so it serves once; null when boot.js sent no such call, sent it with other headers (it is dropped), or sent it more
 * than {@link EARLY_ANSWER_MAX_AGE_MS} ago. The promise resolves to null when boot.js's request failed.
 */
export function takeEarlyAnswer(
  method: string,
  url: string,
  headers: Record<string, string>,
  now: number = Date.now(),
): Promise<Response | null> | null {
  const list = (globalThis as Record<string, unknown>)[EARLY_ANSWERS_GLOBAL];
  if (!Array.isArray(list) || list.length === 0) return null;
  const at = list.findIndex((e: EarlyAnswer) => e?.method === method && e.url === url);
  if (at < 0) return null;
  const [early] = list.splice(at, 1) as EarlyAnswer[];
  if (!early || now - early.at > EARLY_ANSWER_MAX_AGE_MS || !sameHeaders(early.headers, headers)) {
    void early?.response?.then((r) => r?.body?.cancel().catch(() => undefined));
    return null;
  }
  return early.response;
}
