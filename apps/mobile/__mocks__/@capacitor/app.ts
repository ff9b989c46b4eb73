import { vi } from "vitest";

type Listener = (event: unknown) => void;
/** The listeners the shell added, by event name, so tests can fire `backButton` or `appUrlOpen`. */
export const appListeners = new Map<string, Listener[]>();

/** Manual mock of @capacitor/app. */
export const App = {
  getInfo: vi.fn(async () => ({ name: "AquaPilot", id: "com.aquapilot.app", build: "20000", version: "2.0.0" })),
  getLaunchUrl: vi.fn(async (): Promise<{ url: string } | undefined> => undefined),
  minimizeApp: vi.fn(async () => {}),
  exitApp: vi.fn(async () => {}),
  addListener: vi.fn(async (event: string, listener: Listener) => {
    appListeners.set(event, [...(appListeners.get(event) ?? []), listener]);
    return { remove: async () => {} };
  }),
};
