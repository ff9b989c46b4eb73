/**
 * Version rules of the app update dialog (the shell's version against `androidLatestVersion` /
 * `iosLatestVersion` of app-config-setting) and the comparison they need.
 */

/**
 * Compares dotted versions numerically ("2.10.0" > "2.9.3"; a leading "v" and a "-…"/"+…" suffix are ignored;
 * missing parts count as 0). Returns -1, 0 or 1. Unparsable parts count as 0.
 */
export function compareVersions(a: string, b: string): -1 | 0 | 1 {
  const parts = (v: string) =>
    v
      .trim()
      .replace(/^v/i, "")
      .split(/[-+]/)[0]
      .split(".")
      .map((p) => Number.parseInt(p, 10) || 0);
  const x = parts(a);
  const y = parts(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d > 0 ? 1 : -1;
  }
  return 0;
}

/** What the update check needs from app-config-setting. */
export interface LatestVersions {
  androidLatestVersion: string | null;
  iosLatestVersion: string | null;
  androidDownloadUrl: string | null;
  iosDownloadUrl: string | null;
}

/** An update to offer: the newer version and where to download it. */
export interface UpdateOffer {
  latest: string;
  downloadUrl: string | null;
}

/**
 * The update to offer to a native shell (spec §7 "App-version endpoint … if the running app is older, a dialog asks
 * to update, directing to the provider's download site"), or null: no shell version or platform (a plain browser),
 * no latest version for the platform, or the shell is as new or newer.
 */
export function updateOffer(
  shell: { appVersion: string | null; platform: "android" | "ios" | null },
  config: LatestVersions,
): UpdateOffer | null {
  if (!shell.appVersion || !shell.platform) return null;
  const latest = shell.platform === "android" ? config.androidLatestVersion : config.iosLatestVersion;
  if (!latest || compareVersions(latest, shell.appVersion) <= 0) return null;
  return { latest, downloadUrl: shell.platform === "android" ? config.androidDownloadUrl : config.iosDownloadUrl };
}
