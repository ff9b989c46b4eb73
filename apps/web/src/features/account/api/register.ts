import { endpoints, type QueryOf } from "@aquapilot/contract/wire";
import { useMutation } from "@tanstack/react-query";
import { api } from "../../../shared/api/client.ts";

/** Query of `POST /api/basic-data/app/account/register` (spec §7): bindType 1 e-mail / 2 phone, region 1/2. */
export type RegisterInput = QueryOf<typeof endpoints.register>;

/** Registers an account (spec §5 Register). Errors: ApiError (e.g. code "InvalidCode", "Conflict"). */
export function register(input: RegisterInput) {
  return api(endpoints.register, { query: input, loading: true });
}

/** Mutation hook of {@link register}; errors are shown by the screen (meta.silent). */
export function useRegister() {
  return useMutation({ mutationKey: ["account", "register"], mutationFn: register, meta: { silent: true } });
}
