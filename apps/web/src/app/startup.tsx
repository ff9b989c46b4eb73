import { DotLoading } from "antd-mobile";
import { useEffect } from "react";
import { Navigate, useLocation } from "react-router";
import { PATHS, resolveAppTarget } from "../shared/navigation/index.ts";
import { BrandMark } from "../shared/ui/brand-mark.tsx";

/** `/App` (spec §2): the internal start-up route every navigation passes through; redirects to `target` + query. */
export function AppStartup() {
  const { search } = useLocation();
  return <Navigate to={resolveAppTarget(search)} replace />;
}

/** `/Splash`: the brand splash, then the home tab. */
export function SplashScreen() {
  return (
    <div className="splash" data-testid="splash">
      <BrandMark size="2.4rem" />
      <div className="splash__name">AquaPilot</div>
      <DotLoading color="white" />
      <Navigate to={PATHS.Home} replace />
    </div>
  );
}

/** `/Reload?target=…`: reloads the whole page at the target (e.g. after a language or version change). */
export function ReloadScreen() {
  const { search } = useLocation();
  useEffect(() => {
    window.location.replace(`#${resolveAppTarget(search)}`);
    window.location.reload();
  }, [search]);
  return (
    <div className="splash">
      <DotLoading color="white" />
    </div>
  );
}
