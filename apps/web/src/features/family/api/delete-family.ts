import { endpoints } from "@aquapilot/contract/wire";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../shared/api/client.ts";
import { forgetFamily } from "./forget-family.ts";

/** Deletes a family (administrator only, spec §6): `DELETE /api/run-lucky/device/app/family/{id}` (spec §7). */
export async function deleteFamily(id: string): Promise<void> {
  await api(endpoints.deleteFamily, { params: { id }, loading: true });
}

/** {@link deleteFamily} as a mutation; the family leaves the cache at once ({@link forgetFamily}). */
export function useDeleteFamily() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: deleteFamily,
    onSuccess: (_, id) => forgetFamily(queryClient, id),
  });
}
