import { useMemo } from "react";
import { useLocation } from "react-router";
import { setProjectId } from "../api/transport.ts";
import { afterOverlays, TRAVERSAL_FALLBACK_MS } from "./overlay-history.ts";
import { PATHS, ROUTE_NAME_BY_PATH, type RoutePath } from "./paths.ts";
import { returnToAppUrl } from "./return-to.ts";

export { PATHS, type RouteName, type RoutePath } from "./paths.ts";
export { RETURN_TO_KEY, returnToParams } from "./return-to.ts";

/**
 * Navigation of spec §2: every navigation passes through the start-up route `/App`, which redirects to the target
 * with its query. URL shape (hash mode):
 *
 *   #/App?target=/Device&params={"deviceId":"d1"}&requestPageId=…&projectId=…
 *     → #/Device?params={"deviceId":"d1"}&requestPageId=…&projectId=…
 *
 * Navigation params travel as JSON in ONE query value `params`; `requestPageId` and `projectId` are separate query
 * values. Screens call {@link navigateTo} and read {@link useRouteParams}; they never write URLs.
 */

/** Options of one navigation. */
export interface NavigateOptions {
  /** Replace the current history entry instead of pushing. */
  replace?: boolean;
  /** Id of the page that asked for this navigation (spec §2), sent as its own query value. */
  requestPageId?: string;
  /** Project id (spec §3), sent as its own query value and then as the `project-id` header. */
  projectId?: string;
}

/** What the app's router provides to navigation (set once by src/app/router.tsx). */
export interface Navigator {
  navigate(to: string | number, options?: { replace?: boolean }): unknown;
}

let navigator: Navigator | null = null;

/** Connects the router (src/app). */
export function setNavigator(next: Navigator | null): void {
  navigator = next;
}

/** Builds the `/App` start-up URL for a target route and its params (spec §2). */
export function appUrl(path: RoutePath, params?: object | null, options: NavigateOptions = {}): string {
  const query = new URLSearchParams({ target: path });
  if (params && Object.keys(params).length > 0) query.set("params", JSON.stringify(params));
  if (options.requestPageId) query.set("requestPageId", options.requestPageId);
  if (options.projectId) query.set("projectId", options.projectId);
  return `${PATHS.App}?${query.toString()}`;
}

/**
 * Resolves the `/App` query to the target URL (path + the remaining query). An unknown or missing target goes to
 * the home tab (spec §2 "Root redirects to /index/home").
 */
export function resolveAppTarget(search: string): string {
  const query = new URLSearchParams(search);
  const target = query.get("target") ?? "";
  query.delete("target");
  const known = ROUTE_NAME_BY_PATH[target.toLowerCase()] !== undefined && target.toLowerCase() !== "/app";
  const path = known ? target : PATHS.Home;
  const rest = query.toString();
  return rest ? `${path}?${rest}` : path;
}

/**
 * Navigates to a route through `/App` with its params (spec §2). Open dialogs of the current page close first (as
 * "leave") and their history entries go; the navigation happens once they are gone (see overlay-history.ts).
 */
export function navigateTo(path: RoutePath, params?: object | null, options: NavigateOptions = {}): void {
  if (!navigator) throw new Error("navigateTo before the router was set");
  const url = appUrl(path, params, options);
  afterOverlays(() => navigator?.navigate(url, { replace: options.replace }));
}

/**
 * After sign-in (Login, or Register signing the new owner in): opens the route the owner asked for while signed out
 * (`returnTo`, see return-to.ts; only a route of this app, through `/App` with its query), else the home tab. Replaces
 * the sign-in screen's history entry, so back never returns to it.
 */
export function goAfterSignIn(returnTo: unknown): void {
  if (!navigator) throw new Error("goAfterSignIn before the router was set");
  const url = returnToAppUrl(returnTo);
  if (!url) {
    navigateTo(PATHS.Home, null, { replace: true });
    return;
  }
  afterOverlays(() => navigator?.navigate(url, { replace: true }));
}

/** How many history entries lie below the current one (the Navigation API's index, else the router's); 0 if unknown. */
function entriesBelow(): number {
  const navigation = (window as unknown as { navigation?: { currentEntry?: { index?: number } | null } }).navigation;
  const index = navigation?.currentEntry?.index;
  if (typeof index === "number" && index >= 0) return index;
  const idx = (window.history.state as { idx?: unknown } | null)?.idx;
  return typeof idx === "number" && idx >= 0 ? idx : 0;
}

/**
 * Ends a flow of pages (the network setup's steps) with `path`: history goes back over the flow's `entries` entries —
 * the current one and those below it — to the page the flow was opened from, and `path` is pushed there (through
 * `/App` with `params`), so the flow's entries are gone and back from `path` returns to that page, not into the flow.
 * When fewer entries lie below (the flow was opened in a fresh tab), it goes back as far as there are; with none, or
 * when the traversal does not report within {@link TRAVERSAL_FALLBACK_MS}, `path` replaces the current entry.
 * @param entries the flow's entries, at least 1 (the current page).
 */
export function replaceFlow(entries: number, path: RoutePath, params?: object | null): void {
  if (!navigator) throw new Error("replaceFlow before the router was set");
  afterOverlays(() => {
    const back = Math.min(Math.max(1, Math.floor(entries)), entriesBelow());
    if (back <= 0) {
      navigateTo(path, params, { replace: true });
      return;
    }
    const from = window.location.href;
    let done = false;
    const land = () => {
      if (done) return;
      done = true;
      window.removeEventListener("popstate", land);
      clearTimeout(timer);
      // Landed on the page before the flow: a push there drops the flow's entries; still on the flow: replace.
      navigateTo(path, params, { replace: window.location.href === from });
    };
    const timer = setTimeout(land, TRAVERSAL_FALLBACK_MS);
    window.addEventListener("popstate", land);
    navigator?.navigate(-back);
  });
}

/** Goes back one page (the top bar's back arrow after dialogs were closed; open dialogs close first). */
export function goBack(): void {
  if (!navigator) return;
  afterOverlays(() => {
    if (!navigator) return;
    if (window.history.length > 1) navigator.navigate(-1);
    else navigator.navigate(PATHS.Home, { replace: true });
  });
}

/** Parses the `params` query value; a missing or corrupt value gives `{}`. */
export function parseRouteParams<T extends object>(search: string): Partial<T> {
  const raw = new URLSearchParams(search).get("params");
  if (!raw) return {};
  try {
    const value: unknown = JSON.parse(raw);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Partial<T>) : {};
  } catch {
    return {};
  }
}

/**
 * The current page's navigation params (spec §2), plus `requestPageId` and `projectId` when present.
 * Also applies `projectId` to the API client's `project-id` header.
 */
export function useRouteParams<T extends object>(): Partial<T> & { requestPageId?: string; projectId?: string } {
  const { search } = useLocation();
  return useMemo(() => {
    const query = new URLSearchParams(search);
    const projectId = query.get("projectId") ?? undefined;
    if (projectId) setProjectId(projectId);
    return {
      ...parseRouteParams<T>(search),
      requestPageId: query.get("requestPageId") ?? undefined,
      projectId,
    };
  }, [search]);
}
