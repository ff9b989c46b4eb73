import type { PullToRefreshProps } from "antd-mobile";
import { type ComponentType, useEffect, useState } from "react";
import { afterFirstScreen } from "../scheduling/index.js";

type Loaded = ComponentType<PullToRefreshProps>;
let loaded: Loaded | null = null;

/**
 * antd-mobile's PullToRefresh, loaded once the first screen is in (`afterFirstScreen`; issue 12: its gesture and
 * animation libraries, about 25 KB gzip, stay off the first screen). Until it has loaded the content shows as is, without the pull gesture;
 * then the same content moves into the real component (its elements are built again once, at the same size, so the
 * first paint stays the largest). Takes antd-mobile's props.
 */
export function PullToRefresh(props: PullToRefreshProps) {
  const [Real, setReal] = useState<Loaded | null>(() => loaded);
  useEffect(() => {
    if (Real) return;
    let alive = true;
    afterFirstScreen()
      .then(() => import("./pull-to-refresh-impl.js"))
      .then(
        (m) => {
          loaded = m.PullToRefresh;
          if (alive) setReal(() => m.PullToRefresh);
        },
        (err: unknown) => console.warn("[pull-to-refresh] not loaded", err),
      );
    return () => {
      alive = false;
    };
  }, [Real]);
  if (Real) return <Real {...props} />;
  return (
    <div className="adm-pull-to-refresh">
      <div className="adm-pull-to-refresh-content">{props.children}</div>
    </div>
  );
}
