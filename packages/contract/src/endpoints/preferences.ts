import { z } from "zod";
import { endpoint, noQuery, ZText } from "./define.js";

// The owner's display units, kept per user (issue 10 point 9; extension of spec §7
// /api/RunLuckyIot/appuser_setting/app/setting, the per-user app settings).

/**
 * Volume units the owner can choose: litres or US gallons (1 US gal = 3.785411784 L). Flows follow: L/min or gal/min.
 * Devices always receive litres (docs/device-protocol.md §9).
 */
export const VOLUME_UNITS = ["L", "gal"] as const;
export type VolumeUnit = (typeof VOLUME_UNITS)[number];

/**
 * Water hardness units the owner can choose: mg/L as CaCO₃ (the device's own unit), German degrees °dH
 * (1 °dH = 17.848 mg/L), French degrees °fH (1 °fH = 10 mg/L) or grains per US gallon (1 gpg = 17.118 mg/L).
 */
export const HARDNESS_UNITS = ["mgL", "dH", "fH", "gpg"] as const;
export type HardnessUnit = (typeof HARDNESS_UNITS)[number];

/** The owner's display units. */
export const ZUnitPreferences = z.object({
  volumeUnit: z.enum(VOLUME_UNITS),
  hardnessUnit: z.enum(HARDNESS_UNITS),
});
export type TUnitPreferences = z.infer<typeof ZUnitPreferences>;

/** The units of a user who never chose: the device's own (litres, mg/L CaCO₃). */
export const DEFAULT_UNIT_PREFERENCES: TUnitPreferences = { volumeUnit: "L", hardnessUnit: "mgL" };

const UNITS_PATH = "/api/RunLuckyIot/appuser_setting/app/setting/units";

/** The unit preference endpoints (extension, issue 10). Both act on the caller only. */
export const preferenceEndpoints = {
  getUnitPreferences: endpoint({
    method: "GET",
    path: UNITS_PATH,
    query: noQuery,
    body: undefined,
    result: ZUnitPreferences,
    summary: "The caller's display units (volume L or gal, hardness mgL, dH, fH or gpg); defaults until chosen",
  }),
  setUnitPreferences: endpoint({
    method: "POST",
    path: UNITS_PATH,
    query: noQuery,
    // Checked by the server against VOLUME_UNITS / HARDNESS_UNITS, so a wrong unit is answered with the choices in
    // the caller's language (validationErrors) rather than a generic "not valid". Absent fields stay as they are.
    body: z.object({
      volumeUnit: ZText(16).optional(),
      hardnessUnit: ZText(16).optional(),
    }),
    result: ZUnitPreferences,
    summary: "Choose the caller's display units; answers all of them (400 with the choices for an unknown unit)",
  }),
} as const;
