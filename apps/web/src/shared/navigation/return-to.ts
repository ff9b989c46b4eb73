import { PATHS, ROUTE_NAME_BY_PATH, type RouteName, type RoutePath } from "./paths.ts";

/**
 * The route a signed-out owner asked for, kept through Login (and Register, FindPassword) so that sign-in opens it
 * (spec §4: without a token a route goes to Login). It travels in those screens' navigation params under
 * {@link RETURN_TO_KEY}, as the route's path and query (`/Device?params=…`), so a reload of Login keeps it too.
 *
 * Only a route of this app's own hash table is ever followed: a value that is not one (an external URL, `//host`,
 * `javascript:`, an unknown path) is dropped, so the value can never send the owner to another site.
 */

/** The navigation param of Login, Register and FindPassword that holds the route to open after sign-in. */
export const RETURN_TO_KEY = "returnTo";

/**
 * Routes never returned to: the sign-in screens themselves (a loop) and the internal redirects of spec §2 (/App,
 * /Splash, /Reload), which only pass on to another route.
 */
const NEVER: ReadonlySet<RouteName> = new Set([
  "Login",
  "Register",
  "FindPassword",
  "CountrySelect",
  "App",
  "Splash",
  "Reload",
]);

/** A route of the app with its query, safe to open after sign-in. */
export interface ReturnTarget {
  /** The route's path as the route table spells it, e.g. "/Device". */
  path: RoutePath;
  /** The query values as they came (`params`, `requestPageId`, `projectId`, …), without the leading "?". */
  query: string;
}

/**
 * Reads a return value: a string of the form `/<route path>[?query]` naming a route of spec §2 that needs sign-in or
 * may be returned to. Returns the route (its path in the table's spelling) and the query, or null for anything else —
 * a full or protocol-relative URL, a path outside the route table, a sign-in screen, a control character.
 */
export function parseReturnTo(raw: unknown): ReturnTarget | null {
  if (typeof raw !== "string" || raw.length === 0 || raw.length > 4_000) return null;
  // Control characters and backslashes have no place in a route (browsers read "\" as "/" in some URLs).
  for (const ch of raw) {
    const code = ch.charCodeAt(0);
    if (code < 0x20 || code === 0x7f || ch === "\\") return null;
  }
  if (!raw.startsWith("/") || raw.startsWith("//")) return null;
  const q = raw.indexOf("?");
  const pathPart = q < 0 ? raw : raw.slice(0, q);
  const name = ROUTE_NAME_BY_PATH[pathPart.toLowerCase()];
  if (name === undefined || NEVER.has(name)) return null;
  const query = new URLSearchParams(q < 0 ? "" : raw.slice(q + 1));
  query.delete("target");
  return { path: PATHS[name], query: query.toString() };
}

/**
 * The value to keep for the route a hash URL shows (`#/Device?params=…` → "/Device?params=…"), or null when that is
 * not a route to return to (see {@link parseReturnTo}).
 */
export function returnToFromHash(hash: string): string | null {
  const target = parseReturnTo(hash.replace(/^#/, ""));
  return target ? (target.query ? `${target.path}?${target.query}` : target.path) : null;
}

/**
 * The navigation params that carry `returnTo` on to another sign-in screen (Login → Register, FindPassword → Login):
 * `{returnTo}` when it is a route to return to, else null (no params).
 */
export function returnToParams(returnTo: unknown): { [RETURN_TO_KEY]: string } | null {
  const target = parseReturnTo(returnTo);
  if (!target) return null;
  return { [RETURN_TO_KEY]: target.query ? `${target.path}?${target.query}` : target.path };
}

/**
 * The `/App` start-up URL (spec §2: every navigation passes through /App) that opens the return target with its
 * query, e.g. `/App?target=%2FDevice&params=…`; null when `returnTo` is not a route to return to.
 */
export function returnToAppUrl(returnTo: unknown): string | null {
  const target = parseReturnTo(returnTo);
  if (!target) return null;
  const query = new URLSearchParams({ target: target.path });
  for (const [k, v] of new URLSearchParams(target.query)) query.append(k, v);
  return `${PATHS.App}?${query.toString()}`;
}
