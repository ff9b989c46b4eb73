import { z } from "zod";
import { HARDNESS_UNITS, VOLUME_UNITS } from "../constants.ts";
import { SIGNED_IN } from "./access.ts";
import { endpoint, noQuery, ZText } from "./define.ts";

// The owner's display units, kept per user (extension of spec §7
// /api/RunLuckyIot/appuser_setting/app/setting, the per-user app settings).

/** The owner's display units. */
export const ZUnitPreferences = z.object({
  volumeUnit: z.enum(VOLUME_UNITS),
  hardnessUnit: z.enum(HARDNESS_UNITS),
});
export type TUnitPreferences = z.infer<typeof ZUnitPreferences>;

const UNITS_PATH = "/api/RunLuckyIot/appuser_setting/app/setting/units";

/** The unit preference endpoints (extension). Both act on the caller only. */
export const preferenceEndpoints = {
  getUnitPreferences: endpoint({
    method: "GET",
    access: SIGNED_IN,
    path: UNITS_PATH,
    query: noQuery,
    body: undefined,
    result: ZUnitPreferences,
    summary: "The caller's display units (volume L or gal, hardness mgL, dH, fH or gpg); defaults until chosen",
  }),
  setUnitPreferences: endpoint({
    method: "POST",
    access: SIGNED_IN,
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
