import type { DevSystem } from "@aquapilot/dev";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchPhone, type Phone, settled, signInAsDemo, storeLanguage } from "../support/browser.ts";
import { startTestSystem } from "../support/system.ts";

/**
 * Back is one stack (spec §2 "Back closes the top dialog first, then lets the page handle back"): the
 * browser's back — what a phone's system back does in the installed app — closes the top confirm dialog, action
 * sheet, popup, picker or full-screen map and keeps the page and what was typed on it; a dialog never outlives its
 * page, and a confirmation of a page that is gone sends nothing.
 */

describe("back closes the top overlay first, in Chromium", () => {
  let system: DevSystem;
  let phone: Phone;
  let page: Page;
  let deviceId: string;
  let familyId: string;

  beforeAll(async () => {
    system = await startTestSystem({ SIM_DEVICES: "1" });
    phone = await launchPhone("en-US");
    await storeLanguage(phone.context, "en");
    page = await phone.context.newPage();
    await signInAsDemo(page, system.url);
    // A slow phone (E2E_CPU_SLOWDOWN=8 reproduces what a loaded CI machine does to the opening races below).
    const slowdown = Number(process.env.E2E_CPU_SLOWDOWN ?? 1);
    if (slowdown > 1) {
      const cdp = await phone.context.newCDPSession(page);
      await cdp.send("Emulation.setCPUThrottlingRate", { rate: slowdown });
    }
    const row = await system.db.selectFrom("devices").select(["id", "family_id"]).executeTakeFirstOrThrow();
    deviceId = row.id;
    familyId = row.family_id ?? "";
  });
  afterAll(async () => {
    await phone?.close();
    await system?.close();
  });

  /** The route the app shows (its `data-route`), once one is shown. */
  const route = () => page.locator("[data-route]").last().getAttribute("data-route");
  const dialogs = () => page.locator(".adm-dialog-footer:visible").count();
  /** Waits (up to 10 s: a dialog leaves with an animation) for `n` visible dialogs; on failure says where history is. */
  async function expectDialogs(n: number) {
    await expectCount(dialogs, n);
  }
  /**
   * Waits (up to 10 s) for `count()` to be `n`; on failure says where history is. A closed overlay may take a while to
   * leave the page: antd-mobile's popups slide out for about 0.6 s before they unmount (destroyOnClose).
   */
  async function expectCount(count: () => Promise<number>, n: number, message?: string) {
    try {
      await expect.poll(count, { timeout: 10_000, message }).toBe(n);
    } catch (err) {
      const where = await page.evaluate(() => {
        const nav = (window as unknown as { navigation?: { currentEntry?: { index: number }; entries(): unknown[] } })
          .navigation;
        return JSON.stringify({
          dialogs: document.querySelectorAll(".adm-dialog").length,
          popups: [...document.querySelectorAll(".adm-popup")].map((el) => (el as HTMLElement).style.cssText),
          state: history.state,
          hash: location.hash,
          index: nav?.currentEntry?.index,
          entries: nav?.entries().length,
        });
      });
      throw new Error(`${(err as Error).message}\nhistory: ${where}`);
    }
  }

  /**
   * The commands an owner's control sent: every device_commands row but "query", the report the Device screen asks
   * for itself on opening and after a hub reconnect (its call may still be on its way when the screen shows).
   */
  const controlCommands = () =>
    system.db.selectFrom("device_commands").select(["id", "name"]).where("name", "!=", "query").execute();

  async function open(target: string, params: object, testId: string) {
    await page.evaluate(
      ([t, p]) => {
        window.location.hash = `#/App?${new URLSearchParams({ target: t as string, params: JSON.stringify(p) })}`;
      },
      [target, params] as const,
    );
    await page.getByTestId(testId).waitFor({ timeout: 15_000 });
  }

  it("back closes the Device screen's confirmation and stays; back again leaves; nothing is sent", async () => {
    await open("/index/home", {}, "home-screen");
    await open("/Device", { deviceId, familyId }, "device-screen");
    const sentBefore = await controlCommands();

    await page.getByTestId("control-vacation-enter").click();
    await expectDialogs(1);
    await page.goBack();
    await expectDialogs(0);
    expect(await route()).toBe("Device");
    await page.getByTestId("device-screen").waitFor();

    // The question again, then back twice: the dialog first, then the page; Home shows no leftover dialog.
    await page.getByTestId("control-vacation-enter").click();
    await expectDialogs(1);
    await page.goBack();
    await expectDialogs(0);
    await page.goBack();
    await page.getByTestId("home-screen").waitFor();
    expect(await dialogs()).toBe(0);
    // Every call the page had made is answered (a command it sent would be stored by then).
    await settled(page);
    const sentAfter = await controlCommands();
    expect(sentAfter.length).toBe(sentBefore.length);
    expect(system.fleet.devices[0].valve.snapshot().vacation).toBe(false);
  });

  /**
   * Taps `testId` and presses back soon after, in each way a phone does: the browser's back `gapMs` later, for each
   * gap, then a native shell's hardware back (`window.AquaPilotBack`) on the next animation frame, before the
   * overlay's opening animation has moved. The overlay is still opening (its code may still be loading) when back
   * comes. Each round waits for the trigger to be on the page and ends still on `where`: a tap the app dropped would
   * let back leave the page instead.
   */
  async function tapThenBack(testId: string, visible: () => Promise<number>, where: string) {
    const backs = [
      ...[0, 15, 30, 60, 120].map((gapMs) => ({ how: "history", gapMs, label: `back ${gapMs} ms after` })),
      { how: "hardware", gapMs: 0, label: "hardware back a frame after" },
    ];
    for (const { how, gapMs, label } of backs) {
      await page.getByTestId(testId).waitFor({ timeout: 5_000 });
      await page.evaluate(
        ([id, kind, gap]) => {
          document.querySelector<HTMLElement>(`[data-testid="${id}"]`)?.click();
          const shell = window as unknown as { AquaPilotBack: () => boolean };
          if (kind === "hardware") requestAnimationFrame(() => shell.AquaPilotBack());
          else setTimeout(() => history.back(), gap as number);
        },
        [testId, how, gapMs] as const,
      );
      await expectCount(visible, 0, `${label} tapping ${testId}`);
      // An overlay whose code was still loading may show only now and then close (an early close waits until it
      // is in): once every file the page asked for is in, it must close, not stay open for good.
      await settled(page);
      await expectCount(visible, 0, `${label} tapping ${testId}, once the page's files are in`);
      expect(await route(), `${label} tapping ${testId}`).toBe(where);
    }
  }

  it("back pressed while a confirmation, an action sheet or a popup is still opening closes it all the same", async () => {
    await open("/Device", { deviceId, familyId }, "device-screen");
    await tapThenBack("control-vacation-enter", dialogs, "Device");
    // The salt dialogs load their code on the tap, not with the screen: a back meanwhile closes them all the same.
    await tapThenBack(
      "device-salt-refill",
      () => page.getByTestId("device-salt-refill-dialog").locator("visible=true").count(),
      "Device",
    );
    await tapThenBack(
      "device-salt-reminder",
      () => page.getByTestId("salt-reminder-picker").locator("visible=true").count(),
      "Device",
    );
    expect(await route()).toBe("Device");
    await open("/index/home", {}, "home-screen");
    await tapThenBack("home-family", () => page.locator(".adm-action-sheet:visible").count(), "Home");
    await tapThenBack("home-push", () => page.getByTestId("push-switch-sheet").locator("visible=true").count(), "Home");
    expect(await route()).toBe("Home");
  });

  it("back from the My tab returns to Home; the Home tab goes back there instead of piling up history", async () => {
    await open("/index/home", {}, "home-screen");
    const entryIndex = () =>
      page.evaluate(
        () => (window as unknown as { navigation: { currentEntry: { index: number } } }).navigation.currentEntry.index,
      );
    const home = await entryIndex();
    await page.getByTestId("tab-my").click();
    await page.getByTestId("my-screen").waitFor();
    await page.goBack();
    await page.getByTestId("home-screen").waitFor();
    expect(await route()).toBe("Home");
    expect(await entryIndex()).toBe(home);
    // My, then the Home tab, three times: still Home's own entry, so back leaves Home rather than reopening My.
    for (let i = 0; i < 3; i++) {
      await page.getByTestId("tab-my").click();
      await page.getByTestId("my-screen").waitFor();
      await page.getByTestId("tab-home").click();
      await page.getByTestId("home-screen").waitFor();
    }
    expect(await route()).toBe("Home");
    expect(await entryIndex()).toBe(home);
    // A reload on My keeps where it came from: back still returns to Home.
    await page.getByTestId("tab-my").click();
    await page.getByTestId("my-screen").waitFor();
    await page.reload();
    await page.getByTestId("my-screen").waitFor({ timeout: 15_000 });
    await page.goBack();
    await page.getByTestId("home-screen").waitFor();
    expect(await route()).toBe("Home");
  });

  it("a confirmation left open when its page goes away closes with it and sends nothing", async () => {
    await open("/Device", { deviceId, familyId }, "device-screen");
    const sentBefore = await controlCommands();
    await page.getByTestId("control-vacation-enter").click();
    await expectDialogs(1);
    // Not a back press: the app itself goes elsewhere (here, the address bar) while the question is open.
    await open("/index/home", {}, "home-screen");
    await expectDialogs(0);
    await settled(page); // every call the page had made is answered: a command it sent would be stored by then
    expect((await controlCommands()).length).toBe(sentBefore.length);
    // The history holds no dead dialog entry in between: one back returns to the Device page.
    await page.goBack();
    await page.getByTestId("device-screen").waitFor();
    expect(await dialogs()).toBe(0);
  });

  it("the household name typed on FamilyCreate is kept when back closes the map", async () => {
    await open("/index/home", {}, "home-screen");
    await open("/FamilyCreate", {}, "family-create-name");
    await page.getByTestId("family-create-name").fill("Lakeside cottage");
    await page.getByTestId("family-create-address").click();
    await page.getByTestId("address-select").waitFor();
    await page.goBack();
    await expectCount(() => page.getByTestId("address-select").count(), 0);
    expect(await route()).toBe("FamilyCreate");
    expect(await page.getByTestId("family-create-name").inputValue()).toBe("Lakeside cottage");

    // A reload with the map open: the page comes back without it, and one back leaves the page.
    await page.getByTestId("family-create-address").click();
    await page.getByTestId("address-select").waitFor();
    await page.reload();
    await page.getByTestId("family-create-name").waitFor({ timeout: 15_000 });
    expect(await page.getByTestId("address-select").count()).toBe(0);
    await page.goBack();
    await page.getByTestId("home-screen").waitFor();
  });

  it("back closes Home's household sheet and push popup, and a picker on its page, one at a time", async () => {
    await open("/index/home", {}, "home-screen");
    await page.getByTestId("home-family").click();
    await page.locator(".adm-action-sheet").waitFor();
    await page.goBack();
    await expectCount(() => page.locator(".adm-action-sheet:visible").count(), 0);
    expect(await route()).toBe("Home");

    await page.getByTestId("home-push").click();
    await page.getByTestId("push-switch-sheet").waitFor();
    await page.goBack();
    await expectCount(() => page.getByTestId("push-switch-sheet").count(), 0);
    await page.getByTestId("home-screen").waitFor();

    await open("/Test", {}, "test-page-1");
    await page.getByTestId("test-open-list-single").click();
    await page.getByTestId("list-picker-option-cherry").waitFor();
    await page.goBack();
    await expectCount(() => page.getByTestId("list-picker-option-cherry").count(), 0);
    expect(await route()).toBe("Test");
    // Only now does back leave the page.
    await page.goBack();
    await page.getByTestId("home-screen").waitFor();
  });
});
