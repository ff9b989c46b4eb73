import { vi } from "vitest";

/** Manual mock of @capacitor/geolocation (permission granted, a fix in Shanghai). */
export const Geolocation = {
  checkPermissions: vi.fn(async () => ({ location: "granted", coarseLocation: "granted" })),
  requestPermissions: vi.fn(async () => ({ location: "granted", coarseLocation: "granted" })),
  getCurrentPosition: vi.fn(async () => ({ timestamp: 0, coords: { longitude: 121.47, latitude: 31.23 } })),
};
