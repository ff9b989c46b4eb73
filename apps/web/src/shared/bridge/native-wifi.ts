import {
  ZDiscoverResult,
  ZJoinAccessPointResult,
  ZPhoneWifi,
  ZSendJoinPacketResult,
  ZWifiNetworkList,
} from "@aquapilot/contract";
import type {
  TDiscoverResult,
  TJoinAccessPointResult,
  TPhoneWifi,
  TSendJoinPacketResult,
  TWifiNetworkList,
} from "@aquapilot/contract/wire";
import type { z } from "zod";
import { call, native } from "./index.ts";

/**
 * The native shell's Wi-Fi operations for network setup (docs/device-protocol.md §13.6), each answer checked
 * against the contract's schema. Kept apart from ./index.ts: only the network-setup screens load these
 * schemas, not the first screen.
 */

/** Parses a bridge answer given as an object or JSON text against `schema`; null when it does not fit. */
export function parseBridgeAnswer<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> | null {
  if (value === null || value === undefined) return null;
  let raw: unknown = value;
  if (typeof value === "string") {
    try {
      raw = JSON.parse(value);
    } catch {
      return null;
    }
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    console.warn("[bridge] answer does not fit its schema", parsed.error.issues[0]?.message);
    return null;
  }
  return parsed.data;
}

/** Whether the native shell offers the Wi-Fi operations of network setup (`getCurrentWifi` is injected). */
export function hasNativeWifi(): boolean {
  return typeof native()?.getCurrentWifi === "function";
}

/**
 * The phone's current Wi-Fi from the native shell (docs/device-protocol.md §13.6): `{connected, ssid, band, ip}`.
 * Null without a bridge, when the call fails or the answer does not fit the contract (fail-silent, logged).
 */
export async function getCurrentWifi(): Promise<TPhoneWifi | null> {
  return parseBridgeAnswer(ZPhoneWifi, await call("getCurrentWifi", null, (fn, b) => fn.call(b)));
}

/** The Wi-Fi networks in range from the native shell (`{networks: [{ssid, band, secured, rssi}]}`), or null. */
export async function getWifiNetworks(): Promise<TWifiNetworkList | null> {
  return parseBridgeAnswer(ZWifiNetworkList, await call("getWifiNetworks", null, (fn, b) => fn.call(b)));
}

/**
 * Joins an access point by name (the old module's setup network, spec §2 "Old version"): `{ok, error}` with
 * `error` "not-found" (no such network in range) or "failed". Null without a bridge or on a failed call.
 */
export async function joinAccessPoint(ssid: string): Promise<TJoinAccessPointResult | null> {
  return parseBridgeAnswer(ZJoinAccessPointResult, await call("joinAccessPoint", null, (fn, b) => fn.call(b, ssid)));
}

/** Leaves the module's access point; answers the phone's Wi-Fi afterwards, or null. */
export async function leaveAccessPoint(): Promise<TPhoneWifi | null> {
  return parseBridgeAnswer(ZPhoneWifi, await call("leaveAccessPoint", null, (fn, b) => fn.call(b)));
}

/** Sends the join packet (base64) to the module's access point; `{acknowledged}` (within 3 s), or null. */
export async function sendJoinPacket(packet: string): Promise<TSendJoinPacketResult | null> {
  return parseBridgeAnswer(ZSendJoinPacketResult, await call("sendJoinPacket", null, (fn, b) => fn.call(b, packet)));
}

/**
 * Broadcasts a hello packet (base64) on the home network and collects answers for `timeoutMs` ms:
 * `{answers: [{address, packet}]}` (packets base64), or null.
 */
export async function discoverDevices(packet: string, timeoutMs: number): Promise<TDiscoverResult | null> {
  return parseBridgeAnswer(
    ZDiscoverResult,
    await call("discoverDevices", null, (fn, b) => fn.call(b, packet, timeoutMs)),
  );
}
