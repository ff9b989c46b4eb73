import type { QueryClient } from "@tanstack/react-query";
import type { ComponentType } from "react";
import { matchRoutes } from "react-router";
import { type AppRoute, ROUTES } from "../app/routes.ts";
import { ALL_TEXT_GROUPS, type TextGroup } from "../shared/i18n/groups.ts";
import { PATHS } from "../shared/navigation/index.ts";
import { getAccessToken } from "../shared/storage/index.ts";

/**
 * The routes the app will show first for a location hash, outermost first: the routes matching the path
 * (`/` and unknown paths are Home, as in app/router.tsx); when one of them needs a session and no token is stored,
 * Login instead (what the route guard of spec §4 does on its first render).
 * @param hash `location.hash`, e.g. "#/index/home" or "" (the path part only; a query string is ignored).
 */
export function firstRoutes(hash: string): AppRoute[] {
  const path = hash.replace(/^#/, "").split("?")[0] || "/";
  const matched = (path === "/" ? null : matchRoutes(ROUTES, path)) ?? matchRoutes(ROUTES, PATHS.Home) ?? [];
  const chain = matched.map((m) => m.route);
  if (chain.some((r) => !r.open) && !getAccessToken()) {
    return ROUTES.filter((r) => r.name === "Login");
  }
  return chain;
}

/** The text groups the routes of {@link firstRoutes} show (all groups when one declares none). */
export function firstTextGroups(routes: readonly AppRoute[]): TextGroup[] {
  const groups = new Set<TextGroup>(["start"]);
  for (const r of routes) for (const g of r.texts ?? ALL_TEXT_GROUPS) groups.add(g);
  return [...groups];
}

/** What {@link preloadFirstScreen} tells start-up about the first screen. */
export interface FirstScreen {
  /** The text groups the first screen shows, for the caller to load in the start-up language. */
  textGroups: TextGroup[];
  /** Whether one of its routes needs a session (then a token is stored and the guard will check permissions). */
  needsSession: boolean;
  /** Whether one of its routes holds the app's first render until its data is in (`AppRoute.holdFirstRender`). */
  holdsFirstRender: boolean;
  /** Settles when the routes' chunks have loaded (or failed: the screen shows its error page). */
  ready: Promise<void>;
  /**
   * Starts the routes' first calls (their `data`) into `client`, once start-up has set the language and tenant the
   * calls carry; settles when they have (a failure is the screen's to show). Only when a token is stored: without
   * one the first screen is Login, which has none.
   */
  loadData(client: QueryClient): Promise<void>;
}

/** Screens whose chunk has loaded, by route: the router shows them without suspending (see {@link loadedScreen}). */
const loadedScreens = new Map<AppRoute, ComponentType>();

/**
 * The screen of `route` when its chunk has already loaded (through {@link preloadFirstScreen}), else null: the
 * router then renders it in its first commit instead of the route's loading fallback, so a prerendered first
 * screen (index.html) is replaced by the same screen, never by a spinner.
 */
export function loadedScreen(route: AppRoute): ComponentType | null {
  return loadedScreens.get(route) ?? null;
}

/**
 * Starts loading, at once and side by side, the chunks of the routes of {@link firstRoutes} (no request
 * waterfall before the first paint); the router's lazy screens then find their modules loading or loaded. A failed
 * load is left to the screen, which shows its error page.
 */
export function preloadFirstScreen(hash: string): FirstScreen {
  const routes = firstRoutes(hash);
  const loads = routes.map((r) =>
    r.screen?.().then(
      (m) => {
        loadedScreens.set(r, m.default);
      },
      () => undefined,
    ),
  );
  // The routes' call starters load beside their chunks; a starter that fails to load starts nothing.
  const starters = routes.map((r) => r.data?.().catch(() => undefined));
  return {
    textGroups: firstTextGroups(routes),
    needsSession: routes.some((r) => !r.open),
    holdsFirstRender: routes.some((r) => r.holdFirstRender === true),
    ready: Promise.all(loads).then(() => undefined),
    loadData: (client) =>
      Promise.all(starters.map((load) => load?.then((start) => start?.(client)).catch(() => undefined))).then(
        () => undefined,
      ),
  };
}
