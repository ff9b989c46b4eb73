import { vi } from "vitest";

/** Manual mock of @capacitor/device. */
export const Device = { getLanguageTag: vi.fn(async () => ({ value: "zh-CN" })) };
