import { endpoints, type TFamilyDevice } from "@aquapilot/contract/wire";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, asPage } from "../../../shared/api/client.ts";
import { queryKeys } from "../../../shared/api/query-keys.ts";

/**
 * A household's devices in sort order: `GET …/family-device/get-list-by-family-id?familyId=` (spec §7), under the
 * same query key as the home tab so both show one list.
 */
export function useHouseholdDevices(familyId: string | null | undefined) {
  return useQuery({
    queryKey: queryKeys.familyDevices(familyId ?? ""),
    queryFn: async ({ signal }) => {
      const result = await api(endpoints.getFamilyDevices, { query: { familyId: familyId ?? "" }, signal });
      return [...asPage<TFamilyDevice>(result).items].sort((a, b) => a.sort - b.sort);
    },
    enabled: Boolean(familyId),
  });
}

/**
 * Saves a household's device order (DeviceSort, kept per household): `PUT
 * /api/run-lucky/device/app/family-device/update-device-sort` with body `{familyId, deviceIds}` — every device of
 * the family, in the new order (spec §7). Resolves the list in its new order.
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
