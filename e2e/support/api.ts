import type { Page } from "playwright-core";
import { codeFromOutbox } from "./outbox.ts";

/** What one `/api` call answered: the HTTP status and the envelope's `result` / `error` (spec §7 success shape). */
export interface ApiAnswer<T> {
  status: number;
  result: T;
  error: { code: string | null; message: string } | null;
}

/**
 * Calls the server's `/api` over HTTP as a phone would (bearer token, Accept-Language) and unwraps the ABP envelope.
 * @param path path with its query, e.g. "/api/push-service/app/message/get-user-message-list?skipCount=0".
 * @param opts method (default GET), bearer token, JSON body, Accept-Language (default "en").
 */
export async function apiCall<T = unknown>(
  baseUrl: string,
  path: string,
  opts: { method?: string; token?: string | null; body?: unknown; lang?: string } = {},
): Promise<ApiAnswer<T>> {
  const headers: Record<string, string> = { "accept-language": opts.lang ?? "en" };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${baseUrl}${path}`, {
    method: opts.method ?? "GET",
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  const json = text ? (JSON.parse(text) as { result?: T; error?: ApiAnswer<T>["error"] }) : {};
  return { status: res.status, result: json.result as T, error: json.error ?? null };
}

/**
 * Registers an owner by e-mail through the real flow (code from the development outbox), in `lang` (the server
 * stores it as the user's language, so messages to the user are written in it).
 * @throws when the registration is refused.
 */
export async function registerByEmail(baseUrl: string, email: string, password: string, lang = "en"): Promise<void> {
  await fetch(`${baseUrl}/api/basic-data/app/account/send_email_password_code?email=${encodeURIComponent(email)}`, {
    headers: { "accept-language": lang },
  });
  const code = await codeFromOutbox(baseUrl, email);
  const params = new URLSearchParams({ bindType: "1", account: email, password, code, serviceRegion: "2" });
  const res = await fetch(`${baseUrl}/api/basic-data/app/account/register?${params}`, {
    method: "POST",
    headers: { "accept-language": lang },
  });
  if (res.status !== 200) throw new Error(`register ${email}: HTTP ${res.status} ${await res.text()}`);
}

/**
 * An access token by the OAuth password grant (POST /connect/token).
 * @throws when the grant is refused.
 */
export async function accessToken(baseUrl: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${baseUrl}/connect/token`, {
    method: "POST",
    body: new URLSearchParams({ grant_type: "password", username, password }),
  });
  if (res.status !== 200) throw new Error(`token for ${username}: HTTP ${res.status}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/**
 * Signs in through the Login screen and waits for Home or NoFamily (the app's own navigation after sign-in). Pass
 * `lands` when the account's households are known: a user without one sees Home until the families answer sends
 * the app on to NoFamily, and a navigation of the test's own must not race that redirect.
 */
export async function signInOnPage(
  page: Page,
  baseUrl: string,
  account: string,
  password: string,
  lands?: "home-screen" | "no-family-screen",
): Promise<void> {
  await page.goto(`${baseUrl}/#/login`);
  await page.getByTestId("login-account").fill(account);
  await page.getByTestId("login-password").fill(password);
  await page.getByTestId("login-submit").click();
  const landing = lands ? `[data-testid="${lands}"]` : '[data-testid="home-screen"], [data-testid="no-family-screen"]';
  await page.waitForSelector(landing, { timeout: 15_000 });
}

/**
 * Opens a route the way the app does, through /App with the navigation params as JSON (spec §2), and waits for the
 * target screen's test id so the next navigation does not race the app's own redirect.
 */
export async function openRoute(
  page: Page,
  baseUrl: string,
  target: string,
  params: unknown,
  screenTestId: string,
): Promise<void> {
  const q = new URLSearchParams({ target });
  if (params !== undefined && params !== null) q.set("params", JSON.stringify(params));
  await page.goto(`${baseUrl}/#/App?${q}`);
  try {
    await page.getByTestId(screenTestId).waitFor({ timeout: 15_000 });
  } catch (err) {
    // Say where the app went instead (URL and the screens on the page), which the bare timeout does not.
    const shown = await page
      .locator('[data-testid$="-screen"]')
      .evaluateAll((els) => els.map((e) => e.getAttribute("data-testid")));
    throw new Error(`${screenTestId} did not show after ${target}: at ${page.url()} showing [${shown.join(", ")}]`, {
      cause: err,
    });
  }
}
