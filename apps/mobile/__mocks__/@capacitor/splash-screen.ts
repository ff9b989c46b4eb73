import { vi } from "vitest";

/** Manual mock of @capacitor/splash-screen. */
export const SplashScreen = { hide: vi.fn(async () => {}), show: vi.fn(async () => {}) };
