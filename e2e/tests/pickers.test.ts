import type { DevSystem } from "@aquapilot/dev";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchPhone, type Phone, storeLanguage } from "../support/browser.ts";
import { startTestSystem } from "../support/system.ts";

/**
 * The shared pickers and dialogs of spec §2 on /Test, /Test2, /Test3, and the AddressSelect dialog with no
 * internet: every rule is read back from the page's printed result.
 */
describe("pickers and the address dialog in Chromium", () => {
  let system: DevSystem;
  let phone: Phone;
  let page: Page;

  beforeAll(async () => {
    system = await startTestSystem({ SIM_DEVICES: "0" });
    phone = await launchPhone("en-US");
    // The phone knows where it is (spec §2: the dialog centres on the user's position when available).
    await phone.context.grantPermissions(["geolocation"]);
    await phone.context.setGeolocation({ longitude: 121.491, latitude: 31.233 });
    page = await phone.context.newPage();
    await storeLanguage(page, "en");
  });
  afterAll(async () => {
    await phone?.close();
    await system?.close();
  });

  /** The printed result once it comes from `source` (the button's id). */
  async function resultOf(source: string): Promise<string> {
    await expect.poll(() => page.getByTestId("test-result-source").textContent()).toBe(source);
    return (await page.getByTestId("test-result").textContent()) ?? "";
  }

  it("list picker: single, multiple with search and clear, multi-level loading children by parent id", async () => {
    await page.goto(`${system.url}/#/Test`);
    await page.getByTestId("test-page-1").waitFor();
    await page.getByTestId("test-open-list-single").click();
    await page.getByTestId("list-picker-option-cherry").click();
    expect((await resultOf("list-single")).toLowerCase()).toContain("cherry");

    await page.getByTestId("test-open-list-multiple").click();
    await page.getByTestId("list-picker-option-grape").click();
    await page.getByTestId("list-picker-search").locator("input").fill("gr");
    await expect.poll(() => page.getByTestId("list-picker-option-banana").count()).toBe(0);
    await page.getByTestId("list-picker-confirm").click();
    const multiple = (await resultOf("list-multiple")).toLowerCase();
    expect(multiple).toContain("banana");
    expect(multiple).toContain("grape");

    await page.getByTestId("test-open-list-levels").click();
    await page.getByTestId("list-picker-option-B").click();
    await page.getByTestId("list-picker-option-B-2").click();
    await page.getByTestId("list-picker-option-B-2-03").click();
    const path = await resultOf("list-levels");
    expect(path).toContain("B-2-03");
    expect(path.indexOf("B-2")).toBeLessThan(path.indexOf("B-2-03"));
  });

  it("time picker: minutes 00-99 fold into hours at 60 (hh:mm:ss)", async () => {
    await page.getByTestId("test-open-time-picker").click();
    await page.getByTestId("time-picker-col-minutes").waitFor();
    expect(await page.getByTestId("time-picker-col-minutes-99").count()).toBe(1);
    expect(await page.getByTestId("time-picker-col-seconds-59").count()).toBe(1);
    expect(await page.getByTestId("time-picker-col-seconds-60").count()).toBe(0);
    await page.getByTestId("time-picker-col-minutes-03").click();
    const col = await page.getByTestId("time-picker-col-minutes").boundingBox();
    await page.mouse.move(col!.x + col!.width / 2, col!.y + col!.height / 2);
    for (let i = 0; i < 62; i++) await page.mouse.wheel(0, 40);
    await expect
      .poll(() =>
        page.locator('[data-testid^="time-picker-col-minutes-"][aria-selected="true"]').getAttribute("data-testid"),
      )
      .toBe("time-picker-col-minutes-65");
    await page.getByTestId("time-picker-confirm").click();
    expect(await resultOf("time-picker")).toBe("01:05:30");
  });

  it("date/time picker: formats, time from 00:00, hour bounds, timeWithSecond drops a lone 00 hour column", async () => {
    await page.goto(`${system.url}/#/Test2`);
    await page.getByTestId("test-page-2").waitFor();
    const confirm = async (id: string) => {
      await page.getByTestId(`test-open-${id}`).click();
      await page.getByTestId("date-time-picker-confirm").waitFor();
      await page.waitForTimeout(350); // pacing: the picker's slide-up ends before its Confirm is tapped
      await page.getByTestId("date-time-picker-confirm").click();
      return resultOf(id);
    };
    expect(await confirm("datetime")).toBe("2025-06-15 08:30");
    expect(await confirm("datetime-second")).toBe("2025-06-15 08:30:45");
    expect(await confirm("date")).toBe("2024-02-29");
    expect(await confirm("time")).toBe("00:00");
    expect(await confirm("time-bounded")).toBe("08:00");
    expect(await confirm("time-with-second")).toBe("00:00:00");

    await page.getByTestId("test-open-time-with-second-no-hour").click();
    await page.getByTestId("date-time-picker-confirm").waitFor();
    expect(await page.getByTestId("date-time-picker-col-hour").count()).toBe(0);
    expect(await page.getByTestId("date-time-picker-col-minute").count()).toBe(1);
    await page.getByTestId("date-time-picker-confirm").click();
    expect(await resultOf("time-with-second-no-hour")).toBe("00:00:00");
  });

  it("bottom alert with its clear link, and image preview whose counter shows the index; back closes it", async () => {
    await page.goto(`${system.url}/#/Test3`);
    await page.getByTestId("test-page-3").waitFor();
    await page.getByTestId("test-open-alert").click();
    await page.getByTestId("alert-popup-clear").click();
    expect(await resultOf("alert")).toBe("clear");
    await page.getByTestId("test-open-image-preview").click();
    await expect.poll(() => page.getByTestId("image-preview-counter").textContent()).toMatch(/^\s*\d+\s*\/\s*5\s*$/);
    await page.evaluate(() => (window as unknown as { AquaPilotBack: () => void }).AquaPilotBack());
    await expect.poll(() => page.getByTestId("image-preview-counter").count()).toBe(0);
    await expect.poll(() => page.getByTestId("test-page-3").isVisible()).toBe(true);
  });

  it("address dialog offline: search moves the map, the rectangle pick reports its corners, confirm answers a location", async () => {
    await page.getByTestId("test-open-address-select").click();
    await page.getByTestId("address-select").waitFor();
    await expect.poll(() => page.getByTestId("address-select-title").textContent()).toBe("Choose location");
    await expect.poll(() => page.getByTestId("address-select-lnglat").textContent()).toMatch(/^121\.49\d*,31\.23\d*$/);
    await page.getByTestId("address-select-search").fill("Zhejiang");
    await page.getByTestId("address-select-result-0").waitFor({ timeout: 10_000 });
    expect(await page.locator('[data-testid^="address-select-result-"]').count()).toBeLessThanOrEqual(10);
    await page.getByTestId("address-select-result-0").click();
    await expect.poll(() => page.getByTestId("address-select-lnglat").textContent()).not.toMatch(/^121\.49/);
    await expect
      .poll(() => page.getByTestId("address-select-address").textContent(), { timeout: 10_000 })
      .toMatch(/\S/);

    const map = (await page.getByTestId("address-select-map").boundingBox())!;
    await page.getByTestId("address-select-tool-picker").click();
    await page.mouse.move(map.x + 60, map.y + 150);
    await page.mouse.down();
    await page.mouse.move(map.x + 250, map.y + 380, { steps: 8 });
    await page.mouse.up();
    await expect.poll(() => page.getByTestId("address-select-tool-result").textContent()).toMatch(/SW .*NE /);

    await page.getByTestId("address-select-confirm").click();
    // The page prints "address (longitude,latitude)": somewhere in Zhejiang after the search.
    const [, lng, lat] = /(-?\d+\.\d+),\s*(-?\d+\.\d+)/.exec(await resultOf("address-select")) ?? [];
    expect(Number(lng)).toBeGreaterThan(118);
    expect(Number(lng)).toBeLessThan(123);
    expect(Number(lat)).toBeGreaterThan(27);
    expect(Number(lat)).toBeLessThan(31.5);
  });
});
