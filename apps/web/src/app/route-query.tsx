import { type ReactNode, useEffect, useMemo } from "react";
import { useLocation } from "react-router";
import { i18n } from "../shared/i18n/index.ts";
import { navigateTo, PATHS, parseRouteParams } from "../shared/navigation/index.ts";
import { Toast } from "../shared/ui/toast.ts";
import { type AppRoute, allRoutes, type RouteNeeds } from "./routes.ts";

/** Where a route opened without the query values it needs goes instead: a route and the params it is given. */
export interface QueryFallback {
  route: AppRoute;
  params: Record<string, string | number>;
}

/** Whether `value` can stand for an id of spec §2's navigation params: a non-empty string or a finite number. */
function present(value: unknown): value is string | number {
  return (typeof value === "string" && value.trim() !== "") || (typeof value === "number" && Number.isFinite(value));
}

/** The keys of `needs` that `params` lacks (empty when every one is present). */
export function missingParams(needs: RouteNeeds | undefined, params: Record<string, unknown>): string[] {
  return (needs?.params ?? []).filter((key) => !present(params[key]));
}

/**
 * Where `route` goes when opened with the query `search` (the URL's "?…"; its JSON `params` value, spec §2): null when
 * it has every query value it needs (`AppRoute.needs`), else its parent with those of the parent's own needs that
 * `search` has — or, when the parent lacks some too, the parent's parent, and so on. A parent missing from `routes`
 * (or a loop) ends at the home tab.
 * @param routes the route table to look parents up in (the app's, flattened, unless given).
 */
export function queryFallback(route: AppRoute, search: string, routes: AppRoute[] = allRoutes()): QueryFallback | null {
  const params = parseRouteParams<Record<string, unknown>>(search);
  if (missingParams(route.needs, params).length === 0) return null;
  const byName = new Map(routes.map((r) => [r.name, r]));
  const home = byName.get("Home") ?? { name: "Home", path: PATHS.Home, transition: "none" };
  let current: AppRoute = route;
  for (let hops = 0; hops < routes.length && current.needs; hops++) {
    const parent = byName.get(current.needs.parent);
    if (!parent) break;
    if (missingParams(parent.needs, params).length === 0) {
      const kept: Record<string, string | number> = {};
      for (const key of parent.needs?.params ?? []) kept[key] = params[key] as string | number;
      return { route: parent, params: kept };
    }
    current = parent;
  }
  return { route: home, params: {} };
}

/**
 * The route wrapper's query check (spec §2: pages receive their data through query values): renders the screen when
 * the URL holds the query values `route` needs, else shows a short toast in the owner's language and replaces the
 * entry with the route's parent ({@link queryFallback}), so a link or a reload without them never strands the owner
 * on a blank page.
 */
export function RouteQueryCheck({ route, children }: { route: AppRoute; children: ReactNode }) {
  const { search } = useLocation();
  const fallback = useMemo(() => queryFallback(route, search), [route, search]);
  useEffect(() => {
    if (!fallback) return;
    Toast.show({ content: i18n.t("routing.missingQuery") });
    navigateTo(PATHS[fallback.route.name], fallback.params, { replace: true });
  }, [fallback]);
  return fallback ? null : children;
}
