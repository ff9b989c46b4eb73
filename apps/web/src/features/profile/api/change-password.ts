import { type BodyOf, endpoints } from "@aquapilot/contract/wire";
import { useMutation } from "@tanstack/react-query";
import { api } from "../../../shared/api/client.ts";

/** Body of `POST …/profile/change_password` (spec §7): currentPassword, newPassword (≥ 6). */
export type ChangePasswordInput = BodyOf<typeof endpoints.changePassword>;

/**
 * Changes the password (spec §5); the server then ends every session of the user (tokens and hub connections), so
 * the app signs in again. Errors: ApiError (wrong current password).
 */
export function changePassword(input: ChangePasswordInput) {
  return api(endpoints.changePassword, { body: input, loading: true });
}

/** Mutation hook of {@link changePassword}; errors are shown by the screen (meta.silent). */
export function useChangePassword() {
  return useMutation({
    mutationKey: ["profile", "change_password"],
    mutationFn: changePassword,
    meta: { silent: true },
  });
}
