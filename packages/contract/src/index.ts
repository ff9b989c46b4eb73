/** The wire contract of AquaPilot: enums (spec §3), envelope (§7, §8), endpoints (§7), hubs and MQTT topics. */

export * from "./activation.ts";
export * from "./constants.ts";
export * from "./dev-bridge.ts";
export * from "./display-name.ts";
export { toWire } from "./endpoints/to-wire.ts";
export * from "./endpoints.ts";
export * from "./enums.ts";
export * from "./envelope.ts";
export * from "./mqtt.ts";
export * from "./realtime.ts";
export * from "./softener.ts";
export type { SchemasOf, WireEndpoint } from "./wire-endpoint.ts";
