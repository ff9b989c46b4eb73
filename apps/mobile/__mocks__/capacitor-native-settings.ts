import { vi } from "vitest";

export { AndroidSettings, IOSSettings } from "../../../node_modules/capacitor-native-settings/dist/esm/definitions.js";

/** Manual mock of capacitor-native-settings (its enums are the real ones). */
export const NativeSettings = { open: vi.fn(async () => ({ status: true })) };
