import type { PermissionState } from "@capacitor/core";

/**
 * The native permissions of spec §6 beyond location and Bluetooth (which their own plugins ask): camera first, then
 * the rest as the platform allows. Android maps each alias to its manifest permissions (AquaShellPlugin.java);
 * iOS knows camera and photos (storage) and answers "denied" for the aliases it has no permission for.
 */
export const SHELL_PERMISSIONS = [
  "camera",
  "storage",
  "notifications",
  "microphone",
  "contacts",
  "calendar",
  "phone",
  "callLog",
  "sms",
  "sensors",
  "activityRecognition",
] as const;

/** One alias of {@link SHELL_PERMISSIONS}. */
export type ShellPermission = (typeof SHELL_PERMISSIONS)[number];

/** Capacitor's permission status: one state per alias. */
export type ShellPermissionStatus = Record<ShellPermission, PermissionState>;

/**
 * AquaShell, our own small Capacitor plugin for what the shell needs and no kept plugin offers: the §6
 * permissions by alias, and clearing the web view's cache (spec §7 bridge "clear cache").
 */
export interface AquaShellPlugin {
  /** The state of every alias (Android: its manifest permissions; iOS: AVCaptureDevice / PHPhotoLibrary). */
  checkPermissions(): Promise<ShellPermissionStatus>;
  /** Asks for `permissions` (the system prompt); the states afterwards. */
  requestPermissions(options: { permissions: ShellPermission[] }): Promise<ShellPermissionStatus>;
  /** Clears the web view's HTTP cache (Android WebView.clearCache(true); iOS WKWebsiteDataStore disk and memory cache). */
  clearCache(): Promise<void>;
}
