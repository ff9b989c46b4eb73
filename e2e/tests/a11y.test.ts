import fs from "node:fs";
import path from "node:path";
import { LANGUAGES } from "@aquapilot/contract";
import type { DevSystem } from "@aquapilot/dev";
import axeCore from "axe-core";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRoute } from "../support/api.ts";
import { launchPhone, newPageIn, signInAsDemo } from "../support/browser.ts";
import { goToRoute, ROUTES } from "../support/routes.ts";
import { demoRouteIds, demoSoftener, startTestSystem } from "../support/system.ts";
import { updatingReferences } from "../support/visual.ts";

/**
 * axe-core (its WCAG 2.0–2.2 A and AA rules and best practices) on the six main screens at 375×812 in each of the
 * five languages: Login signed out; Home, Device, DeviceSetting, My and MessageList as the demo owner. Every screen
 * passes every rule: pinch zoom (WCAG 1.4.4), text contrast of at least 4.5:1 (1.4.3), buttons and links with a name
 * (4.1.2: the top bar's back arrow, Device's "…"), one main landmark and one level-one heading (1.3.1, 2.4.6), content
 * inside landmarks. The same on every route of spec §2 in each language (as an owner who asked for reduced motion:
 * nothing may be moving), and with the sheets, pickers and dialogs of Home, Device (its command confirmations, the
 * forced switch's as a screen reader reaches it), DeviceSetting, My, FamilyDetails, Setting and DeviceInfo open (named,
 * closed by Escape). The counts per
 * screen (critical / serious / moderate affected nodes) are printed. Login, Home, Device and DeviceSetting's
 * accessibility trees in English and Chinese are compared with their reviewed snapshots (`e2e/aria-snapshots/`).
 */

interface AxeNode {
  target: string[];
  html: string;
  /** color-contrast: "foreground on background ratio". */
  colors?: string;
}
interface AxeViolation {
  id: string;
  impact: "minor" | "moderate" | "serious" | "critical" | null;
  nodes: AxeNode[];
}

/** Runs axe-core on `page` with the WCAG 2.x A/AA tags; answers its violations. */
async function axe(page: Page): Promise<AxeViolation[]> {
  // Through the debugging protocol, not a script element: the app's content policy refuses inline scripts.
  await page.evaluate(axeCore.source);
  return page.evaluate(async () => {
    const w = window as unknown as {
      axe: { run: (ctx: Document, opts: unknown) => Promise<{ violations: AxeViolation[] }> };
    };
    const result = await w.axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"] },
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.map((n) => {
        const data = (n as unknown as { any?: Array<{ data?: Record<string, unknown> }> }).any?.[0]?.data;
        const colors = data?.fgColor
          ? `${data.fgColor} on ${data.bgColor} ${data.contrastRatio} (${n.target.join(" ")})`
          : undefined;
        return { target: n.target, html: n.html.slice(0, 160), colors };
      }),
    }));
  });
}

/** Affected nodes per impact, "critical/serious/moderate". */
function counts(violations: AxeViolation[]): string {
  const of = (impact: string) =>
    violations.filter((v) => v.impact === impact).reduce((sum, v) => sum + v.nodes.length, 0);
  return `${of("critical")}/${of("serious")}/${of("moderate")}`;
}

/** Where the accessibility-tree snapshots are committed, one YAML file per screen and language. */
const ARIA_DIR = path.join(import.meta.dirname, "..", "aria-snapshots");

/**
 * The accessibility tree Chromium exposes for the page (Playwright's ARIA snapshot: roles, names, states, text as a
 * screen reader meets them), with what changes from run to run written as placeholders: digits as 0 (figures,
 * times, dates, counts; heading levels apart), the half of the day as AM (上午) and English month names as "Mon".
 */
async function ariaTree(page: Page): Promise<string> {
  const tree = await page.locator("body").ariaSnapshot();
  const stable = tree
    .replace(/(?<!level=)\d+/g, "0")
    .replace(/\b(?:AM|PM)\b/g, "AM")
    .replace(/上午|下午/g, "上午")
    .replace(/\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\b/g, "Mon");
  return `${stable.trimEnd()}\n`;
}

/**
 * Writes "…" for the text of the elements `selector` finds: values that change with the clock or the live figures
 * (the visual tests mask the same ones), so the snapshot holds what a screen reader meets, not when.
 */
async function blankVolatile(page: Page, selector: string): Promise<void> {
  await page.evaluate((sel) => {
    for (const el of document.querySelectorAll(sel)) el.textContent = "…";
  }, selector);
}

/**
 * Waits until the screen has drawn all its rows: screens drawn part by part (first-paint/staged.tsx) add rows over a
 * few tasks; the count of elements with a test id holds still for a second.
 */
async function settledRows(page: Page): Promise<void> {
  const count = () => page.locator("[data-testid]").count();
  await expect
    .poll(async () => {
      const before = await count();
      await page.waitForTimeout(1000);
      return (await count()) === before;
    })
    .toBe(true);
}

/**
 * Compares the page's accessibility tree with its committed snapshot `aria-snapshots/<name>.yml`, or writes it when
 * references are being updated (`UPDATE_VISUAL_REFERENCES=1`, locally: the snapshots are read and reviewed like the
 * screenshots).
 */
async function expectAriaTree(page: Page, name: string): Promise<void> {
  const file = path.join(ARIA_DIR, `${name}.yml`);
  const tree = await ariaTree(page);
  if (updatingReferences()) {
    fs.mkdirSync(ARIA_DIR, { recursive: true });
    fs.writeFileSync(file, tree);
    return;
  }
  expect(fs.existsSync(file), `${file} is committed (write it with UPDATE_VISUAL_REFERENCES=1)`).toBe(true);
  expect(tree, name).toBe(fs.readFileSync(file, "utf8"));
}

describe("accessibility of the main screens (axe-core) in all five languages", () => {
  let system: DevSystem;
  let phone: { context: BrowserContext; close: () => Promise<void> };
  let ids: { familyId: string; deviceId: string };
  const table: string[] = [];

  beforeAll(async () => {
    // One softener, of the model with every advanced setting (the screens' snapshots hold its rows).
    system = await startTestSystem({ SIM_DEVICES: "1" }, { models: ["AQ-S35"] });
    phone = await launchPhone("en-US");
    const { familyId, deviceId } = await demoSoftener(system);
    ids = { familyId, deviceId };
  });
  afterAll(async () => {
    console.info(`axe-core, affected nodes critical/serious/moderate:\n${table.join("\n")}`);
    await phone?.close();
    await system?.close();
  });

  /** Runs axe-core on the screen shown once it is at rest, records its counts and answers its violations. */
  async function inspect(page: Page, screen: string, lang: string): Promise<AxeViolation[]> {
    // Colours are judged at rest: the route's slide-in fades the page in, a selector's colour changes in a transition.
    await page.waitForFunction(
      () =>
        document
          .getAnimations()
          .every(
            (a) => a.playState !== "running" || a.effect?.getComputedTiming().iterations === Number.POSITIVE_INFINITY,
          ),
      undefined,
      { timeout: 10_000 },
    );
    const violations = await axe(page);
    const colors = [...new Set(violations.flatMap((v) => v.nodes.map((n) => n.colors)).filter((c) => c !== undefined))];
    table.push(
      `${screen} ${lang}: ${counts(violations)} [${violations.map((v) => `${v.id}×${v.nodes.length}`).join(", ")}]` +
        (colors.length > 0 ? ` contrast: ${colors.join("; ")}` : ""),
    );
    return violations;
  }

  /** Runs axe-core on the screen shown ({@link inspect}) and expects no violation. */
  async function check(page: Page, screen: string, lang: string): Promise<void> {
    const violations = await inspect(page, screen, lang);
    expect(
      violations.map((v) => ({ rule: v.id, impact: v.impact, nodes: v.nodes })),
      `${screen} in ${lang}`,
    ).toEqual([]);
  }

  it.each(LANGUAGES)("Login in %s", async (lang) => {
    const page = await newPageIn(phone.context, lang);
    await page.goto(`${system.url}/#/login`);
    await page.getByTestId("login-screen").waitFor();
    await check(page, "Login", lang);
    if (lang === "en" || lang === "zh-Hans") await expectAriaTree(page, `login-${lang}`);
    await page.close();
  });

  describe("signed in as the demo owner", () => {
    beforeAll(async () => {
      const page = await phone.context.newPage();
      await signInAsDemo(page, system.url);
      await page.close();
    });

    it.each(LANGUAGES)("Home, Device, DeviceSetting, My and MessageList in %s", async (lang) => {
      const page = await newPageIn(phone.context, lang);
      await openRoute(page, system.url, "/index/home", null, "home-screen");
      await page.getByTestId("device-card").first().waitFor({ timeout: 15_000 });
      await check(page, "Home", lang);
      await openRoute(page, system.url, "/Device", ids, "device-screen");
      await page.getByTestId("device-station").waitFor({ timeout: 15_000 });
      await check(page, "Device", lang);
      await openRoute(page, system.url, "/DeviceSetting", ids, "device-setting-screen");
      await page.getByTestId("device-setting-input-resinVolume").waitFor({ timeout: 15_000 });
      await check(page, "DeviceSetting", lang);
      await openRoute(page, system.url, "/index/My", null, "my-screen");
      await check(page, "My", lang);
      await openRoute(page, system.url, "/MessageDetails", null, "message-centre-screen");
      await check(page, "MessageList", lang);
      await page.close();
    });

    it.each(["en", "zh-Hans"])(
      "the accessibility tree of Home, Device and DeviceSetting in %s is the reviewed one",
      async (lang) => {
        // DeviceSetting's rows follow the model, which the cloud knows once the softener has told it (every field
        // before); the app keeps the answer it first got, so wait for the model before the first screen asks.
        await expect
          .poll(async () => {
            const row = await system.db
              .selectFrom("devices")
              .select("model")
              .where("id", "=", ids.deviceId)
              .executeTakeFirst();
            return row?.model ?? null;
          })
          .not.toBeNull();
        const page = await newPageIn(phone.context, lang);
        const modelAnswer = page.waitForResponse((r) => r.url().includes("/get-device-model-setting"), {
          timeout: 60_000,
        });
        await page.emulateMedia({ reducedMotion: "reduce" });
        await openRoute(page, system.url, "/index/home", null, "home-screen");
        await page.getByTestId("device-card").first().waitFor({ timeout: 15_000 });
        await page.locator('[data-testid="realtime-state"][data-live="true"]').waitFor({ timeout: 15_000 });
        // The pull gesture's head (loaded once the first screen is in) is part of what a screen reader meets.
        await page.locator(".adm-pull-to-refresh-head").waitFor({ state: "attached", timeout: 15_000 });
        await blankVolatile(
          page,
          ".home__total-value, [data-testid=device-seen], .device-card__figure-value, .device-card__next-value",
        );
        await expectAriaTree(page, `home-${lang}`);
        await openRoute(page, system.url, "/Device", ids, "device-screen");
        await page.locator('[data-testid="device-channel"][data-live="true"]').waitFor({ timeout: 15_000 });
        await expect.poll(() => page.getByTestId("device-station").getAttribute("data-station")).toBe("0");
        await blankVolatile(
          page,
          "[data-testid=device-last-report], .device-fresh, [data-testid=device-water-left], [data-testid=device-flow]",
        );
        await expectAriaTree(page, `device-${lang}`);
        await openRoute(page, system.url, "/DeviceSetting", ids, "device-setting-screen");
        await page.getByTestId("device-setting-input-resinVolume").waitFor({ timeout: 15_000 });
        expect((await modelAnswer).status(), "the model's settings").toBe(200);
        await settledRows(page);
        // The clock row's times, and whether it says the clocks differ (a second either way of a report).
        await blankVolatile(page, "[data-testid=device-setting-device-time], [data-testid=device-setting-phone-time]");
        await page.evaluate(() => {
          for (const el of document.querySelectorAll("[data-testid=device-setting-clock-offset]")) el.remove();
        });
        await expectAriaTree(page, `device-setting-${lang}`);
        await page.close();
      },
    );

    it.each(LANGUAGES)("with sheets, pickers and dialogs open, in %s", async (lang) => {
      const page = await newPageIn(phone.context, lang);
      await page.emulateMedia({ reducedMotion: "reduce" });
      const overlay = page.locator('[role="dialog"][aria-modal="true"]:visible');
      /**
       * Opens an overlay by clicking `testId` (or by `open`), checks the page with it open, then closes it with Escape.
       */
      const withOverlay = async (name: string, testId: string, open?: () => Promise<void>) => {
        await (open ? open() : page.getByTestId(testId).first().click());
        await overlay.first().waitFor({ timeout: 15_000 });
        await check(page, name, lang);
        await page.keyboard.press("Escape");
        await expect.poll(() => overlay.count(), { message: `${name} closes on Escape` }).toBe(0);
      };
      await openRoute(page, system.url, "/index/home", null, "home-screen");
      await page.getByTestId("device-card").first().waitFor({ timeout: 15_000 });
      await withOverlay("Home's household sheet", "home-family");
      await openRoute(page, system.url, "/Device", ids, "device-screen");
      await withOverlay("Device's salt refill dialog", "device-salt-refill");
      await page.locator('[data-testid="device-channel"][data-live="true"]').waitFor({ timeout: 15_000 });
      await withOverlay("Device's vacation confirmation", "control-vacation-enter");
      await withOverlay("Device's forced regeneration confirmation", "control-forced-regeneration");
      await withOverlay("Device's time sync confirmation", "control-time-sync");
      await withOverlay("Device's firmware update confirmation", "control-ota");
      // A screen reader's activation (a click with no pointer behind it) of the forced switch, which it cannot hold.
      await withOverlay("Device's forced switch confirmation", "control-forced-switch", async () => {
        await page
          .getByTestId("control-forced-switch")
          .evaluate((el) => el.dispatchEvent(new MouseEvent("click", { bubbles: true, detail: 0 })));
      });
      await openRoute(page, system.url, "/DeviceSetting", ids, "device-setting-screen");
      await withOverlay("DeviceSetting's time picker", "device-setting-regeneratingTriggerTime");
      await withOverlay("DeviceSetting's work pattern picker", "device-setting-workPattern");
      await withOverlay("DeviceSetting's duration picker", "device-setting-backWashTime");
      await openRoute(page, system.url, "/index/My", null, "my-screen");
      await withOverlay("My's sign-out confirmation", "logout");
      await openRoute(page, system.url, "/index/home", null, "home-screen");
      await withOverlay("Home's push sheet", "home-push");
      await openRoute(page, system.url, "/FamilyDetails", { familyId: ids.familyId }, "family-details-screen");
      await withOverlay("FamilyDetails' household picture sheet", "family-details-avatar");
      await withOverlay("FamilyDetails' leave explanation", "family-leave");
      await withOverlay("FamilyDetails' delete confirmation", "family-delete");
      await openRoute(page, system.url, "/Setting", null, "setting-screen");
      await withOverlay("Setting's clear-cache confirmation", "setting-clear-cache");
      await withOverlay("Setting's push sheet", "setting-push");
      await openRoute(page, system.url, "/DeviceInfo", { deviceId: ids.deviceId }, "device-info-screen");
      await withOverlay("DeviceInfo's remove confirmation", "device-info-delete");
      await page.close();
    });

    it.each(LANGUAGES)(
      "every route of spec §2 in %s",
      async (lang) => {
        const routeIds = await demoRouteIds(system);
        const page = await newPageIn(phone.context, lang);
        // As an owner who asked the system for less motion: nothing slides or fades, so each screen is judged as it
        // lands (antd-mobile's toasts included), and the app is seen to honour the setting.
        await page.emulateMedia({ reducedMotion: "reduce" });
        await openRoute(page, system.url, "/index/home", null, "home-screen");
        const failures: string[] = [];
        for (const route of ROUTES) {
          if (route.shows) continue;
          await goToRoute(page, route, routeIds);
          const moving = await page.evaluate(() =>
            document
              .getAnimations()
              .filter((a) => a.playState === "running" && Number(a.effect?.getComputedTiming().duration ?? 0) > 1)
              .map((a) => (a as CSSAnimation).animationName ?? "transition"),
          );
          if (moving.length > 0) failures.push(`${route.name}: moving under reduced motion: ${moving.join(", ")}`);
          await page.waitForTimeout(300);
          for (const v of await inspect(page, route.name, lang)) {
            for (const n of v.nodes)
              failures.push(`${route.name}: ${v.id} (${v.impact}) ${n.target.join(" ")} ${n.html}`);
          }
        }
        expect(failures, `every route in ${lang}`).toEqual([]);
        await page.close();
      },
      300_000,
    );
  });
});
