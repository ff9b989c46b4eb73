import { vi } from "vitest";

/** Manual mock of our AquaWifi plugin: on the home network "AquaHome". */
export const AquaWifi = {
  getCurrentNetwork: vi.fn(async () => ({ connected: true, ssid: "AquaHome", band: "2.4GHz", ip: "192.168.1.23" })),
  getNetworks: vi.fn(async () => ({ networks: [{ ssid: "AquaHome", band: "2.4GHz", secured: true, rssi: -48 }] })),
  joinAccessPoint: vi.fn(async () => ({ ok: true, error: null })),
  leaveAccessPoint: vi.fn(async () => ({ connected: true, ssid: "AquaHome", band: "2.4GHz", ip: "192.168.1.23" })),
  sendJoinPacket: vi.fn(async () => ({ acknowledged: true })),
  discover: vi.fn(async () => ({ answers: [{ address: "192.168.1.57", packet: "AAAA" }] })),
};
