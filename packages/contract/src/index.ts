/** The wire contract of AquaPilot: enums (spec §3), envelope (§7, §8), endpoints (§7), hubs and MQTT topics. */

export * from "./activation.js";
export * from "./constants.js";
export * from "./dev-bridge.js";
export { toWire } from "./endpoints/to-wire.js";
export * from "./endpoints.js";
export * from "./enums.js";
export * from "./envelope.js";
export * from "./mqtt.js";
export * from "./realtime.js";
export type { SchemasOf, WireEndpoint, WireEndpoints } from "./wire-endpoint.js";
