import type { TFamily } from "@aquapilot/contract/wire";
import type { QueryClient } from "@tanstack/react-query";
import { queryKeys } from "../../../shared/api/query-keys.ts";
import { familyKeys } from "./keys.ts";

/**
 * Drops a family the caller no longer belongs to (left, deleted or removed; spec §6 "losing access to its devices
 * at once"): its devices, details and members leave the cache right away, the home tab's family list loses it, and
 * every family and device query is marked stale so the next screen loads fresh data. The home tab then falls back
 * to another family or to NoFamily.
 */
export async function forgetFamily(queryClient: QueryClient, familyId: string): Promise<void> {
  queryClient.removeQueries({ queryKey: queryKeys.familyDevices(familyId) });
  queryClient.removeQueries({ queryKey: familyKeys.detail(familyId) });
  queryClient.removeQueries({ queryKey: familyKeys.users(familyId) });
  queryClient.removeQueries({ queryKey: familyKeys.shareCode(familyId) });
  queryClient.setQueryData<TFamily[]>(queryKeys.families, (list) => list?.filter((f) => f.id !== familyId));
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: familyKeys.all }),
    queryClient.invalidateQueries({ queryKey: familyKeys.usersAll }),
    queryClient.invalidateQueries({ queryKey: queryKeys.familyDevicesAll }),
  ]);
}
