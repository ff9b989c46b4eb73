import { getItem, setItem } from "../../shared/storage/index.ts";

/**
 * The web version check of spec §7 ("A no-cache GET … returns a version; if it differs from the stored one,
 * cache is cleared and the page reloaded"): the build writes `version.json` (`{"version": "…"}`); the app reads it
 * without cache at start and every 10 minutes and compares it with the stored `version` (spec §3).
 */

/** How often the deployed version is checked, ms (10 minutes). */
export const VERSION_CHECK_INTERVAL_MS = 10 * 60_000;
/** Where the build writes its version, relative to the page. */
export const VERSION_URL = "version.json";

/**
 * Reads the deployed version: `GET version.json?t=<now>` with `cache: "no-store"`. Resolves null when it cannot be
 * read (offline, dev server without the file, bad JSON) — a failed check changes nothing.
 */
export async function fetchDeployedVersion(url = VERSION_URL, now: () => number = Date.now): Promise<string | null> {
  try {
    const response = await fetch(`${url}?t=${now()}`, { cache: "no-store", headers: { "Cache-Control": "no-cache" } });
    if (!response.ok) return null;
    const body = (await response.json()) as { version?: unknown };
    return typeof body.version === "string" && body.version ? body.version : null;
  } catch {
    return null;
  }
}

/** What a check decided: nothing known, first version stored, same version, or a new one (caches cleared, reload). */
export type VersionCheckOutcome = "unknown" | "stored" | "same" | "reloaded";

/**
 * One check: with no stored version the deployed one is stored (first run, no reload); a different one is stored
 * FIRST, then `clear` runs and `reload` once — the next load finds them equal, so it never loops.
 */
export async function checkWebVersion(deps: {
  fetchVersion: () => Promise<string | null>;
  clear: () => Promise<unknown>;
  reload: () => void;
}): Promise<VersionCheckOutcome> {
  const deployed = await deps.fetchVersion();
  if (!deployed) return "unknown";
  const stored = getItem("version");
  if (stored === deployed) return "same";
  setItem("version", deployed);
  if (stored === null) return "stored";
  await deps.clear();
  // clearing may drop "version" with the other keys: write it again so the reloaded page does not reload again
  setItem("version", deployed);
  deps.reload();
  return "reloaded";
}

/**
 * Runs {@link checkWebVersion} now and every {@link VERSION_CHECK_INTERVAL_MS}; returns the stop function. A check
 * that reloads stops the timer.
 */
export function startWebVersionWatch(deps: Parameters<typeof checkWebVersion>[0]): () => void {
  let stopped = false;
  const run = async () => {
    if (stopped) return;
    if ((await checkWebVersion(deps)) === "reloaded") stop();
  };
  const timer = setInterval(run, VERSION_CHECK_INTERVAL_MS);
  const stop = () => {
    stopped = true;
    clearInterval(timer);
  };
  void run();
  return stop;
}
