import { useEffect, useRef } from "react";

/** How long after a screen's data changes its snapshot is taken (every part revealed, the figures settled), in ms. */
export const SNAPSHOT_DELAY_MS = 2_000;

/**
 * Keeps a screen's snapshot (first-paint/snapshot.ts) that apps/web/src/first-paint/boot.js paints on the next start:
 * while `ready` (the screen shows its data, not skeletons, an error or an empty list), `take` runs once
 * {@link SNAPSHOT_DELAY_MS} after `version` last changed, in an idle moment, and when the owner leaves the app
 * (`pagehide`, or the page hidden) while the screen shows. Nothing while not ready, so a snapshot never holds a loading
 * state.
 * @param ready whether the screen shows its data
 * @param version anything that changes when what the screen shows changes (its data), compared with Object.is
 * @param take writes the snapshot (e.g. `saveSnapshot` of `#root`); the latest one given is called
 */
export function useKeptSnapshot(ready: boolean, version: unknown, take: () => void): void {
  const latest = useRef(take);
  latest.current = take;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new `version` starts the delay again (what it is for).
  useEffect(() => {
    if (!ready) return;
    const keep = () => latest.current();
    let idle: number | undefined;
    const timer = setTimeout(() => {
      if (typeof requestIdleCallback === "function") idle = requestIdleCallback(keep, { timeout: 1_000 });
      else keep();
    }, SNAPSHOT_DELAY_MS);
    const leaving = () => {
      if (document.visibilityState === "hidden") keep();
    };
    window.addEventListener("pagehide", keep);
    document.addEventListener("visibilitychange", leaving);
    return () => {
      clearTimeout(timer);
      if (idle !== undefined && typeof cancelIdleCallback === "function") cancelIdleCallback(idle);
      window.removeEventListener("pagehide", keep);
      document.removeEventListener("visibilitychange", leaving);
    };
  }, [ready, version]);
}
