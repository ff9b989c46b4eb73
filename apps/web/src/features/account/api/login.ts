import { useMutation } from "@tanstack/react-query";
import { signIn } from "../../../shared/auth/session.ts";

/** Input of the sign-in operation (spec §5 Login): account is an e-mail, phone number or user name. */
export interface LoginInput {
  account: string;
  password: string;
}

/**
 * Signs in: `POST /connect/token` (password grant), stores token and login info, loads grantedPolicies (spec §4/§5).
 * Errors: ApiError from the token call (code "invalid_grant" = wrong credentials) or from the permission load.
 */
export function login(input: LoginInput): Promise<void> {
  return signIn(input.account.trim(), input.password);
}

/** Mutation hook of {@link login}; errors are shown by the screen (meta.silent). */
export function useLogin() {
  return useMutation({ mutationKey: ["account", "login"], mutationFn: login, meta: { silent: true } });
}
