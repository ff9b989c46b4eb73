import { vi } from "vitest";

/** Manual mock of @capacitor/text-zoom: the phone's preferred text size is 100 % until a test says otherwise. */
export const TextZoom = {
  getPreferred: vi.fn(async () => ({ value: 1 })),
  get: vi.fn(async () => ({ value: 1 })),
  set: vi.fn(async (_options: { value: number }) => {}),
};
