import { DEMO_ACCOUNT } from "@aquapilot/dev";

/** The token answer of `POST /connect/token` (RFC 6749 §5.1), as the benchmarks use it. */
export interface DemoTokens {
  access_token: string;
  refresh_token: string;
  /** Seconds until the access token expires. */
  expires_in: number;
}

/**
 * Signs the demo owner in with the OAuth 2.0 password grant at `baseUrl` and returns the token answer. Throws when
 * the sign-in fails or the answer lacks a token.
 */
export async function signInDemo(baseUrl: string): Promise<DemoTokens> {
  const res = await fetch(`${baseUrl}/connect/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "password",
      username: DEMO_ACCOUNT.email,
      password: DEMO_ACCOUNT.password,
    }),
  });
  const body = (await res.json()) as Partial<DemoTokens> & { error?: string };
  if (!res.ok || !body.access_token || !body.refresh_token || typeof body.expires_in !== "number") {
    throw new Error(`demo sign-in failed: HTTP ${res.status} ${body.error ?? ""}`);
  }
  return body as DemoTokens;
}
