/** The API host written into native-shell.js by its build (scripts/build-web.ts `AQUAPILOT_API_URL`); absent in tests. */
declare const __AQUAPILOT_API_URL__: string | undefined;

/** The cloud the shells call when their build names none: production's host, which serves the API and the hubs. */
export const DEFAULT_API_BASE_URL = "https://app.aquapilot.cn";

/**
 * Build-time settings of the shells, the same for Android and iOS.
 * `tenant`: the ABP tenant the app's calls carry (spec §3 native config `tenant`); null for the host tenant.
 * `apiBaseUrl`: the cloud every API call, token call, hub and image goes to (native config `apiBaseUrl`):
 * the page itself comes from the web view's own origin (https://localhost on Android, capacitor://localhost on iOS).
 * Set per build with `AQUAPILOT_API_URL=<url> npm run sync -w apps/mobile` (apps/mobile/README.md "API host");
 * {@link DEFAULT_API_BASE_URL} otherwise.
 * `deepLinkScheme` and `deepLinkHosts`: the custom scheme and the https hosts whose links open the app
 * (AndroidManifest intent filters, Info.plist CFBundleURLTypes and associated domains; docs in apps/mobile/README.md).
 */
export const SHELL_CONFIG = {
  tenant: null as string | null,
  apiBaseUrl:
    typeof __AQUAPILOT_API_URL__ === "string" && __AQUAPILOT_API_URL__ ? __AQUAPILOT_API_URL__ : DEFAULT_API_BASE_URL,
  deepLinkScheme: "aquapilot",
  deepLinkHosts: ["app.aquapilot.cn"] as readonly string[],
} as const;
