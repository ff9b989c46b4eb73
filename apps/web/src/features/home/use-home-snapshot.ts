import { useEffect } from "react";
import { currentLanguage } from "../../shared/i18n/index.ts";
import { saveSnapshot } from "../../shared/snapshot/index.ts";

/** How long after Home's data changes its snapshot is taken (every card revealed, the figures settled), in ms. */
export const SNAPSHOT_DELAY_MS = 2_000;

/** Takes the snapshot of what `#root` shows now in the current language (nothing without a `#root`). */
function takeSnapshot(): void {
  const root = document.getElementById("root");
  if (root) saveSnapshot(root, currentLanguage());
}

/**
 * Keeps the snapshot of Home (shared/snapshot, issue 12) that apps/web/boot.js paints on the next start: while `ready`
 * (the household's devices and their figures are shown, not skeletons, an error or an empty list), once
 * {@link SNAPSHOT_DELAY_MS} after `version` last changed, in an idle moment, and when the owner leaves the app
 * (`pagehide`, or the page hidden) while Home shows. Nothing while not ready, so a snapshot never holds a loading state.
 * @param ready whether Home shows its devices with their figures
 * @param version anything that changes when what Home shows changes (its data), compared with Object.is
 */
export function useHomeSnapshot(ready: boolean, version: unknown): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new `version` starts the delay again (what it is for).
  useEffect(() => {
    if (!ready) return;
    let idle: number | undefined;
    const timer = setTimeout(() => {
      if (typeof requestIdleCallback === "function") idle = requestIdleCallback(takeSnapshot, { timeout: 1_000 });
      else takeSnapshot();
    }, SNAPSHOT_DELAY_MS);
    const leaving = () => {
      if (document.visibilityState === "hidden") takeSnapshot();
    };
    window.addEventListener("pagehide", takeSnapshot);
    document.addEventListener("visibilitychange", leaving);
    return () => {
      clearTimeout(timer);
      if (idle !== undefined && typeof cancelIdleCallback === "function") cancelIdleCallback(idle);
      window.removeEventListener("pagehide", takeSnapshot);
      document.removeEventListener("visibilitychange", leaving);
    };
  }, [ready, version]);
}
