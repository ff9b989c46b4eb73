/**
 * What the build knows about itself, written by the `aquapilot-version` Vite plugin (apps/web/vite.config.ts):
 * `__APP_VERSION__` is the web app's package version (e.g. "0.1.0"), `__WEB_VERSION__` the version of this build
 * (package version + build time, e.g. "0.1.0+20250101T120000Z"), the same text the build writes to `version.json`.
 */
declare const __APP_VERSION__: string | undefined;
declare const __WEB_VERSION__: string | undefined;

/** The web app's version (package.json), "0.0.0" when not built by Vite. */
export const APP_VERSION: string = typeof __APP_VERSION__ === "string" ? __APP_VERSION__ : "0.0.0";
/** This build's version, as written to version.json; "dev" when not built by Vite. */
export const WEB_VERSION: string = typeof __WEB_VERSION__ === "string" ? __WEB_VERSION__ : "dev";
