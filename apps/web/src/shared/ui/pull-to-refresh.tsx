import type { PullToRefreshProps } from "antd-mobile";
import { type ComponentType, useEffect, useLayoutEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { useTranslation } from "react-i18next";
import { afterFirstScreen, nextTask } from "../../first-paint/scheduling.ts";
import { RefreshControl } from "./refresh-control.tsx";

type Loaded = ComponentType<PullToRefreshProps>;
let loaded: Loaded | null = null;

/** Class of the content's own node and of the slot that holds it: both `display: contents` (styles.css). */
const CONTENT_CLASS = "pull-to-refresh-keep";

/**
 * antd-mobile's PullToRefresh, loaded once the first screen is in (`afterFirstScreen`: its gesture and
 * animation libraries, about 25 KB gzip, stay off the first screen). Until it has loaded the content shows as is,
 * without the pull gesture; then it moves into the real component. The content is rendered once, into a node of its
 * own (a portal), and that node is what moves: the swap builds only antd-mobile's own elements, never the content
 * again (a screen's device cards and their images), and the module is evaluated a task before the swap. Takes
 * antd-mobile's props; its four texts default to the app's ("Pull down to refresh", …, in the user's language).
 *
 * The gesture has an equivalent for a keyboard and a screen reader, {@link RefreshControl} before the list, running the
 * same `onRefresh`; the gesture's head, which only tells a finger what to do, is hidden from assistive technology.
 */
export function PullToRefresh(props: PullToRefreshProps) {
  const { t } = useTranslation();
  const [Real, setReal] = useState<Loaded | null>(() => loaded);
  const area = useRef<HTMLDivElement>(null);
  const [content] = useState(() => {
    const node = document.createElement("div");
    node.className = CONTENT_CLASS;
    return node;
  });
  useEffect(() => {
    if (Real) return;
    let alive = true;
    afterFirstScreen()
      .then(() => import("./pull-to-refresh-impl.ts"))
      .then(async (m) => {
        loaded = m.PullToRefresh;
        await nextTask();
        if (alive) setReal(() => m.PullToRefresh);
      })
      .catch((err: unknown) => console.warn("[pull-to-refresh] not loaded", err));
    return () => {
      alive = false;
    };
  }, [Real]);
  useEffect(() => {
    if (Real) area.current?.querySelector(".adm-pull-to-refresh-head")?.setAttribute("aria-hidden", "true");
  }, [Real]);
  const slot = <ContentSlot node={content} />;
  const texts = {
    pullingText: t("common.pullDown"),
    canReleaseText: t("common.release"),
    refreshingText: t("common.refreshing"),
    completeText: t("common.refreshed"),
  };
  const onRefresh = props.onRefresh ?? (async () => undefined);
  return (
    <div ref={area} className={CONTENT_CLASS}>
      <RefreshControl onRefresh={onRefresh} />
      {createPortal(props.children, content)}
      {Real ? (
        <Real {...texts} {...props}>
          {slot}
        </Real>
      ) : (
        <div className="adm-pull-to-refresh">
          <div className="adm-pull-to-refresh-content">{slot}</div>
        </div>
      )}
    </div>
  );
}

/** Where the content's node sits: appended before the browser paints, so the content never shows detached. */
function ContentSlot({ node }: { node: HTMLElement }) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    ref.current?.appendChild(node);
  }, [node]);
  return <div ref={ref} className={CONTENT_CLASS} />;
}
