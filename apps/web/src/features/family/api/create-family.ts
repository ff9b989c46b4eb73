import type { BodyOf, TFamily } from "@aquapilot/contract/wire";
import { endpoints } from "@aquapilot/contract/wire";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../shared/api/client.ts";
import { familyKeys } from "./keys.ts";

/** What FamilyCreate sends (spec §7 family `POST /` B): name, address (required, spec §5), location and region. */
export type CreateFamilyInput = BodyOf<typeof endpoints.createFamily>;

/** Creates a family with the caller as its administrator: `POST /api/run-lucky/device/app/family/` (spec §6, §7). */
export function createFamily(input: CreateFamilyInput): Promise<TFamily> {
  return api(endpoints.createFamily, { body: input, loading: true });
}

/** {@link createFamily} as a mutation; refreshes every family query on success. */
export function useCreateFamily() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: createFamily,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: familyKeys.all }),
  });
}
