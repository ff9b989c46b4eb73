import { type BodyOf, endpoints } from "@aquapilot/contract/wire";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../shared/api/client.ts";
import { queryKeys } from "../../../shared/api/query-keys.ts";

/** Body of `POST /api/basic-data/app/profile/` (spec §7): userName, name, avatar (relative path); all optional. */
export type UpdateProfileInput = BodyOf<typeof endpoints.updateProfile>;

/**
 * Updates the caller's profile and resolves the new profile. Errors: ApiError (409 when the user name is taken,
 * 400 on validation).
 */
export function updateProfile(input: UpdateProfileInput) {
  return api(endpoints.updateProfile, { body: input, loading: true });
}

/** Mutation hook of {@link updateProfile}: writes the answer into the profile query; errors shown by the screen. */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ["profile", "update"],
    mutationFn: updateProfile,
    meta: { silent: true },
    onSuccess: (profile) => queryClient.setQueryData(queryKeys.profile, profile),
  });
}
