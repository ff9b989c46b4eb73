import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { i18n } from "../i18n/index.js";
import { ApiError, errorMessage, isUnauthorized } from "./errors.js";

declare module "@tanstack/react-query" {
  interface Register {
    queryMeta: { silent?: boolean };
    mutationMeta: { silent?: boolean };
  }
}

/**
 * The app's TanStack Query client: server state lives here (conventions #14). Failed queries and mutations show
 * their error through `showError` (spec §8 "Failed list and permission loads show the error as toast") unless their
 * meta says `silent`; a 401 is never retried (the unauthorised event already sends the user to Login). When the
 * interface language changes, every cached answer is marked stale and the shown ones are fetched again: the server
 * words messages, errors, region names and salt texts in the caller's language (issue 10).
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
        retry: (count, err) => !(err instanceof ApiError && err.status !== null && err.status < 500) && count < 1,
      },
      mutations: { retry: false },
    },
  });
  i18n.on("languageChanged", () => void client.invalidateQueries());
  return client;
}

/** How old an answer may be for a screen's mount to take it as it is: the start-up prefetch's (issue 12), ms. */
export const JUST_FETCHED_MS = 2_000;

/**
 * `refetchOnMount` of a screen that asks again on every visit ("always"), except when the answer arrived less than
 * {@link JUST_FETCHED_MS} ago: the start-up prefetch of the first screen's data (app/first-screen.ts) then counts as
 * that visit's call, and the screen does not ask twice in its first second.
 */
export function refetchOnMountUnlessJustFetched(query: { state: { dataUpdatedAt: number } }): boolean | "always" {
  return Date.now() - query.state.dataUpdatedAt < JUST_FETCHED_MS ? false : "always";
}
