import type { SetupMode } from "./logic/wifi-validation.ts";

/** The steps of /DeviceNetwork, in the order the owner walks them (spec §2 "Network setup"). */
export const SETUP_STEPS = ["mode", "code", "guide", "permissions", "wifi", "progress"] as const;
export type SetupStep = (typeof SETUP_STEPS)[number];

/**
 * Navigation params of /DeviceNetwork (spec §2: JSON in the `params` query value): the household the device goes
 * to, the step (default "mode"), the setup mode of the Wi-Fi steps, `run` — the in-memory setup shown by the
 * progress step — `code`, a pairing code scanned on the home tab (opens the "code" step prefilled) — and `depth`, how
 * many of the setup's pages lie below this one in history (0 or absent on the first), so a finished setup can take
 * them all away (`replaceFlow`).
 */
export interface DeviceNetworkParams {
  familyId?: string;
  step?: SetupStep;
  mode?: SetupMode;
  run?: string;
  code?: string;
  depth?: number;
}

/** The setup's history entries up to and including the page of `params` (see `DeviceNetworkParams.depth`). */
export function setupEntries(params: Partial<DeviceNetworkParams>): number {
  const depth = params.depth;
  return typeof depth === "number" && Number.isInteger(depth) && depth > 0 ? depth + 1 : 1;
}

/**
 * The step to show for `params`: a known step, "code" when a pairing code arrived without a step, "mode" otherwise
 * (also for a Wi-Fi step without a valid mode).
 */
export function resolveStep(params: Partial<DeviceNetworkParams>): SetupStep {
  const step = SETUP_STEPS.includes(params.step as SetupStep) ? (params.step as SetupStep) : null;
  if (!step) return typeof params.code === "string" && params.code ? "code" : "mode";
  const needsMode = step === "guide" || step === "permissions" || step === "wifi" || step === "progress";
  if (needsMode && params.mode !== "ble" && params.mode !== "ap") return "mode";
  return step;
}
