import { saveSnapshot } from "../../first-paint/snapshot.ts";
import { useKeptSnapshot } from "../../first-paint/use-kept-snapshot.ts";
import { currentLanguage } from "../../shared/i18n/index.ts";

/** Takes the snapshot of what `#root` shows now in the current language (nothing without a `#root`). */
function takeSnapshot(): void {
  const root = document.getElementById("root");
  if (root) saveSnapshot(root, currentLanguage());
}

/**
 * Keeps the snapshot of Home (first-paint/snapshot.ts) that apps/web/src/first-paint/boot.js paints on the next start,
 * as {@link useKeptSnapshot} says when.
 * @param ready whether Home shows its devices with their figures
 * @param version anything that changes when what Home shows changes (its data), compared with Object.is
 */
export function useHomeSnapshot(ready: boolean, version: unknown): void {
  useKeptSnapshot(ready, version, takeSnapshot);
}
