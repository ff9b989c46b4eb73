/**
 * Codecs of the WIFI-BL3372 module's two network-setup protocols (docs/device-protocol.md §13), shared by
 * the web app, the server and the simulator: Bluetooth provisioning frames after Bouffalo Lab's blsync_ble, the
 * BroadLink-style UDP packets of the old access-point setup, and the setup states, failures and progress steps of
 * spec §3/§4.
 */

export * from "./blsync.ts";
export * from "./broadlink.ts";
export * from "./bytes.ts";
export * from "./setup.ts";
