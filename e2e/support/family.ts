import { endpoints } from "@aquapilot/contract";
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { accessToken, apiCall } from "./api.ts";

/**
 * Joins `member` (an account already registered) to household `familyId` the way the app does: its administrator
 * (`adminToken`) asks for a share code, the member's phone submits it. Answers the member's access token.
 * @throws (an assertion) when the server refuses the code.
 */
export async function joinFamily(
  baseUrl: string,
  familyId: string,
  adminToken: string,
  member: { email: string; password: string },
): Promise<string> {
  const share = await apiCall<{ code: string }>(baseUrl, `${endpoints.getShareCode.path}?familyId=${familyId}`, {
    token: adminToken,
  });
  const memberToken = await accessToken(baseUrl, member.email, member.password);
  const joined = await apiCall(
    baseUrl,
    `${endpoints.analysisCode.path}?code=${encodeURIComponent(share.result.code)}`,
    { method: "POST", token: memberToken },
  );
  expect(joined.status).toBe(200);
  return memberToken;
}

/**
 * Marks the page so {@link expectStayed} can tell it was neither reloaded nor navigated away (a screen that followed
 * a change by itself). Answers the page's URL now.
 */
export async function markPage(page: Page): Promise<string> {
  await page.evaluate(() => {
    (window as unknown as { __stayed: boolean }).__stayed = true;
  });
  return page.url();
}

/** Asserts the page marked by {@link markPage} is still at `url` and was not reloaded. */
export async function expectStayed(page: Page, url: string): Promise<void> {
  expect(page.url()).toBe(url);
  expect(await page.evaluate(() => (window as unknown as { __stayed?: boolean }).__stayed)).toBe(true);
}
