import { LIMITS } from "@aquapilot/contract/wire";
import { DotLoading } from "antd-mobile";
import { lazy, type ReactNode, Suspense, useEffect, useState, useSyncExternalStore } from "react";
import { errorMessage } from "../shared/api/errors.ts";
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

/** The route the hash URL shows now, path and query ("/Device?params=…" for "#/Device?params=…"). */
function currentRoute(): string {
  return (window.location.hash || "").replace(/^#/, "");
}

type GuardState = "checking" | "ready" | "leaving";

/**
 * The route guard of spec §4. Open routes render at once. Otherwise: no token → go to Login (keeping the route asked
 * for, path and query, for after sign-in) and reload after 1000 ms; with a token the granted permissions load once per session — on failure token and login info are cleared,
 * the error is toasted and the page reloads after 1000 ms. A route's declared permission is then checked (spec §6).
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
    loadGrantedPolicies().then(
      () => alive && setState("ready"),
      (err: unknown) => {
        if (!alive) return;
        setState("leaving");
        signOut();
        Toast.show({ icon: "fail", content: errorMessage(err, i18n.t("errors.permissionsFailed")) });
        reloadSoon();
      },
    );
    return () => {
      alive = false;
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
