import { validateSettings } from "@aquapilot/device-sim";

/**
 * Validates a partial advanced-settings object before a set-config is sent (spec §5 "Please enter the correct
 * configuration"). LOCAL WRAPPER: the devices module will export `validateDeviceSettings(model, partial)` with the
 * per-model bounds (issue 4, another engineer); until it exists this checks the valve bounds shared with the
 * simulator (apps/device-sim/src/settings.ts, docs/device-protocol.md). Switch the body to it when it lands.
 * @returns the accepted values, or the name of the first wrong field.
 */
export function validateConfig(
  _model: string | null,
  partial: unknown,
): { ok: true; settings: Record<string, unknown> } | { ok: false; field: string } {
  if (typeof partial !== "object" || partial === null || Object.keys(partial).length === 0) {
    return { ok: false, field: "settings" };
  }
  const r = validateSettings(partial);
  if ("error" in r) return { ok: false, field: r.error.split(":")[1] ?? "settings" };
  return { ok: true, settings: r.settings as Record<string, unknown> };
}
