import { endpoints, type QueryOf } from "@aquapilot/contract/wire";
import { useMutation } from "@tanstack/react-query";
import { api } from "../../../shared/api/client.ts";

/** Query of `POST …/account/reset_password` (spec §7): account, code, password, confirmPassword, bindType, countryCode. */
export type ResetPasswordInput = QueryOf<typeof endpoints.resetPassword>;

/**
 * Sets a new password with the reset code (spec §5 Find password); the server ends every session of the account.
 * Errors: ApiError (wrong or expired code, passwords that do not match).
 */
export function resetPassword(input: ResetPasswordInput) {
  return api(endpoints.resetPassword, { query: input, loading: true });
}

/** Mutation hook of {@link resetPassword}; errors are shown by the screen (meta.silent). */
export function useResetPassword() {
  return useMutation({ mutationKey: ["account", "reset_password"], mutationFn: resetPassword, meta: { silent: true } });
}
