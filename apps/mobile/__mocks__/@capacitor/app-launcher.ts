import { vi } from "vitest";

/** Manual mock of @capacitor/app-launcher. */
export const AppLauncher = { openUrl: vi.fn(async () => ({ completed: true })) };
