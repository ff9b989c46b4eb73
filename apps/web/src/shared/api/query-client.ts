import {
  type FetchQueryOptions,
  type ManagedTimerId,
  MutationCache,
  QueryCache,
  QueryClient,
  type QueryFilters,
  timeoutManager,
} from "@tanstack/react-query";
import { CoalescedTimers } from "../../first-paint/coalesced-timers.ts";
import { nextTask } from "../../first-paint/scheduling.ts";
import { i18n, mapLanguage } from "../i18n/index.ts";
import { ApiError, errorMessage, isUnauthorized } from "./errors.ts";
import { askedInOtherLanguage } from "./transport.ts";

declare module "@tanstack/react-query" {
  interface Register {
    queryMeta: { silent?: boolean };
    mutationMeta: { silent?: boolean };
  }
}

// Every timer of the app's queries (garbage collection, staleness) shares one platform timer (a screen's start armed
// about a hundred, each a call into the browser); set before any query client exists, as TanStack Query asks.
timeoutManager.setTimeoutProvider<ManagedTimerId>(new CoalescedTimers());

/** How often a query that got no answer at all is asked again (1, 2 then 4 s apart: TanStack Query's backoff). */
export const NO_ANSWER_RETRIES = 3;

/**
 * Whether a failed query is asked again (TanStack Query's `retry`, `count` = failures so far before this one):
 * never after a 4xx answer (the server said no; asking again changes nothing and a 401 already leads to Login); once
 * after a 5xx; up to {@link NO_ANSWER_RETRIES} times when no answer came — a phone whose network just came back often
 * loses its first calls while the radio settles, and the figures it then shows must be the fresh ones. Any other
 error (an answer that could not be read) is asked once more.
 */
export function retryQuery(count: number, err: unknown): boolean {
  if (!(err instanceof ApiError)) return count < 1;
  if (err.status === null) return count < NO_ANSWER_RETRIES;
  return err.status >= 500 && count < 1;
}

/**
 * The app's TanStack Query client: server state lives here, never in component state or a store. Failed queries and
 * mutations show their error through `showError` (spec §8 "Failed list and permission loads show the error as toast")
 * unless their meta says `silent`; a 401 is never retried (the unauthorised event already sends the user to Login). When the
 * interface language changes, every cached answer is marked stale and the shown ones are fetched again: the server
 * words messages, errors, region names and salt texts in the caller's language — unless every call since
 * the last change already went out in the new language (transport.ts `askedInOtherLanguage`).
 */
export function createAppQueryClient(showError: (text: string) => void): QueryClient {
  const report = (err: unknown, silent: boolean | undefined) => {
    if (silent || isUnauthorized(err)) {
      if (isUnauthorized(err)) showError(errorMessage(err, i18n.t("errors.loginExpired")));
      return;
    }
    showError(errorMessage(err, i18n.t("errors.requestFailed")));
  };
  const client = new QueryClient({
    queryCache: new QueryCache({ onError: (err, query) => report(err, query.meta?.silent) }),
    mutationCache: new MutationCache({ onError: (err, _v, _c, mutation) => report(err, mutation.meta?.silent) }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: retryQuery,
      },
      mutations: { retry: false },
    },
  });
  // Answers may hold server texts (messages, fault names) in the language they were asked in: a change of language
  // asks again — unless every call already went out in the new one (start-up: its first calls leave in the language
  // being switched to, and may be answered before the switch ends; refetching them would ask everything twice).
  i18n.on("languageChanged", (lng: string) => {
    if (askedInOtherLanguage(mapLanguage(lng) ?? lng)) void client.invalidateQueries();
  });
  return client;
}

/** How long a start-up prefetch's answer stands in for its screen's first mount (no second call for it), ms. */
export const JUST_FETCHED_MS = 2_000;

/** When the start-up prefetch's answer of each query arrived (Date.now()); only its answers, never a cache patch. */
const prefetchedAt = new WeakMap<object, number>();

/**
 * Fetches `options` for a first screen at start-up (beside its chunk, not after its first render), silently (its
 * screen's own query shows errors), and marks the answer so the screen's first mount takes it (see
 * {@link refetchOnMountUnlessPrefetched}).
 * @returns the answer, or undefined when the call failed.
 */
export async function prefetchForFirstMount<T, K extends readonly unknown[]>(
  client: QueryClient,
  options: FetchQueryOptions<T, Error, T, K>,
): Promise<T | undefined> {
  try {
    const data = await client.fetchQuery({ ...options, meta: { silent: true } });
    const query = client.getQueryCache().find({ queryKey: options.queryKey, exact: true });
    if (query) prefetchedAt.set(query, Date.now());
    return data;
  } catch {
    return undefined;
  }
}

/**
 * `refetchOnMount` of a screen that asks again on every visit ("always"), except when its answer came from the
 * start-up prefetch ({@link prefetchForFirstMount}) less than {@link JUST_FETCHED_MS} ago: that call counts as the
 * visit's, and the screen does not ask twice in its first second. A hub's patch of the cached answer never counts.
 */
export function refetchOnMountUnlessPrefetched(query: object): boolean | "always" {
  const at = prefetchedAt.get(query);
  return at !== undefined && Date.now() - at < JUST_FETCHED_MS ? false : "always";
}

/**
 * Marks the queries matching any of `filters` stale, like `invalidateQueries`, and asks again for those a screen shows,
 * each in a task of its own (a hub's connection re-read four answers of the Device screen, and sending their
 * four calls with their bookkeeping in one task was one of its longest tasks). Answers and errors go where a refetch's
 * go.
 * @returns when every call has been sent and answered (or failed); never rejects
 */
export async function invalidateOnePerTask(client: QueryClient, ...filters: QueryFilters[]): Promise<void> {
  const cache = client.getQueryCache();
  const shown = new Set(filters.flatMap((f) => cache.findAll({ ...f, type: "active" })));
  await Promise.all(filters.map((f) => client.invalidateQueries({ ...f, refetchType: "none" })));
  const answers: Promise<unknown>[] = [];
  for (const query of shown) {
    await nextTask();
    if (!query.isActive()) continue;
    answers.push(
      client.refetchQueries({ queryKey: query.queryKey, exact: true, type: "active" }).catch(() => undefined),
    );
  }
  await Promise.all(answers);
}
