import { checkNativePermission, hasNativeBridge, isLocationEnabled, startIntent } from "../bridge/index.ts";
import { i18n } from "../i18n/index.ts";
import { confirmDialog } from "../ui/dialogs.tsx";
import { toast } from "../ui/toast.ts";
import { type CoordSystem, convertCoord, type LngLat } from "./coords.ts";

/**
 * The user's position (spec §2 "Centres on the user's position when available", §4 "Location tracking runs only while
 * at least one listener exists", §6 "Location permission and location services required before position is used",
 * §8 location errors, §9 "Location polling 7000 ms"). Positions are handed out in GCJ-02 (WGS-84 outside China), the
 * app's map system.
 */

/** Polling interval of location tracking, in ms (spec §9). */
export const LOCATION_POLL_MS = 7000;

/** A native position answer: degrees, with the system it is in (WGS-84 when not said). */
export interface NativePosition {
  longitude: number;
  latitude: number;
  coordType?: CoordSystem;
}

declare module "../bridge/index.js" {
  interface NativeBridge {
    /**
     * The phone's position (spec §8: "native position failure passes error info and code to the fail callback"):
     * {@link NativePosition} as an object or JSON text; a failure rejects/throws with `{code, message}`.
     */
    getLocation?(): NativePosition | string | Promise<NativePosition | string>;
  }
}

/** Why a position could not be read (spec §8): permission denied, location services off, or no fix. */
export type PositionFailure = "permission" | "disabled" | "unavailable";

/** A failed position read; `code` and `message` carry the native or browser error info (spec §8). */
export class PositionError extends Error {
  readonly reason: PositionFailure;
  readonly code: number | string | null;

  constructor(reason: PositionFailure, message: string = reason, code: number | string | null = null) {
    super(message);
    this.name = "PositionError";
    this.reason = reason;
    this.code = code;
  }
}

async function nativePosition(): Promise<LngLat | null> {
  const bridge = window.AquaPilotNative;
  if (typeof bridge?.getLocation !== "function") return null;
  let raw: unknown;
  try {
    raw = await bridge.getLocation();
  } catch (err) {
    const e = (err ?? {}) as { code?: number | string; message?: string };
    throw new PositionError("unavailable", e.message ?? String(err), e.code ?? null);
  }
  const value = (typeof raw === "string" ? JSON.parse(raw) : raw) as NativePosition;
  const point = { longitude: Number(value?.longitude), latitude: Number(value?.latitude) };
  if (!Number.isFinite(point.longitude) || !Number.isFinite(point.latitude)) {
    throw new PositionError("unavailable", "native position without coordinates");
  }
  return convertCoord(point, value.coordType ?? "WGS84", "GCJ02");
}

function browserPosition(timeoutMs: number): Promise<LngLat> {
  return new Promise((resolve, reject) => {
    if (typeof navigator === "undefined" || !navigator.geolocation) {
      reject(new PositionError("unavailable", "geolocation not supported"));
      return;
    }
    navigator.geolocation.getCurrentPosition(
      (pos) =>
        resolve(convertCoord({ longitude: pos.coords.longitude, latitude: pos.coords.latitude }, "WGS84", "GCJ02")),
      (err) => {
        const reason: PositionFailure =
          err.code === err.PERMISSION_DENIED
            ? "permission"
            : err.code === err.POSITION_UNAVAILABLE
              ? "disabled"
              : "unavailable";
        reject(new PositionError(reason, err.message, err.code));
      },
      { enableHighAccuracy: true, timeout: timeoutMs, maximumAge: LOCATION_POLL_MS },
    );
  });
}

/**
 * Reads the position once (GCJ-02). In a native shell the location permission and location services are checked first
 * (spec §6); the shell's `getLocation` answers, else the browser's geolocation (WGS-84, converted). Rejects with
 * {@link PositionError}.
 */
export async function readPosition(timeoutMs = 10_000): Promise<LngLat> {
  if (hasNativeBridge()) {
    if (!(await checkNativePermission("location"))) throw new PositionError("permission");
    if (!(await isLocationEnabled())) throw new PositionError("disabled");
    const native = await nativePosition();
    if (native) return native;
  }
  return browserPosition(timeoutMs);
}

/**
 * Tells the user why the position is missing (spec §8): permission denied → dialog "Permission request failed" with a
 * button to the settings (native shell) and the toast "Location permission request failed"; services off → "Location
 * not enabled" / "Location services are off". A missing fix is only logged.
 */
export async function reportPositionError(err: unknown): Promise<void> {
  const reason = err instanceof PositionError ? err.reason : "unavailable";
  if (reason === "unavailable") {
    console.info("[map] no position", err);
    return;
  }
  const native = hasNativeBridge();
  if (reason === "permission") {
    toast(i18n.t("map.permissionToast"));
    if (
      native &&
      (await confirmDialog({
        title: i18n.t("map.permissionTitle"),
        content: i18n.t("map.permissionToast"),
        confirmText: i18n.t("map.toSettings"),
      }))
    ) {
      await startIntent("settings", { target: "location-permission" });
    }
    return;
  }
  toast(i18n.t("map.gpsOffToast"));
  if (
    native &&
    (await confirmDialog({
      title: i18n.t("map.gpsOffTitle"),
      content: i18n.t("map.gpsOffToast"),
      confirmText: i18n.t("map.toSettings"),
    }))
  ) {
    await startIntent("settings", { target: "location-source" });
  }
}

/** A listener of tracked positions (GCJ-02). */
export type PositionListener = (position: LngLat) => void;

/** Location tracking that polls only while it has listeners (spec §4, §9). */
export interface LocationTracker {
  /** Adds a listener; the first one starts polling (one read at once, then every interval). Returns the unsubscribe. */
  subscribe(listener: PositionListener): () => void;
  /** Whether polling runs (true exactly while at least one listener exists). */
  isRunning(): boolean;
  listenerCount(): number;
  /** The last position read, or null. */
  lastPosition(): LngLat | null;
}

/**
 * Creates a tracker around a position source. `read` resolves a position, or null / rejects for none (listeners are
 * then not called). A read still running when the next tick comes is not doubled. Interval in ms (default 7000).
 */
export function createLocationTracker(
  read: () => Promise<LngLat | null>,
  intervalMs: number = LOCATION_POLL_MS,
): LocationTracker {
  const listeners = new Set<PositionListener>();
  let timer: ReturnType<typeof setInterval> | null = null;
  let last: LngLat | null = null;
  let reading = false;

  async function tick(): Promise<void> {
    if (reading) return;
    reading = true;
    try {
      const position = await read();
      if (position && timer !== null) {
        last = position;
        for (const listener of [...listeners]) listener(position);
      }
    } catch (err) {
      console.info("[map] position read failed", err);
    } finally {
      reading = false;
    }
  }

  return {
    subscribe(listener) {
      listeners.add(listener);
      if (timer === null) {
        timer = setInterval(() => void tick(), intervalMs);
        void tick();
      } else if (last) {
        listener(last);
      }
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && timer !== null) {
          clearInterval(timer);
          timer = null;
        }
      };
    },
    isRunning: () => timer !== null,
    listenerCount: () => listeners.size,
    lastPosition: () => last,
  };
}

/** The app's location tracker over {@link readPosition}; silent on failures (the dialog reports them itself). */
export const locationTracker: LocationTracker = createLocationTracker(() => readPosition().catch(() => null));

/** Subscribes to the user's position (GCJ-02), polled every 7000 ms while any subscriber exists (spec §4, §9). */
export function watchPosition(listener: PositionListener): () => void {
  return locationTracker.subscribe(listener);
}
