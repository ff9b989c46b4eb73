import { Button, DotLoading } from "antd-mobile";
import { CloseCircleOutline } from "antd-mobile-icons";
import { Component, type ComponentType, lazy, type ReactNode, Suspense, useLayoutEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, Route, Routes, useLocation, useNavigate } from "react-router";
import { loadedScreen } from "../first-paint/first-screen.ts";
import { Staged } from "../first-paint/staged.tsx";
import { currentLanguage, loadTexts, textsLoaded } from "../shared/i18n/index.ts";
import { PATHS, setNavigator } from "../shared/navigation/index.ts";
import { setOverlayPage } from "../shared/navigation/overlay-history.ts";
import { StateBlock } from "../shared/ui/state-block.tsx";
import { RouteGuard } from "./guard.tsx";
import { RouteQueryCheck } from "./route-query.tsx";
import { type AppRoute, ROUTES } from "./routes.ts";

const NotBuiltPage = lazy(() => import("../shared/ui/not-built-page.tsx").then((m) => ({ default: m.NotBuiltPage })));

/** A lazy chunk that has not loaded after this long fails (spec §8 "Chunk load failure after 120000 ms"). */
export const CHUNK_TIMEOUT_MS = 120_000;

function withTimeout<T>(load: () => Promise<T>): () => Promise<T> {
  return () =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("chunk load timeout")), CHUNK_TIMEOUT_MS);
      load().then(
        (v) => {
          clearTimeout(timer);
          resolve(v);
        },
        (e) => {
          clearTimeout(timer);
          reject(e);
        },
      );
    });
}

function PageFallback() {
  return (
    <div className="guard-wait">
      <DotLoading color="primary" />
    </div>
  );
}

/** Shown when a screen chunk fails to load or a screen throws. */
function RouteError() {
  const { t } = useTranslation();
  return (
    <StateBlock
      icon={<CloseCircleOutline />}
      title={t("errors.systemError")}
      action={
        <Button color="primary" shape="rounded" onClick={() => window.location.reload()}>
          {t("common.retry")}
        </Button>
      }
    />
  );
}

/**
 * The frame every page renders in: its enter transition (spec §2) and its name for tests and styles. The prerendered
 * first screen (first-paint/prerender.tsx) uses the same frame, so the real page replaces it element for element.
 */
export function RouteFrame({ route, children }: { route: AppRoute; children: ReactNode }) {
  return (
    <div className={`route route--${route.transition}`} data-route={route.name}>
      {children}
    </div>
  );
}

/**
 * The page element of one route: guard (spec §4) → the query values it needs (or its parent, `AppRoute.needs`) →
 * enter transition → screen (lazy) or the not-built page. The guard comes first, so a route opened signed out keeps
 * its whole query through Login.
 */
function element(route: AppRoute) {
  const load = route.screen;
  // The screen's chunk and its texts in the current language load together: no key is shown raw.
  const Lazy: ComponentType = load
    ? lazy(withTimeout(() => Promise.all([load(), loadTexts(currentLanguage(), route.texts)]).then(([m]) => m)))
    : () => <NotBuiltPage name={route.name} />;
  // A first screen whose chunk and texts are already in renders at once (no fallback in between); decided once per
  // mount, so a page never switches component under its own state.
  function Screen() {
    const [Ready] = useState(() => {
      const screen = loadedScreen(route);
      return screen && textsLoaded(currentLanguage(), route.texts) ? screen : null;
    });
    return Ready ? <Ready /> : <Lazy />;
  }
  return (
    <RouteGuard route={route}>
      <RouteQueryCheck route={route}>
        <RouteFrame route={route}>
          {/* Drawn beneath a snapshot or prerendered copy at start-up, the screen comes in a task after the router's and
            the providers' (the one first render was a long task right after the app's code). */}
          <Staged>
            <Suspense fallback={<PageFallback />}>
              <Screen />
            </Suspense>
          </Staged>
        </RouteFrame>
      </RouteQueryCheck>
    </RouteGuard>
  );
}

/** Catches a screen that throws (or a chunk that fails to load) and shows {@link RouteError} instead. */
class RouteErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }
  override componentDidCatch(error: unknown): void {
    console.error("[router] screen failed", error);
  }
  override render() {
    return this.state.failed ? <RouteError /> : this.props.children;
  }
}

function toRoute(route: AppRoute): ReactNode {
  return (
    <Route
      key={route.path}
      path={route.path}
      // Keyed by route: each route's boundary, guard and frame are its own (the router puts every route's element in
      // the same place, so without a key a failed screen or a guard's state would carry over to the next route).
      element={<RouteErrorBoundary key={route.name}>{element(route)}</RouteErrorBoundary>}
    >
      {route.children ? (
        <>
          {/* /index itself shows the home tab */}
          <Route index element={<Navigate to={PATHS.Home} replace />} />
          {route.children.map(toRoute)}
        </>
      ) : null}
    </Route>
  );
}

/**
 * The routes' elements, built once: each lazy screen must keep its component identity across renders (a new `lazy()`
 * per render would suspend again on every navigation).
 */
const ROUTE_ELEMENTS: ReactNode[] = ROUTES.map(toRoute);

/**
 * The route table of spec §2 as React Router routes (declarative mode inside a `HashRouter`: the data
 * router's extra code stays off the first screen); `/` and unknown paths go to /index/home. It also hands the app's
 * `navigateTo` its navigate function and tells the overlay history which page is showing (a new page closes the
 * dialogs left open: a dialog never outlives its page).
 */
export function AppRoutes() {
  const navigate = useNavigate();
  const location = useLocation();
  useLayoutEffect(() => {
    setNavigator({ navigate: (to, options) => (typeof to === "number" ? navigate(to) : navigate(to, options)) });
    return () => setNavigator(null);
  }, [navigate]);
  // Every location counts, not only a new key: entries the router did not make (a hash set by hand, a link) all have
  // the key "default", and the overlay history must know the page's URL to tell such a page change from a back press
  // within one page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new path or query is a new page even under the same key
  useLayoutEffect(() => setOverlayPage(location.key), [location.key, location.pathname, location.search]);
  return (
    <Routes>
      <Route path="/" element={<Navigate to={PATHS.Home} replace />} />
      {ROUTE_ELEMENTS}
      <Route path="*" element={<Navigate to={PATHS.Home} replace />} />
    </Routes>
  );
}
