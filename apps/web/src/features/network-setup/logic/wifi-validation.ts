import type { TPhoneWifi, TWifiNetwork } from "@aquapilot/contract/wire";
import {
  BLSYNC_MAX_PASSWORD_BYTES,
  BLSYNC_MAX_SSID_BYTES,
  JOIN_MAX_PASSWORD_BYTES,
  JOIN_MAX_SSID_BYTES,
  utf8,
} from "@aquapilot/provisioning";

/**
 * The Wi-Fi page's rules (spec §5 "Network setup needs Wi-Fi name and password", §9 "2.4GHz only"): what the module
 * can store and what the phone knows about the network. Pure; the page shows the message of the key it answers.
 */

/** The setup mode: "ble" new version (Bluetooth), "ap" old version (access point and join packet). */
export type SetupMode = "ble" | "ap";

/**
 * Why the Wi-Fi cannot be used: "required" (spec §5 "Please enter the Wi-Fi name and password"), "nameTooLong"
 * (over 32 bytes of UTF-8), "passwordTooLong" (over 64 bytes; the new module's limit), "passwordTooLongOld" (over 32
 * bytes; the old module's join packet), "fiveGhz" (the phone reports this network as 5 GHz only).
 */
export type WifiProblem = "required" | "nameTooLong" | "passwordTooLong" | "passwordTooLongOld" | "fiveGhz";

/** What the phone knows (both null in a plain browser). */
export interface WifiContext {
  current: TPhoneWifi | null;
  networks: TWifiNetwork[] | null;
}

/** Bytes of UTF-8 `text` takes (what the module stores; spec §5). */
export function utf8Length(text: string): number {
  return utf8(text).length;
}

/**
 * Whether the phone knows `ssid` only as a 5 GHz network: its current network of that name is 5 GHz, or every
 * network of that name in range is 5 GHz. A name the phone does not know passes (the module reports "module
 * connection to the access point timed out" if it cannot find it on 2.4 GHz).
 */
export function isFiveGhzOnly(ssid: string, context: WifiContext): boolean {
  const inRange = (context.networks ?? []).filter((n) => n.ssid === ssid);
  if (inRange.length > 0) return inRange.every((n) => n.band === "5GHz");
  return context.current?.connected === true && context.current.ssid === ssid && context.current.band === "5GHz";
}

/**
 * Checks the Wi-Fi name and password for `mode` (spec §5, §9): both required (the name may not be only spaces), the
 * name 1–32 bytes of UTF-8, the password at most 64 bytes (32 for the old version), not a network the phone knows as
 * 5 GHz only. Answers the first problem, or null when the Wi-Fi can be sent.
 */
export function validateWifi(
  name: string,
  password: string,
  mode: SetupMode,
  context: WifiContext = { current: null, networks: null },
): WifiProblem | null {
  if (name.trim() === "" || password === "") return "required";
  const maxName = mode === "ap" ? JOIN_MAX_SSID_BYTES : BLSYNC_MAX_SSID_BYTES;
  if (utf8Length(name) > maxName) return "nameTooLong";
  if (mode === "ap" && utf8Length(password) > JOIN_MAX_PASSWORD_BYTES) return "passwordTooLongOld";
  if (utf8Length(password) > BLSYNC_MAX_PASSWORD_BYTES) return "passwordTooLong";
  if (isFiveGhzOnly(name, context)) return "fiveGhz";
  return null;
}

/**
 * Whether the old version should warn that the phone is on another network than the one the device will join: the
 * device answers discovery only on the phone's own network (spec §2 "phone on the same network"). Only when the
 * phone is known to be on a different network; the 2.4 and 5 GHz halves of one router share a name prefix but may be
 * one network, so this warns and never refuses.
 */
export function otherNetworkWarning(name: string, mode: SetupMode, current: TPhoneWifi | null): boolean {
  return mode === "ap" && current?.connected === true && current.ssid !== null && current.ssid !== name;
}
