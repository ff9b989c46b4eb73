import type { BleSetupRun } from "./logic/ble-flow.ts";
import type { SmartSetupRun } from "./logic/smart-flow.ts";

/**
 * Running network setups, in memory only: a setup holds a Bluetooth link or the phone's access-point
 * state, which a page reload cannot resume, and the Wi-Fi password, which must never reach the URL. The Wi-Fi page
 * creates a run on "Connect to Wi-Fi" and navigates to the progress step with its id; the progress step finds it
 * here, or — after a reload — says the setup was interrupted.
 */

/** One setup: its flow, where the device goes and the Wi-Fi it was given (remembered under `wifi` on success). */
export type SetupSession =
  | { id: string; mode: "ble"; run: BleSetupRun; familyId: string; ssid: string; password: string }
  | { id: string; mode: "ap"; run: SmartSetupRun; familyId: string; ssid: string; password: string };

const sessions = new Map<string, SetupSession>();
let counter = 0;

/** A fresh run id (unique within this page load). */
export function newSessionId(): string {
  counter += 1;
  return `${Date.now().toString(36)}-${counter}`;
}

/** Keeps a session (replacing one with the same id). */
export function saveSession(session: SetupSession): void {
  sessions.set(session.id, session);
}

/** The session with `id`, or null (unknown id, or the page was reloaded). */
export function findSession(id: string | null | undefined): SetupSession | null {
  return id ? (sessions.get(id) ?? null) : null;
}

/** Whether any setup is running now (the Wi-Fi page refuses a second one: double taps). */
export function runningSession(): SetupSession | null {
  for (const s of sessions.values()) if (s.run.snapshot().status === "running") return s;
  return null;
}
