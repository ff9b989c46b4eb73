import { AppError } from "../../http/errors.ts";
import { validateDeviceSettings } from "../device-model/index.ts";

/**
 * Validates a partial advanced-settings object before a set-config is sent (spec §5 "Please enter the correct
 * configuration"): a thin wrapper over the device-model module's `validateDeviceSettings(model, partial)` (per-model
 * bounds from the valve manuals) that answers instead of throwing, so this module raises its own §5 error.
 * @returns the accepted, normalised values, or the name of the first wrong field.
 */
export function validateConfig(
  model: string | null,
  partial: unknown,
): { ok: true; settings: Record<string, unknown> } | { ok: false; field: string } {
  if (typeof partial !== "object" || partial === null || Array.isArray(partial))
    return { ok: false, field: "settings" };
  try {
    return { ok: true, settings: validateDeviceSettings(model, partial as Record<string, unknown>) };
  } catch (err) {
    if (err instanceof AppError) return { ok: false, field: err.validationErrors?.[0]?.members?.[0] ?? "settings" };
    throw err;
  }
}
