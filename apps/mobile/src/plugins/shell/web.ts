import type { PermissionState } from "@capacitor/core";
import { WebPlugin } from "@capacitor/core";
import {
  type AquaShellPlugin,
  SHELL_PERMISSIONS,
  type ShellPermission,
  type ShellPermissionStatus,
} from "./definitions.ts";

/** The Permissions API names of the aliases a browser knows. */
const BROWSER_NAMES: Partial<Record<ShellPermission, string>> = {
  camera: "camera",
  microphone: "microphone",
  notifications: "notifications",
};

/**
 * AquaShell in a browser: permission states from the Permissions API where the browser has one ("prompt"
 * while undecided; "denied" for what a page can never have), asking through getUserMedia for camera and microphone;
 * clearing the cache empties CacheStorage (a page cannot reach the HTTP cache).
 */
export class AquaShellWeb extends WebPlugin implements AquaShellPlugin {
  /** Every alias's state as the browser reports it. */
  async checkPermissions(): Promise<ShellPermissionStatus> {
    const entries = await Promise.all(
      SHELL_PERMISSIONS.map(async (alias): Promise<[ShellPermission, PermissionState]> => {
        const name = BROWSER_NAMES[alias];
        if (!name || typeof navigator === "undefined" || !navigator.permissions) return [alias, "denied"];
        try {
          const status = await navigator.permissions.query({ name: name as PermissionName });
          return [alias, status.state];
        } catch {
          return [alias, "prompt"];
        }
      }),
    );
    return Object.fromEntries(entries) as ShellPermissionStatus;
  }

  /** Asks for camera/microphone through getUserMedia (stopped at once); the states afterwards. */
  async requestPermissions(options: { permissions: ShellPermission[] }): Promise<ShellPermissionStatus> {
    const media = { video: options.permissions.includes("camera"), audio: options.permissions.includes("microphone") };
    if ((media.video || media.audio) && navigator.mediaDevices?.getUserMedia) {
      try {
        const stream = await navigator.mediaDevices.getUserMedia(media);
        for (const track of stream.getTracks()) track.stop();
      } catch {
        // refused or no device: the states below say so
      }
    }
    return this.checkPermissions();
  }

  /** Empties every CacheStorage cache of the page. */
  async clearCache(): Promise<void> {
    if (typeof caches === "undefined") return;
    const names = await caches.keys();
    await Promise.all(names.map((name) => caches.delete(name)));
  }
}
