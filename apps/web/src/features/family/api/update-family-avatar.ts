import { endpoints, type TFamily } from "@aquapilot/contract/wire";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../shared/api/client.ts";
import { familyKeys } from "./keys.ts";

/**
 * Sets a family's avatar (administrator): `PUT …/family/update-family-avatar?familyId=&avatar=` (spec §7 Q).
 * `avatar` is an image path: one of the preset pictures (`/family-avatars/N.svg`, see family-avatar.tsx) or an
 * uploaded image. Resolves with the updated family.
 */
export function updateFamilyAvatar(input: { familyId: string; avatar: string }): Promise<TFamily> {
  return api(endpoints.updateFamilyAvatar, { query: input, loading: true });
}

/** {@link updateFamilyAvatar} as a mutation; refreshes every family query. */
export function useUpdateFamilyAvatar() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: updateFamilyAvatar,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: familyKeys.all }),
  });
}
