import { ApiError } from "../../shared/api/errors.ts";

/**
 * What the Login screen says when sign-in fails (spec §5 Login "Failure: Verification failed"): a throttled sign-in
 * (HTTP 429, the server's brake on password guessing) shows the server's own text, which tells how long to wait;
 * wrong credentials (OAuth invalid_grant, 400, 401) the spec's "Verification failed" (`login.verificationFailed`);
 * anything else `login.loginFailed`. Answers a text to show as is, or an i18n key.
 */
export function signInFailure(
  err: unknown,
): { text: string } | { key: "login.verificationFailed" | "login.loginFailed" } {
  if (err instanceof ApiError && err.status === 429 && err.message) return { text: err.message };
  const wrongCredentials =
    err instanceof ApiError && (err.code === "invalid_grant" || err.status === 400 || err.status === 401);
  return { key: wrongCredentials ? "login.verificationFailed" : "login.loginFailed" };
}
