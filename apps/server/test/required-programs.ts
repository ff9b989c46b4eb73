/**
 * The guard of the suites that need programs of the machine (PostgreSQL, redis-server, Mosquitto, nginx, Chromium):
 * these are the only tests of the production shape, so under CI a missing program fails the run, naming the program
 * and the Debian package to install; on a developer's machine the suite is skipped and says why.
 */

/**
 * A program (or file) a suite needs from the machine: what it is, where it was found (null: missing) and the Debian
 * package that installs it.
 */
export interface Requirement {
  /** What is needed, as the message names it: "redis-server", "Mosquitto's dynamic-security plugin". */
  program: string;
  /** Where it was found (a path or a URL), or null when it is missing. */
  found: string | null;
  /** The Debian package that installs it (`apt-get install <debianPackage>`). */
  debianPackage: string;
  /** What more is known of its absence, e.g. where it was looked for. */
  detail?: string | null;
  /** Another way to provide it, e.g. "or set TEST_REDIS_URL". */
  alternative?: string;
}

/**
 * Whether `env` is a CI run: `CI` set to anything but "", "0" or "false" (CI systems set CI=true).
 * scripts/no-skipped-tests.ts reads `CI` through this function too.
 */
export function isCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.CI?.trim().toLowerCase();
  return value !== undefined && value !== "" && value !== "0" && value !== "false";
}

/** One missing requirement as the messages name it: program, detail, package to install and the alternative. */
function describeMissing(r: Requirement): string {
  const detail = r.detail ? ` (${r.detail})` : "";
  const alternative = r.alternative ? `, ${r.alternative}` : "";
  return `${r.program} is missing${detail}: apt-get install ${r.debianPackage}${alternative}`;
}

/**
 * Whether the suite named `suite` must be skipped for want of one of `requirements`; meant for
 * `describe.skipIf(skipUnlessInstalled(…))` at the top of a test file. Returns false when everything is there. When
 * something is missing and `env` is a CI run ({@link isCi}) it throws, so the file fails instead of being skipped;
 * otherwise it logs why through `log` and returns true.
 * @throws Error naming the suite, each missing program and the Debian packages to install, under CI.
 */
export function skipUnlessInstalled(
  suite: string,
  requirements: readonly Requirement[],
  opts: { env?: NodeJS.ProcessEnv; log?: (line: string) => void } = {},
): boolean {
  const missing = requirements.filter((r) => r.found === null);
  if (missing.length === 0) return false;
  const reasons = missing.map(describeMissing).join("; ");
  if (isCi(opts.env ?? process.env)) {
    const packages = [...new Set(missing.map((r) => r.debianPackage))];
    const all = packages.length > 1 ? ` (all: apt-get install ${packages.join(" ")})` : "";
    throw new Error(`${suite}: cannot run, and CI does not skip it: ${reasons}${all}; .ci/run installs them all.`);
  }
  (opts.log ?? console.log)(`${suite}: skipped, ${reasons} (with CI set this fails the run)`);
  return true;
}
