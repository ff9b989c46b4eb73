import { vi } from "vitest";

/** Manual mock of @capacitor-community/bluetooth-le's BleClient (permission granted). */
export const BleClient = { initialize: vi.fn(async () => {}) };
