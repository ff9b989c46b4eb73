import { endpoints, type TFamilyDevice } from "@aquapilot/contract/wire";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "./client.ts";
import { queryKeys } from "./query-keys.ts";

/**
 * What binds a device: the pairing code "MAC:SECRET" printed on the device or the single-use "MAC:TOKEN"
 * the module hands over after network setup (docs/device-protocol.md §13.4), as `code`, or `mac` and
 * `secret` apart.
 */
export type DevicePairing = { code: string } | { mac: string; secret: string };

/**
 * Binds a device to a household (administrator only; spec §6, §7 device `POST /api/run-lucky/device/app/device`)
 * with body `{familyId, code}` or `{familyId, mac, secret}`. Resolves the device's list entry, with
 * `alreadyInFamily: true` when it was in this household already (nothing changed).
 * `options.loading` (default true) counts the call in the loading indicator; network setup shows its own progress.
 * Errors: ApiError (invalid or expired code, device bound elsewhere, not the administrator, rate limited).
 */
export async function bindDevice(
  familyId: string,
  pairing: DevicePairing,
  options: { loading?: boolean } = {},
): Promise<TFamilyDevice & { alreadyInFamily?: boolean }> {
  return api(endpoints.bindDevice, { body: { familyId, ...pairing }, loading: options.loading ?? true });
}

/** {@link bindDevice} as a mutation that refreshes the household lists (Home shows the new device at once). */
export function useBindDevice() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (v: { familyId: string } & DevicePairing) => {
      const { familyId, ...pairing } = v;
      return bindDevice(familyId, pairing as DevicePairing);
    },
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.familyDevicesAll }),
        client.invalidateQueries({ queryKey: queryKeys.families }),
      ]),
  });
}
