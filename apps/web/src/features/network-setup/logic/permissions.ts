import type { WifiBridgeKind } from "../../../shared/bridge/wifi-bridge.ts";
import type { BluetoothErrorKind } from "./bluetooth-errors.ts";
import type { SetupMode } from "./wifi-validation.ts";

/**
 * The permission step of network setup (spec §4 "Permission steps: location and Bluetooth permissions granted,
 * location and Bluetooth switched on"; §8 texts), checked through the native bridge when a shell is there. Pure
 * over injected checks, so the page and the tests share it.
 */

/** One row of the step. */
export type PermissionItem = "locationPermission" | "bluetoothPermission" | "locationService" | "bluetoothService";

/**
 * What a failed row says (spec §8): "locationDenied" Location permission request failed, "bluetoothDenied"
 * Bluetooth permission application failed, "locationOff" Location not enabled, "bluetoothOff" Bluetooth not turned
 * on, "bluetoothUnavailable" Bluetooth not enabled or Bluetooth permissions not enabled.
 */
export type PermissionProblem =
  | "locationDenied"
  | "bluetoothDenied"
  | "locationOff"
  | "bluetoothOff"
  | "bluetoothUnavailable";

/**
 * Why a skipped row needs nothing: "browser" (a browser asks itself, when the device is chosen), "devBridge" (the
 * development bridge plays the phone).
 */
export type SkipReason = "browser" | "devBridge";

/** Where a row's settings button goes: `startIntent` of the native bridge, null without a button. */
export type SettingsIntent = "settings" | "bluetooth-settings" | "location-settings";

/** One checked row. */
export type PermissionRow =
  | { item: PermissionItem; state: "ok" }
  | { item: PermissionItem; state: "skipped"; skip: SkipReason }
  | { item: PermissionItem; state: "failed"; problem: PermissionProblem; intent: SettingsIntent | null };

/**
 * The step's outcome: its rows, whether the setup cannot work here at all ("unsupported": no Bluetooth in this
 * browser; "needsApp": the old version without a native or development bridge), and whether Next may be tapped.
 */
export interface PermissionReport {
  rows: PermissionRow[];
  blocked: "unsupported" | "needsApp" | null;
  ready: boolean;
}

/** What the checks use: the native bridge, Bluetooth through BleClient, and the Wi-Fi bridge that was found. */
export interface PermissionDeps {
  /** Whether a native shell injected the bridge. */
  native: boolean;
  checkPermission(name: "location" | "bluetooth"): Promise<boolean>;
  isLocationEnabled(): Promise<boolean>;
  /** Bluetooth readiness: "on", "off" (radio switched off), or why it cannot be used. */
  bluetooth(): Promise<"on" | "off" | BluetoothErrorKind>;
  wifiBridge: WifiBridgeKind;
}

/** The rows of a mode, in the order shown: permissions granted, then switched on (spec §4). */
export function permissionItems(mode: SetupMode): PermissionItem[] {
  return mode === "ble"
    ? ["locationPermission", "bluetoothPermission", "locationService", "bluetoothService"]
    : ["locationPermission", "locationService"];
}

async function nativeRow(item: PermissionItem, deps: PermissionDeps): Promise<PermissionRow> {
  switch (item) {
    case "locationPermission":
      return (await deps.checkPermission("location"))
        ? { item, state: "ok" }
        : { item, state: "failed", problem: "locationDenied", intent: "settings" };
    case "bluetoothPermission":
      return (await deps.checkPermission("bluetooth"))
        ? { item, state: "ok" }
        : { item, state: "failed", problem: "bluetoothDenied", intent: "settings" };
    case "locationService":
      return (await deps.isLocationEnabled())
        ? { item, state: "ok" }
        : { item, state: "failed", problem: "locationOff", intent: "location-settings" };
    default:
      return bluetoothRow(await deps.bluetooth(), true);
  }
}

function bluetoothRow(status: "on" | "off" | BluetoothErrorKind, native: boolean): PermissionRow {
  const item = "bluetoothService" as const;
  if (status === "on") return { item, state: "ok" };
  if (status === "off")
    return { item, state: "failed", problem: "bluetoothOff", intent: native ? "bluetooth-settings" : null };
  if (status === "permission") {
    return { item, state: "failed", problem: "bluetoothDenied", intent: native ? "settings" : null };
  }
  return {
    item,
    state: "failed",
    problem: "bluetoothUnavailable",
    intent: native ? "bluetooth-settings" : null,
  };
}

/**
 * Checks the rows of `mode` (see {@link permissionItems}). In a shell every row asks the native bridge (and
 * BleClient for the radio); in a browser the location rows are skipped (Web Bluetooth needs no location) and only
 * the radio is checked; the old version is checked natively, skipped with the development bridge and blocked
 * ("needsApp") without either. Never rejects: a failing check counts as not granted.
 */
export async function checkPermissions(mode: SetupMode, deps: PermissionDeps): Promise<PermissionReport> {
  const items = permissionItems(mode);
  const safe = async (fn: () => Promise<PermissionRow>, item: PermissionItem): Promise<PermissionRow> => {
    try {
      return await fn();
    } catch {
      return item === "bluetoothService"
        ? bluetoothRow("failed", deps.native)
        : {
            item,
            state: "failed",
            problem: item === "locationService" ? "locationOff" : "locationDenied",
            intent: null,
          };
    }
  };
  if (mode === "ap") {
    if (deps.native) {
      const rows = await Promise.all(items.map((i) => safe(() => nativeRow(i, deps), i)));
      return { rows, blocked: null, ready: rows.every((r) => r.state !== "failed") };
    }
    const skip: SkipReason = deps.wifiBridge === "dev" ? "devBridge" : "browser";
    const rows: PermissionRow[] = items.map((item) => ({ item, state: "skipped", skip }));
    const blocked = deps.wifiBridge === "dev" ? null : "needsApp";
    return { rows, blocked, ready: blocked === null };
  }
  if (deps.native) {
    const rows: PermissionRow[] = [];
    // one after the other: each may show a system prompt
    for (const item of items) rows.push(await safe(() => nativeRow(item, deps), item));
    return { rows, blocked: null, ready: rows.every((r) => r.state !== "failed") };
  }
  let status: "on" | "off" | BluetoothErrorKind;
  try {
    status = await deps.bluetooth();
  } catch {
    status = "failed";
  }
  const rows: PermissionRow[] = items.map((item) =>
    item === "bluetoothService"
      ? bluetoothRow(status, false)
      : item === "bluetoothPermission" && status === "permission"
        ? { item, state: "failed", problem: "bluetoothDenied", intent: null }
        : { item, state: "skipped", skip: "browser" },
  );
  const blocked = status === "unsupported" ? "unsupported" : null;
  return { rows, blocked, ready: blocked === null && rows.every((r) => r.state !== "failed") };
}
