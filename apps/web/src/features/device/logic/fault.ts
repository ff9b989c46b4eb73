import { SYSTEM_CLOSE_REASONS } from "@aquapilot/contract";

/** The §8 label of a fault: "Device offline", "System error" or "Excessive flow". */
export type FaultLabel = "deviceOffline" | "systemError" | "excessiveFlow";

/** One fault to show on /Fault: the close reason (null for offline) and its §8 label. */
export interface Fault {
  closeReason: number | null;
  label: FaultLabel;
}

/**
 * The §8 label of a system close reason (spec §3): 1025 excessive instantaneous flow → "Excessive flow"; 257 valve
 * button, 513 leak-point signal, 769 continuous use too long and unknown codes → "System error".
 */
export function faultLabel(closeReason: number): FaultLabel {
  return closeReason === 1025 ? "excessiveFlow" : "systemError";
}

/** Whether a code is one of the close reasons of spec §3 (257, 513, 769, 1025). */
export function isKnownCloseReason(code: number): boolean {
  return (SYSTEM_CLOSE_REASONS as readonly number[]).includes(code);
}

/**
 * The device's current faults (spec §2 Other: Fault): offline first ("Device offline"), then the live close reason
 * when there is one (0 or null means none).
 */
export function currentFaults(online: boolean, closeReason: number | null): Fault[] {
  const faults: Fault[] = [];
  if (!online) faults.push({ closeReason: null, label: "deviceOffline" });
  if (closeReason) faults.push({ closeReason, label: faultLabel(closeReason) });
  return faults;
}
