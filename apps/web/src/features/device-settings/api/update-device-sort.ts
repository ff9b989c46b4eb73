import { endpoints, type TFamilyDevice } from "@aquapilot/contract/wire";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../shared/api/client.ts";
import { queryKeys } from "../../../shared/api/query-keys.ts";

/**
 * Saves a household's device order (DeviceSort, kept per household): `PUT
 * /api/run-lucky/device/app/family-device/update-device-sort` with body `{familyId, deviceIds}` — every device of
 * the family, in the new order (spec §7). Resolves the list in its new order. Errors: ApiError from the client.
 */
export async function updateDeviceSort(familyId: string, deviceIds: string[]): Promise<TFamilyDevice[]> {
  return api(endpoints.updateDeviceSort, { body: { familyId, deviceIds }, loading: true });
}

/** {@link updateDeviceSort} as a mutation; the saved order replaces the household's cached list. */
export function useUpdateDeviceSort() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (v: { familyId: string; deviceIds: string[] }) => updateDeviceSort(v.familyId, v.deviceIds),
    onSuccess: (list, v) => {
      client.setQueryData(
        queryKeys.familyDevices(v.familyId),
        [...list].sort((a, b) => a.sort - b.sort),
      );
      void client.invalidateQueries({ queryKey: queryKeys.familyDevicesAll });
    },
  });
}
