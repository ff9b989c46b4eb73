import zlib from "node:zlib";
import { endpoints, type TAfterSale, type TPaged } from "@aquapilot/contract";
import { DEMO_ACCOUNT, type DevSystem } from "@aquapilot/dev";
import { handleAfterSale } from "@aquapilot/server/modules/after-sale/service.ts";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import afterSaleEn from "../../apps/web/src/features/after-sale/locales/en.json" with { type: "json" };
import { accessToken, apiCall, openRoute, registerByEmail, signInOnPage } from "../support/api.ts";
import { doubleTap, launchPhone, type Phone, snap, storeLanguage } from "../support/browser.ts";
import { startTestSystem } from "../support/system.ts";

const T = afterSaleEn.afterSale;
/** The after-sales calls' path without its trailing slash, as the contract declares it. */
const AFTER_SALE_PATH = endpoints.getAfterSaleList.path.replace(/\/$/, "");

/** A real 24×24 RGB PNG (a blue square), built with zlib: signature, IHDR, IDAT, IEND with their CRCs. */
function bluePng(size = 24): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(size * 3, Buffer.from([0x00, 0x93, 0xdd]))]);
  const pixels = Buffer.concat(Array.from({ length: size }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", zlib.deflateSync(pixels)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/**
 * After-sales requests in Chromium against the whole system (create → list → edit → delete): the
 * demo owner files a request for a chosen device with a description, one photo and consent to attach diagnostics;
 * it shows in the unhandled list with the device's name; an edit shows in the list; withdrawing it (after the
 * confirmation) removes it. A request handled by the service team (operator `handleAfterSale`) shows in the handled
 * tab, opens read-only with the reply and offers no edit or delete. Another user can neither see nor change it.
 */
describe("after-sales requests in Chromium", () => {
  let system: DevSystem;
  let phone: Phone;
  let page: Page;
  let ownerToken: string;
  let devices: Array<{ id: string; name: string }>;

  beforeAll(async () => {
    system = await startTestSystem({ SIM_DEVICES: "2" });
    phone = await launchPhone("en-US");
    await storeLanguage(phone.context, "en");
    page = await phone.context.newPage();
    await signInOnPage(page, system.url, DEMO_ACCOUNT.email, DEMO_ACCOUNT.password);
    ownerToken = await accessToken(system.url, DEMO_ACCOUNT.email, DEMO_ACCOUNT.password);
    devices = await Promise.all(
      system.fleet.devices.map((sim) =>
        system.db.selectFrom("devices").select(["id", "name"]).where("mac", "=", sim.mac).executeTakeFirstOrThrow(),
      ),
    );
  });
  afterAll(async () => {
    await phone?.close();
    await system?.close();
  });

  const rowsOnScreen = () => page.getByTestId("after-sale-row");
  const toastText = () => page.locator(".adm-toast-main").last().textContent();

  it("create with a device, a photo and diagnostics → listed with the device name → edited → withdrawn", async () => {
    await openRoute(page, system.url, "/AfterSaleList", { tab: "unhandled" }, "after-sale-list-screen");
    await page.getByTestId("after-sale-list-empty").waitFor({ timeout: 10_000 });
    expect(await page.getByTestId("after-sale-tab-unhandled").getAttribute("data-active")).toBe("true");

    await page.getByTestId("after-sale-new").click();
    await page.getByTestId("after-sale-create-screen").waitFor();
    // The second device, so the choice matters (the form does not preselect with two devices).
    const chosen = devices[1];
    const choice = page.locator(`[data-testid="after-sale-device"][data-device-id="${chosen.id}"]`);
    await choice.waitFor({ timeout: 10_000 });
    expect(await page.getByTestId("after-sale-device").count()).toBe(devices.length);
    await snap(page, "after-sale-create-devices");
    // Without a device the form refuses with its own text.
    await page.getByTestId("after-sale-description").fill("Water tastes salty after regeneration");
    await page.getByTestId("after-sale-submit").click();
    await expect.poll(toastText).toContain(T.errors.device);
    await choice.click();
    await expect.poll(() => choice.getAttribute("data-selected")).toBe("true");
    await page.getByTestId("after-sale-photo-input").setInputFiles({
      name: "valve.png",
      mimeType: "image/png",
      buffer: bluePng(),
    });
    await expect
      .poll(() => page.getByTestId("after-sale-photo").getAttribute("data-status"), { timeout: 10_000 })
      .toBe("done");
    await page.getByTestId("after-sale-contact").fill("+49 30 1234567");
    const consent = page.getByTestId("after-sale-diagnostics");
    expect(await consent.getAttribute("aria-checked")).toBe("false");
    await consent.click();
    await expect.poll(() => consent.getAttribute("aria-checked")).toBe("true");
    // A double tap on Submit (every submit happens once): one request, and the list (not a page further
    // back) afterwards.
    await doubleTap(page, "after-sale-submit");
    await expect.poll(toastText, { timeout: 10_000 }).toContain(T.submitted);

    // Back on the list: the request, unhandled, with the device's name and the description.
    await page.getByTestId("after-sale-list-screen").waitFor({ timeout: 10_000 });
    await expect.poll(() => rowsOnScreen().count(), { timeout: 10_000 }).toBe(1);
    const row = rowsOnScreen().first();
    const id = (await row.getAttribute("data-id"))!;
    expect(
      await system.db.selectFrom("after_sale_requests").select("id").where("device_id", "=", chosen.id).execute(),
    ).toHaveLength(1);
    expect(await row.getAttribute("data-handled")).toBe("false");
    expect(await row.getByTestId("after-sale-row-device").textContent()).toBe(chosen.name);
    expect(await row.getByTestId("after-sale-row-description").textContent()).toBe(
      "Water tastes salty after regeneration",
    );
    expect(await row.getByTestId("after-sale-row-status").textContent()).toBe(T.status.unhandled);
    // Stored as sent: the chosen device, one photo that is served back as an image, diagnostics with consent.
    const stored = await system.db
      .selectFrom("after_sale_requests")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(stored.device_id).toBe(chosen.id);
    expect(stored.contact_phone).toBe("+49 30 1234567");
    const photos = JSON.parse(stored.photos_json) as string[];
    expect(photos).toHaveLength(1);
    const served = await fetch(`${system.url}${photos[0]}`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toMatch(/^image\//);
    expect(stored.diagnostics_json).not.toBeNull();
    expect(JSON.parse(stored.diagnostics_json!)).toHaveProperty("dailyUsage");

    // Edit the description; the list shows the new text.
    await row.click();
    await page.getByTestId("after-sale-create-screen").waitFor();
    const description = page.getByTestId("after-sale-description");
    await expect
      .poll(() => description.inputValue(), { timeout: 10_000 })
      .toBe("Water tastes salty after regeneration");
    expect(await page.getByTestId("after-sale-device-name").textContent()).toBe(chosen.name);
    expect(await page.getByTestId("after-sale-photo").count()).toBe(1);
    await description.fill("Water tastes salty every morning since Monday");
    await page.getByTestId("after-sale-submit").click();
    await expect.poll(toastText, { timeout: 10_000 }).toContain(T.saved);
    await page.getByTestId("after-sale-list-screen").waitFor({ timeout: 10_000 });
    await expect
      .poll(() => rowsOnScreen().first().getByTestId("after-sale-row-description").textContent(), { timeout: 10_000 })
      .toBe("Water tastes salty every morning since Monday");

    // Withdraw it (after the confirmation): gone from the list and from the server.
    await rowsOnScreen().first().click();
    await page.getByTestId("after-sale-delete").waitFor({ timeout: 10_000 });
    await page.getByTestId("after-sale-delete").click();
    await expect.poll(() => page.locator(".adm-dialog").textContent()).toContain(T.deleteConfirm);
    await page.locator(".adm-dialog-footer button").last().click();
    await expect.poll(toastText, { timeout: 10_000 }).toContain(T.deleted);
    await page.getByTestId("after-sale-list-screen").waitFor({ timeout: 10_000 });
    await page.getByTestId("after-sale-list-empty").waitFor({ timeout: 10_000 });
    expect(await rowsOnScreen().count()).toBe(0);
    expect(
      await system.db.selectFrom("after_sale_requests").select("id").where("id", "=", id).executeTakeFirst(),
    ).toBeUndefined();
  });

  it("a request handled by the service team shows under handled, read-only with the reply; nobody else reaches it", async () => {
    const created = await apiCall<TAfterSale>(system.url, `${AFTER_SALE_PATH}/`, {
      method: "POST",
      token: ownerToken,
      body: { deviceId: devices[0].id, description: "The valve clicks at night", photos: [] },
    });
    expect(created.status).toBe(200);
    const id = created.result.id;
    const reply = "We checked the valve remotely; a technician will call you on Friday.";
    const handled = await handleAfterSale({ db: system.db, now: () => new Date() }, id, reply);
    expect(handled).toMatchObject({ id, handled: true });
    // The owner's open app is told by the server's message worker; the message leads to the handled requests.
    const toast = page.getByTestId("message-toast");
    await toast.waitFor({ timeout: 15_000 });
    const messageId = await toast.getAttribute("data-message-id");
    await openRoute(page, system.url, "/MessageDetails", { id: messageId }, "message-detail-screen");
    expect(await page.getByTestId("message-detail-content").textContent()).toContain(reply);
    await page.getByTestId("message-open-after-sales").click();
    await page.getByTestId("after-sale-list-screen").waitFor({ timeout: 10_000 });

    await openRoute(page, system.url, "/AfterSaleList", { tab: "handled" }, "after-sale-list-screen");
    expect(await page.getByTestId("after-sale-tab-handled").getAttribute("data-active")).toBe("true");
    const row = page.locator(`[data-testid="after-sale-row"][data-id="${id}"]`);
    await row.waitFor({ timeout: 10_000 });
    expect(await row.getAttribute("data-handled")).toBe("true");
    expect(await row.getByTestId("after-sale-row-status").textContent()).toBe(T.status.handled);
    expect(await row.getByTestId("after-sale-row-device").textContent()).toBe(devices[0].name);
    // Not in the unhandled tab.
    await page.getByTestId("after-sale-tab-unhandled").click();
    await page.getByTestId("after-sale-list-empty").waitFor({ timeout: 10_000 });
    await page.getByTestId("after-sale-tab-handled").click();
    await row.waitFor({ timeout: 10_000 });

    await row.click();
    await page.getByTestId("after-sale-view-screen").waitFor({ timeout: 10_000 });
    expect(await page.getByTestId("after-sale-reply").textContent()).toContain(reply);
    expect(await page.getByTestId("after-sale-view-description").textContent()).toBe("The valve clicks at night");
    for (const editable of [
      "after-sale-delete",
      "after-sale-submit",
      "after-sale-description",
      "after-sale-photo-input",
    ]) {
      expect(await page.getByTestId(editable).count(), editable).toBe(0);
    }
    // The server refuses to change it as well.
    const put = await apiCall(system.url, `${AFTER_SALE_PATH}/${id}`, {
      method: "PUT",
      token: ownerToken,
      body: { description: "Changed after handling", photos: [] },
    });
    expect(put.status).toBeGreaterThanOrEqual(400);
    const del = await apiCall(system.url, `${AFTER_SALE_PATH}/${id}`, { method: "DELETE", token: ownerToken });
    expect(del.status).toBeGreaterThanOrEqual(400);

    // A second user: not in their list, and neither read, changed nor deleted by id.
    const other = `other-${Date.now()}@example.com`;
    await registerByEmail(system.url, other, "other123");
    const otherToken = await accessToken(system.url, other, "other123");
    const unhandledOwn = await apiCall<TAfterSale>(system.url, `${AFTER_SALE_PATH}/`, {
      method: "POST",
      token: ownerToken,
      body: { deviceId: devices[0].id, description: "Still pending request", photos: [] },
    });
    for (const handledFlag of [true, false]) {
      const list = await apiCall<TPaged<TAfterSale>>(
        system.url,
        `${AFTER_SALE_PATH}/?handled=${handledFlag}&skipCount=0&maxResultCount=15`,
        { token: otherToken },
      );
      expect(list.status).toBe(200);
      expect(list.result.totalCount).toBe(0);
    }
    for (const target of [id, unhandledOwn.result.id]) {
      expect((await apiCall(system.url, `${AFTER_SALE_PATH}/${target}`, { token: otherToken })).status).toBe(404);
      const otherPut = await apiCall(system.url, `${AFTER_SALE_PATH}/${target}`, {
        method: "PUT",
        token: otherToken,
        body: { description: "Hijacked description", photos: [] },
      });
      expect(otherPut.status).toBe(404);
      expect(
        (await apiCall(system.url, `${AFTER_SALE_PATH}/${target}`, { method: "DELETE", token: otherToken })).status,
      ).toBe(404);
    }
    const still = await system.db
      .selectFrom("after_sale_requests")
      .select(["id", "description"])
      .where("id", "in", [id, unhandledOwn.result.id])
      .orderBy("creation_time")
      .execute();
    expect(still.map((r) => r.description)).toEqual(["The valve clicks at night", "Still pending request"]);
  });
});
