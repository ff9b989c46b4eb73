import { vi } from "vitest";

type Listener = (event: unknown) => void;
/** The listeners the shell added, by event name, so tests can fire `notificationOpened`. */
export const jpushListeners = new Map<string, Listener[]>();

/** Manual mock of capacitor-plugin-jpush (registered as "1a0018970a8c3c5e1f0", notifications allowed). */
export const JPush = {
  startJPush: vi.fn(async () => {}),
  getRegistrationID: vi.fn(async () => ({ registrationId: "1a0018970a8c3c5e1f0" })),
  checkPermissions: vi.fn(async () => ({ permission: "granted" })),
  requestPermissions: vi.fn(async () => ({ permission: "granted" })),
  addListener: vi.fn(async (event: string, listener: Listener) => {
    jpushListeners.set(event, [...(jpushListeners.get(event) ?? []), listener]);
    return { remove: async () => {} };
  }),
};
