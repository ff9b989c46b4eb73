import { vi } from "vitest";

/** Manual mock of @capacitor/core's `Capacitor` (platform "android" unless a test says otherwise). */
export const Capacitor = {
  getPlatform: vi.fn(() => "android"),
  isNativePlatform: vi.fn(() => true),
};

/** Never called through the mocks (the plugins are mocked whole); kept for imports of the real index files. */
export const registerPlugin = vi.fn(() => ({}));

/** Stand-in for WebPlugin so the web implementations still import. */
export class WebPlugin {
  unavailable(message: string): Error {
    return new Error(message);
  }
}
