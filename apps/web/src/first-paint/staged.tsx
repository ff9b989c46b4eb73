import { type ReactNode, useEffect, useLayoutEffect, useState } from "react";
import { nextTask } from "./scheduling.ts";
import { drawingBeneathSnapshot, firstScreenDrawn, layOutStaging } from "./snapshot.ts";

/**
 * Renders `children` at once, except while the app is drawn out of sight at start-up (first-paint/snapshot.ts
 * `stageBeneathSnapshot`: beneath the last Home's snapshot, the Login copy or the Device frame boot.js painted): then
 * in a task of their own after this mounted, so the first render of a screen is several short tasks instead of one
 * long one (Home's first render was one task of 40-70 ms on a slow phone, Lighthouse's total blocking time) while
 * nothing is seen of it yet. Each `Staged` takes its own task, and its part is laid out in that task
 * (`layOutStaging`), not with every other part in the browser's next frame.
 */
export function Staged({ children }: { children: ReactNode }) {
  const [staged] = useState(() => drawingBeneathSnapshot());
  const [shown, setShown] = useState(() => !staged);
  useLayoutEffect(() => {
    if (staged && shown) layOutStaging();
  }, [staged, shown]);
  useEffect(() => {
    if (shown) return;
    let alive = true;
    void nextTask().then(() => {
      if (alive) setShown(true);
    });
    return () => {
      alive = false;
    };
  }, [shown]);
  return shown ? children : null;
}

/**
 * Tells start-up the screen drawn beneath the snapshot or prerendered copy is complete once it mounts
 * (`firstScreenDrawn`): put it in a screen's last `Staged` part. Renders nothing.
 */
export function FirstScreenDrawn() {
  useEffect(() => firstScreenDrawn(), []);
  return null;
}
