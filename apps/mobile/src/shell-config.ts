/**
 * Build-time settings of the shells (issue 15), the same for Android and iOS.
 * `tenant`: the ABP tenant the app's calls carry (spec §3 native config `tenant`); null for the host tenant.
 * `deepLinkScheme` and `deepLinkHosts`: the custom scheme and the https hosts whose links open the app
 * (AndroidManifest intent filters, Info.plist CFBundleURLTypes and associated domains; docs in apps/mobile/README.md).
 */
export const SHELL_CONFIG = {
  tenant: null as string | null,
  deepLinkScheme: "aquapilot",
  deepLinkHosts: ["app.aquapilot.cn"] as readonly string[],
} as const;
