import { LIMITS } from "@aquapilot/contract/wire";
import { DotLoading } from "antd-mobile";
import { lazy, type ReactNode, Suspense, useEffect, useState, useSyncExternalStore } from "react";
import { ApiError, errorMessage } from "../shared/api/errors.ts";
import { checkPermission } from "../shared/auth/permissions.ts";
import {
  getGrantedPolicies,
  loadGrantedPolicies,
  permissionsLoaded,
  signOut,
  subscribeSession,
} from "../shared/auth/session.ts";
import { i18n } from "../shared/i18n/index.ts";
import { navigateTo, PATHS, returnToParams } from "../shared/navigation/index.ts";
import { getAccessToken } from "../shared/storage/index.ts";
import { Toast } from "../shared/ui/toast.ts";
import type { AppRoute } from "./routes.ts";

const NoPermission = lazy(() => import("./no-permission.tsx").then((m) => ({ default: m.NoPermission })));

/** Reloads the page after the spec's 1000 ms (spec §4/§9 "reload after failed auth"). */
function reloadSoon(): void {
  setTimeout(() => window.location.reload(), LIMITS.reloadAfterFailedAuthMs);
}

/** The longest wait before a permission load that got no answer is tried again, ms (it doubles from 1 s). */
export const PERMISSION_RETRY_MAX_MS = 30_000;

/**
 * Whether a failed permission load got no answer at all — no network, the server away (ApiError without status), or
 * the call aborted by the browser because the page is being left or reloaded (AbortError): it says nothing about the
 * sign-in, so the session stays and the load is tried again.
 */
function gotNoAnswer(err: unknown): boolean {
  if (err instanceof ApiError) return err.status === null;
  return (err as { name?: unknown } | null)?.name === "AbortError";
}

/** The route the hash URL shows now, path and query ("/Device?params=…" for "#/Device?params=…"). */
function currentRoute(): string {
  return (window.location.hash || "").replace(/^#/, "");
}

type GuardState = "checking" | "ready" | "leaving";

/**
 * The route guard of spec §4. Open routes render at once. Otherwise: no token → go to Login (keeping the route asked
 * for, path and query, for after sign-in) and reload after 1000 ms. With a token the granted permissions load once per
 * session: when the server answers with an error, token and login info are cleared, the error is toasted and the page
 * reloads after 1000 ms; when no answer came ({@link gotNoAnswer}) the error is toasted, the session stays and the
 * load is tried again (on the browser's `online` event, else after 1, 2, 4… s up to {@link PERMISSION_RETRY_MAX_MS}).
 * A route's declared permission is then checked (spec §6).
 */
export function RouteGuard({ route, children }: { route: AppRoute; children: ReactNode }) {
  const needsAuth = !route.open;
  const [state, setState] = useState<GuardState>(() =>
    !needsAuth ? "ready" : !getAccessToken() ? "leaving" : permissionsLoaded() ? "ready" : "checking",
  );
  const granted = useSyncExternalStore(subscribeSession, () => getGrantedPolicies().join("\n"));

  useEffect(() => {
    if (!needsAuth) return;
    if (!getAccessToken()) {
      setState("leaving");
      // The route asked for (path and query) goes along, so sign-in opens it (see navigation/return-to.ts).
      navigateTo(PATHS.Login, returnToParams(currentRoute()), { replace: true });
      reloadSoon();
      return;
    }
    let alive = true;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    const load = () => {
      clearTimeout(retry);
      retry = undefined;
      loadGrantedPolicies().then(
        () => alive && setState("ready"),
        (err: unknown) => {
          if (!alive) return;
          Toast.show({ icon: "fail", content: errorMessage(err, i18n.t("errors.permissionsFailed")) });
          if (gotNoAnswer(err)) {
            // Signing out here would end a good sign-in because the phone was offline, or because the page was being
            // reloaded while the call was under way: wait, and ask again when the network returns or after a backoff.
            retry = setTimeout(load, Math.min(1000 * 2 ** failures++, PERMISSION_RETRY_MAX_MS));
            return;
          }
          setState("leaving");
          signOut();
          reloadSoon();
        },
      );
    };
    load();
    const onOnline = () => {
      if (retry !== undefined) load();
    };
    window.addEventListener("online", onOnline);
    return () => {
      alive = false;
      clearTimeout(retry);
      window.removeEventListener("online", onOnline);
    };
  }, [needsAuth]);

  if (state !== "ready") {
    return (
      <div className="guard-wait" data-testid="guard-wait">
        <DotLoading color="primary" />
      </div>
    );
  }
  if (!checkPermission(granted ? granted.split("\n") : [], route.permission)) {
    return (
      <Suspense fallback={null}>
        <NoPermission route={route} />
      </Suspense>
    );
  }
  return <>{children}</>;
}
