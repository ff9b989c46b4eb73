import { useEffect, useRef, useState } from "react";
import { nextTask } from "./scheduling.ts";

/**
 * How many of a list's `total` items to show: the first at once, then one more per task of the page's event loop
 * until all show (a list's first render on a slow phone — Home's device cards with their figures, tags and
 * images — is one task of 50–70 ms, blocking input; one card per task keeps each well under it, and the first card,
 * the screen's largest paint, is not held for the others). Once every item has shown, the count follows `total` at
 * once (a device added later, a pull-to-refresh). Returns a number from 0 to `total`.
 * @param total the list's length (0 or more)
 */
export function useRevealedCount(total: number): number {
  const [count, setCount] = useState(() => Math.min(total, 1));
  const complete = useRef(false);
  if (count >= total && total > 0) complete.current = true;
  useEffect(() => {
    if (complete.current || count >= total) return;
    let alive = true;
    void nextTask().then(() => {
      if (alive) setCount((c) => Math.min(total, Math.max(c, 1) + 1));
    });
    return () => {
      alive = false;
    };
  }, [count, total]);
  return complete.current ? total : Math.min(total, Math.max(count, 1));
}
