import type { DevSystem } from "@aquapilot/dev";
import { type SmtpSink, startSmtpSink } from "@aquapilot/server/test/smtp-sink.ts";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { doubleTap, launchPhone, type Phone, snap, storeLanguage } from "../support/browser.ts";
import { codeFromOutbox } from "../support/outbox.ts";
import { startTestSystem } from "../support/system.ts";

/**
 * Account flows in Chromium against the whole system: register by phone, find password, and change e-mail
 * with a real SMTP sink receiving the mail.
 */
describe("account flows in Chromium", () => {
  let system: DevSystem;
  let smtp: SmtpSink;
  let phone: Phone;

  beforeAll(async () => {
    smtp = await startSmtpSink();
    system = await startTestSystem({ SIM_DEVICES: "1", SMTP_URL: smtp.url });
    phone = await launchPhone("en-US");
  });
  afterAll(async () => {
    await phone?.close();
    await system?.close();
    await smtp?.close();
  });

  async function newPage(): Promise<Page> {
    const page = await phone.context.newPage();
    await storeLanguage(page, "en", { keep: true });
    return page;
  }

  async function signIn(page: Page, account: string, password: string) {
    await page.goto(`${system.url}/#/login`);
    await page.getByTestId("login-account").fill(account);
    await page.getByTestId("login-password").fill(password);
    await page.getByTestId("login-submit").click();
  }

  async function registerByEmail(email: string, password: string) {
    await fetch(`${system.url}/api/basic-data/app/account/send_email_password_code?email=${encodeURIComponent(email)}`);
    const mail = await waitForMail(email);
    const code = /\b(\d{6})\b/.exec(mail)?.[1];
    const params = new URLSearchParams({ bindType: "1", account: email, password, code: code!, serviceRegion: "2" });
    const res = await fetch(`${system.url}/api/basic-data/app/account/register?${params}`, { method: "POST" });
    expect(res.status).toBe(200);
  }

  /** The decoded text of the newest mail the SMTP sink received for `address`, once it has `count` of them. */
  async function waitForMail(address: string, count = 1): Promise<string> {
    await expect.poll(() => smtp.to(address).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(count);
    const mail = smtp.to(address).at(-1)!;
    return `${mail.subject}\n${mail.text}`;
  }

  it("the user agreement and privacy policy on Login and Register open their articles; back keeps the form", async () => {
    const page = await newPage();
    await page.goto(`${system.url}/#/login`);
    await page.getByTestId("login-privacy-link").click();
    await page.getByTestId("article").waitFor({ timeout: 10_000 });
    expect(await page.getByTestId("article").getAttribute("data-article-id")).toBe("privacy-policy");
    await page.goBack();
    await page.getByTestId("login-agreement").click();
    await page.getByTestId("article").waitFor({ timeout: 10_000 });
    expect(await page.getByTestId("article").getAttribute("data-article-id")).toBe("user-agreement");
    await page.goBack();
    await page.getByTestId("login-register").click();
    await page.getByTestId("register-password").waitFor();
    await page.getByTestId("register-password").fill("typed-before-reading");
    // Tapping a link inside the acceptance sentence opens the article without accepting.
    await page.getByTestId("register-agreement").click();
    await page.getByTestId("article").waitFor({ timeout: 10_000 });
    expect(await page.getByTestId("article").getAttribute("data-article-id")).toBe("user-agreement");
    await page.goBack();
    await page.getByTestId("register-privacy").waitFor();
    expect(await page.getByTestId("register-privacy").isChecked()).toBe(false);
    expect(await page.getByTestId("register-password").inputValue()).toBe("typed-before-reading");
    await page.locator(".agree__text").click({ position: { x: 4, y: 4 } });
    expect(await page.getByTestId("register-privacy").isChecked()).toBe(true);
    await page.close();
  });

  it("Login and Register show the legal links in all five languages", async () => {
    // English last: the context's stored language carries over to the next tests' pages.
    for (const lang of ["zh-Hans", "ru", "es", "fr", "en"]) {
      const page = await phone.context.newPage();
      await storeLanguage(page, lang);
      await page.goto(`${system.url}/#/login`);
      await page.getByTestId("login-privacy-link").waitFor();
      expect(await page.getByTestId("login-legal").textContent()).not.toContain("<");
      await snap(page, `login-${lang}`);
      await page.getByTestId("login-register").click();
      await page.getByTestId("register-agreement").waitFor();
      await page.waitForTimeout(400); // pacing: the page's slide-in ends before the picture
      await snap(page, `register-${lang}`);
      await page.close();
    }
  });

  it("registers by phone with the SMS code and signs in with the phone number", async () => {
    const page = await newPage();
    const number = `138${String(Date.now()).slice(-8)}`;
    await page.goto(`${system.url}/#/Register`);
    await page.getByTestId("register-screen").waitFor();
    await page.getByTestId("register-tab-phone").click();
    await page.getByTestId("register-account-country").click();
    await page.getByTestId("country-select-screen").waitFor();
    await page.getByTestId("country-search").locator("input").fill("China");
    await page.getByTestId("country-CN").click();
    await page.getByTestId("register-screen").waitFor();
    await expect.poll(() => page.getByTestId("register-account-country").textContent()).toContain("86");
    await page.getByTestId("register-account").fill(number);
    await page.getByTestId("register-password").fill("phone123");
    await page.getByTestId("register-confirm-password").fill("phone123");
    await page.getByTestId("register-send-code").click();
    const code = await codeFromOutbox(system.url, `+86${number}`);
    await page.getByTestId("register-code").fill(code);
    await page.getByTestId("register-privacy").click();
    // Every toast text from here on (a toast lasts 2 s; the recorder sees each one).
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { __toasts: string[] }).__toasts = seen;
      new MutationObserver(() => {
        for (const el of document.querySelectorAll(".adm-toast-main")) {
          const text = el.textContent ?? "";
          if (text && seen.at(-1) !== text) seen.push(text);
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    // A double tap (every submit happens once): one account, no "verification code has expired" from a second one.
    await doubleTap(page, "register-submit");
    await Promise.race([
      page.getByTestId("no-family-screen").waitFor({ timeout: 15_000 }),
      page.getByTestId("login-screen").waitFor({ timeout: 15_000 }),
    ]);
    const toasts = await page.evaluate(() => (window as unknown as { __toasts: string[] }).__toasts);
    expect(toasts.join(" | ")).not.toMatch(/expired|not requested/i);
    expect(toasts.join(" | ")).toMatch(/success/i);
    await signIn(page, number, "phone123");
    await page.getByTestId("no-family-screen").waitFor({ timeout: 15_000 });
    await page.close();
  });

  it("finds a lost password by e-mail and signs in with the new one", async () => {
    const email = `lost-${Date.now()}@example.com`;
    await registerByEmail(email, "oldpass1");
    const page = await newPage();
    await page.goto(`${system.url}/#/login`);
    await page.getByTestId("login-forgot").click();
    await page.getByTestId("find-password-screen").waitFor();
    await page.getByTestId("find-password-account").fill(email);
    await page.getByTestId("find-password-send-code").click();
    const mail = await waitForMail(email, 2);
    const code = /\b(\d{6})\b/.exec(mail)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    await page.getByTestId("find-password-code").fill(code!);
    await page.getByTestId("find-password-password").fill("newpass1");
    await page.getByTestId("find-password-confirm").fill("newpass1");
    await page.getByTestId("find-password-submit").click();
    await page.getByTestId("login-screen").waitFor({ timeout: 15_000 });
    const oldGrant = await fetch(`${system.url}/connect/token`, {
      method: "POST",
      body: new URLSearchParams({ grant_type: "password", username: email, password: "oldpass1" }),
    });
    expect(oldGrant.status).toBe(400);
    await signIn(page, email, "newpass1");
    await page.getByTestId("no-family-screen").waitFor({ timeout: 15_000 });
    await page.close();
  });

  it("NoFamily offers the language (stored on the server too) and signing out, in every language", async () => {
    const email = `nofamily-${Date.now()}@example.com`;
    await registerByEmail(email, "nofam12");
    const page = await newPage();
    await signIn(page, email, "nofam12");
    await page.getByTestId("no-family-screen").waitFor({ timeout: 15_000 });
    for (const lang of ["fr", "ru", "es", "zh-Hans", "en"] as const) {
      await page.getByTestId("language-switch").click();
      await page
        .locator(".adm-action-sheet-button-item")
        .nth(["zh-Hans", "en", "es", "ru", "fr"].indexOf(lang))
        .click();
      await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(lang);
      await expect
        .poll(
          async () =>
            (await system.db.selectFrom("users").select("language_type").where("email", "=", email).executeTakeFirst())
              ?.language_type,
        )
        .toBe(lang);
      await page.waitForTimeout(300); // pacing: the language's re-render paints before the picture
      await snap(page, `no-family-${lang}`);
    }
    await page.getByTestId("no-family-logout").click();
    await page.locator(".adm-dialog-footer button").last().click();
    await page.getByTestId("login-screen").waitFor({ timeout: 15_000 });
    await page.close();
  });

  it("changes the e-mail: password first, then a code that the SMTP sink receives at the new address", async () => {
    const email = `old-${Date.now()}@example.com`;
    const next = `new-${Date.now()}@example.com`;
    await registerByEmail(email, "change12");
    const page = await newPage();
    await signIn(page, email, "change12");
    await page.getByTestId("no-family-screen").waitFor({ timeout: 15_000 });
    await page.goto(`${system.url}/#/UpdatePhoneEmail`);
    await page.getByTestId("update-phone-email-screen").waitFor();
    await page.getByTestId("identity-password").fill("change12");
    await page.getByTestId("identity-verify").click();
    await page.getByTestId("identity-step-new").waitFor();
    await page.getByTestId("identity-tab-email").click();
    await page.getByTestId("identity-account").fill(next);
    await page.getByTestId("identity-send-code").click();
    const mail = await waitForMail(next);
    expect(smtp.to(next).at(-1)!.subject).not.toBe("");
    const code = /\b(\d{6})\b/.exec(mail)?.[1];
    await page.getByTestId("identity-code").fill(code!);
    await page.getByTestId("identity-submit").click();
    await page.getByTestId("identity-done").waitFor({ timeout: 15_000 });
    const grant = await fetch(`${system.url}/connect/token`, {
      method: "POST",
      body: new URLSearchParams({ grant_type: "password", username: next, password: "change12" }),
    });
    expect(grant.status).toBe(200);
    const old = await fetch(`${system.url}/connect/token`, {
      method: "POST",
      body: new URLSearchParams({ grant_type: "password", username: email, password: "change12" }),
    });
    expect(old.status).toBe(400);
    await page.close();
  });
});
