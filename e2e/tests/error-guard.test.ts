import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchPhone, type Phone, settled } from "../support/browser.ts";

/** A page of its own (no system needed) whose inline script runs `body` when it loads. */
function pageWith(body: string): string {
  return `data:text/html,${encodeURIComponent(`<!doctype html><title>guard</title><script>${body}</script>`)}`;
}

/**
 * The browser tests' error guard (support/browser.ts): every page of a phone, including one opened after the phone
 * started, is watched; an uncaught exception and a console error are reported with the page's URL and text, an error
 * the test declared with its reason is not, and a declaration made inside a test ends with that test. The checks read
 * the guard's list themselves (`unexpectedErrors`), so the file's own after-test check finds nothing left.
 */
describe("the browser tests' error guard", () => {
  let phone: Phone;

  beforeAll(async () => {
    phone = await launchPhone("en-US");
  });
  afterAll(async () => {
    await phone?.close();
  });

  it("reports an uncaught exception and a console error of a new page, with the page's URL", async () => {
    const page = await phone.context.newPage();
    const url = pageWith(
      `console.error("guard probe: logged"); setTimeout(() => { throw new Error("guard probe: thrown"); });`,
    );
    const thrown = page.waitForEvent("pageerror");
    await page.goto(url);
    await thrown;
    const seen = phone.unexpectedErrors();
    expect(seen.map((f) => f.kind).sort()).toEqual(["console", "pageerror"]);
    expect(seen.find((f) => f.kind === "console")?.text).toMatch(/^guard probe: logged/);
    expect(seen.find((f) => f.kind === "pageerror")?.text).toMatch(/guard probe: thrown/);
    for (const f of seen) expect(f.page).toBe(url);
    // read once: the list is empty until the next error
    expect(phone.unexpectedErrors()).toEqual([]);
    await page.close();
  });

  it("reports a request that failed, but not one the page cancelled", async () => {
    const page = await phone.context.newPage();
    await page.route("**/refused.json", (route) => route.abort("connectionrefused"));
    await page.route("**/slow.json", () => undefined);
    await page.goto("data:text/html,<title>requests</title>");
    const failed = page.waitForEvent("requestfailed", (r) => r.url().endsWith("/refused.json"));
    const logged = page.waitForEvent("console", (m) => m.text().includes("ERR_CONNECTION_REFUSED"));
    const cancelled = page.waitForEvent("requestfailed", (r) => r.url().endsWith("/slow.json"));
    await page.evaluate(() => {
      const stop = new AbortController();
      void fetch("http://127.0.0.1:9/slow.json", { signal: stop.signal }).catch(() => undefined);
      setTimeout(() => stop.abort(), 50);
      void fetch("http://127.0.0.1:9/refused.json").catch(() => undefined);
    });
    await Promise.all([failed, logged, cancelled]);
    // the failed request, and Chromium's console line about it; nothing of the cancelled one
    expect(
      phone
        .unexpectedErrors()
        .map((f) => `${f.kind}: ${f.text}`)
        .sort(),
    ).toEqual([
      "console: Failed to load resource: net::ERR_CONNECTION_REFUSED (at http://127.0.0.1:9/refused.json)",
      "requestfailed: request failed: GET http://127.0.0.1:9/refused.json net::ERR_CONNECTION_REFUSED",
    ]);
    await page.close();
  });

  it("lets through the errors a test declared, and only while that test runs", async () => {
    phone.expectErrors(/^guard probe: expected/, "this test logs it on purpose");
    const page = await phone.context.newPage();
    const logged = page.waitForEvent("console", (m) => m.text().includes("other"));
    await page.goto(pageWith(`console.error("guard probe: expected"); console.error("guard probe: other");`));
    await logged;
    expect(phone.unexpectedErrors().map((f) => f.text.replace(/ \(at .*\)$/, ""))).toEqual(["guard probe: other"]);
    await page.close();
  });

  it("reports again what the previous test declared", async () => {
    const page = await phone.context.newPage();
    const logged = page.waitForEvent("console");
    await page.goto(pageWith(`console.error("guard probe: expected");`));
    await logged;
    expect(phone.unexpectedErrors().map((f) => f.text.replace(/ \(at .*\)$/, ""))).toEqual(["guard probe: expected"]);
    await page.close();
  });

  it("refuses a declaration without its reason", () => {
    expect(() => phone.expectErrors(/x/, " ")).toThrow(/reason/);
  });

  it("settled waits for the requests the page had started, and names the one still open", async () => {
    const page = await phone.context.newPage();
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/held.json", async (route) => {
      await held;
      await route.fulfill({ json: { ok: true }, headers: { "access-control-allow-origin": "*" } });
    });
    await page.goto("data:text/html,<title>settled</title>");
    const asked = page.waitForRequest("**/held.json");
    await page.evaluate(() => {
      void fetch("http://127.0.0.1:9/held.json").then((r) => {
        document.title = r.ok ? "answered" : "refused";
      });
    });
    await asked;
    await expect(settled(page, { timeoutMs: 300 })).rejects.toThrow("still open: GET http://127.0.0.1:9/held.json");
    release();
    await settled(page);
    // what the answer caused has happened too
    expect(await page.title()).toBe("answered");
    await page.close();
  });
});
