import { z } from "zod";
import { WIFI_BANDS } from "./constants.ts";

export type WifiBand = (typeof WIFI_BANDS)[number];

/**
 * The phone's current Wi-Fi: not connected, or a network's name, band and the phone's IPv4 address on it (each null
 * when the phone cannot tell). The address goes into the hello packet (the module answers its own subnet only).
 */
export const ZPhoneWifi = z.object({
  connected: z.boolean(),
  ssid: z.string().max(32).nullable(),
  band: z.enum(WIFI_BANDS).nullable(),
  ip: z.string().max(15).nullable(),
});
export type TPhoneWifi = z.infer<typeof ZPhoneWifi>;

export const ZWifiNetwork = z.object({
  ssid: z.string().min(1).max(32),
  band: z.enum(WIFI_BANDS),
  /** Needs a password. */
  secured: z.boolean(),
  /** Received signal, dBm (−30 excellent … −90 unusable). */
  rssi: z.number().int().min(-120).max(0),
});
export type TWifiNetwork = z.infer<typeof ZWifiNetwork>;
export const ZWifiNetworkList = z.object({ networks: z.array(ZWifiNetwork) });
export type TWifiNetworkList = z.infer<typeof ZWifiNetworkList>;

export const ZWifiSelect = z.object({ ssid: z.string().min(1).max(32) });

export const ZJoinAccessPoint = z.object({ ssid: z.string().min(1).max(32) });
/** `not-found`: no access point of that name in range (the module is not in setup mode). */
export const ZJoinAccessPointResult = z.object({ ok: z.boolean(), error: z.enum(["not-found", "failed"]).nullable() });
export type TJoinAccessPointResult = z.infer<typeof ZJoinAccessPointResult>;

/** A packet as standard base64. */
const ZPacket = z.string().min(4).max(4096);

export const ZSendJoinPacket = z.object({ packet: ZPacket });
/**
 * The join packet is out. `acknowledged`: a product module answered it (kind 0x15) while the bridge listened; stock
 * modules never do, and the app does not wait for it.
 */
export const ZSendJoinPacketResult = z.object({ acknowledged: z.boolean() });
export type TSendJoinPacketResult = z.infer<typeof ZSendJoinPacketResult>;

export const ZDiscover = z.object({ packet: ZPacket, timeoutMs: z.number().int().min(100).max(5000) });
/** Every answer received within the time, as sent (base64), with the sender's address. */
export const ZDiscoverResult = z.object({
  answers: z.array(z.object({ address: z.string(), packet: ZPacket })),
});
export type TDiscoverResult = z.infer<typeof ZDiscoverResult>;
