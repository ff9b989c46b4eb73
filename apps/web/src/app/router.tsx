import { Button, DotLoading } from "antd-mobile";
import { CloseCircleOutline } from "antd-mobile-icons";
import { type ComponentType, lazy, Suspense } from "react";
import { useTranslation } from "react-i18next";
import { createHashRouter, Navigate, type RouteObject } from "react-router";
import { PATHS, setNavigator } from "../shared/navigation/index.js";
import { setOverlayPage } from "../shared/navigation/overlay-history.js";
import { NotBuiltPage, StateBlock } from "../shared/ui/index.js";
import { RouteGuard } from "./guard.js";
import { type AppRoute, ROUTES } from "./routes.js";

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

/** The page element of one route: guard (spec §4) → enter transition → screen (lazy) or the not-built page. */
function element(route: AppRoute) {
  const Screen: ComponentType = route.screen
    ? lazy(withTimeout(route.screen))
    : () => <NotBuiltPage name={route.name} />;
  return (
    <RouteGuard route={route}>
      <div className={`route route--${route.transition}`} data-route={route.name}>
        <Suspense fallback={<PageFallback />}>
          <Screen />
        </Suspense>
      </div>
    </RouteGuard>
  );
}

function toRouteObject(route: AppRoute): RouteObject {
  const children = route.children?.map(toRouteObject);
  return {
    path: route.path,
    element: element(route),
    errorElement: <RouteError />,
    // /index itself shows the home tab
    children: children ? [{ index: true, element: <Navigate to={PATHS.Home} replace /> }, ...children] : undefined,
  };
}

/** Builds the hash router from the route table of spec §2; `/` and unknown paths go to /index/home. */
export function createAppRouter() {
  const router = createHashRouter([
    { path: "/", element: <Navigate to={PATHS.Home} replace /> },
    ...ROUTES.map(toRouteObject),
    { path: "*", element: <Navigate to={PATHS.Home} replace /> },
  ]);
  // Dialogs belong to their page: a new page closes the ones left open (issue 10 "a dialog never outlives its page").
  setOverlayPage(router.state.location.key);
  router.subscribe((state) => setOverlayPage(state.location.key));
  setNavigator({
    navigate: (to, options) => (typeof to === "number" ? router.navigate(to) : router.navigate(to, options)),
  });
  return router;
}
