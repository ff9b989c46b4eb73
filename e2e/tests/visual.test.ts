import { LANGUAGES, MESSAGE_TYPES } from "@aquapilot/contract";
import { DEMO_ACCOUNT, type DevSystem } from "@aquapilot/dev";
import { catalogueTexts } from "@aquapilot/server/modules/message/presenter.ts";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRoute } from "../support/api.ts";
import { launchPhone, newPageIn, signInAsDemo } from "../support/browser.ts";
import { demoSoftener, startTestSystem } from "../support/system.ts";
import { expectScreen, type Mask } from "../support/visual.ts";

/**
 * The app's main screens at 375×812 in each of the five languages, compared pixel by pixel with the committed
 * references in e2e/visual-references (support/visual.ts: tolerance, mismatch images, `npm run test:visual:update -w
 * e2e`). Login signed out; then, signed in as the demo owner, Home, the message centre (MessageList) with three
 * messages of fixed texts and times, My, the first softener's Device screen and its DeviceSetting. Before each shot
 * the screen's data is drawn (cards, live chip, figures, unread badges, rows, setting fields) and no toast is left;
 * live figures, clocks and relative times are masked, each mask over the value only, so the layout around it is
 * still compared.
 */
describe("the main screens look as their references in all five languages", () => {
  let system: DevSystem;
  let phone: { context: BrowserContext; close: () => Promise<void> };
  let ids: { familyId: string; deviceId: string };
  /** Unread messages of the seeded three (the bell's and My's badge). */
  const UNREAD = 2;

  beforeAll(async () => {
    system = await startTestSystem({ SIM_DEVICES: "3" });
    phone = await launchPhone("en-US");
    const { familyId, deviceId, name } = await demoSoftener(system);
    ids = { familyId, deviceId };
    await seedMessages(system, familyId, { id: deviceId, name });
  });
  afterAll(async () => {
    await phone?.close();
    await system?.close();
  });

  /** Waits until no toast is on the page (the app's toasts last about 2 s). */
  async function noToast(page: Page): Promise<void> {
    await expect.poll(() => page.locator(".adm-toast-main").count()).toBe(0);
  }

  describe("signed out", () => {
    for (const lang of LANGUAGES) {
      it(`Login in ${lang}`, async () => {
        const page = await newPageIn(phone.context, lang);
        await page.goto(`${system.url}/#/login`);
        await page.getByTestId("login-screen").waitFor();
        await expect.poll(() => page.getByTestId("login-submit").textContent()).not.toBe("");
        await expectScreen(page, `login-${lang}`);
        await page.close();
      });
    }
  });

  describe("signed in as the demo owner", () => {
    beforeAll(async () => {
      const page = await phone.context.newPage();
      await signInAsDemo(page, system.url);
      await page.close();
    });

    for (const lang of LANGUAGES) {
      describe(lang, () => {
        let page: Page;
        beforeAll(async () => {
          await dropOtherMessages(system);
          page = await newPageIn(phone.context, lang);
        });
        afterAll(async () => {
          await page?.close();
        });

        it(`Home in ${lang}`, async () => {
          await openRoute(page, system.url, "/index/home", null, "home-screen");
          await expect.poll(() => page.getByTestId("device-card").count(), { timeout: 15_000 }).toBe(3);
          // Each softener online and in service (station 0), as the references show them.
          await expect.poll(() => page.locator('[data-testid="device-card"][data-online="true"]').count()).toBe(3);
          await expect.poll(() => page.locator('[data-testid="device-card"][data-station="0"]').count()).toBe(3);
          await page.locator('[data-testid="realtime-state"][data-live="true"]').waitFor({ timeout: 15_000 });
          await page.locator('[data-testid="home-water-today"]:not([data-value=""])').waitFor({ timeout: 15_000 });
          await expect
            .poll(() => page.locator('[data-testid="device-water-left"]:not([data-value=""])').count())
            .toBe(3);
          await expect
            .poll(() => page.getByTestId("home-messages-badge").getAttribute("data-count"))
            .toBe(String(UNREAD));
          await noToast(page);
          const masks: Mask[] = [
            { locator: page.locator(".home__total-value"), reason: "the household's live water use today" },
            { locator: page.locator('[data-testid="device-seen"]'), reason: "clock time of the last report" },
            {
              locator: page.locator(
                '[data-testid="device-water-today"] .device-card__figure-value, [data-testid="device-water-left"] .device-card__figure-value',
              ),
              reason: "live water figures of each softener",
            },
            {
              // The whole row: the value's width follows the date's text, so a mask of the value alone moves too.
              locator: page.locator(".device-card__next"),
              reason: "next regeneration's date, counted from today",
            },
          ];
          await expectScreen(page, `home-${lang}`, masks);
        });

        it(`MessageList in ${lang}`, async () => {
          await openRoute(page, system.url, "/MessageDetails", null, "message-centre-screen");
          await expect.poll(() => page.getByTestId("message-row").count(), { timeout: 15_000 }).toBe(3);
          await expect.poll(() => page.getByTestId("message-unread-count").textContent()).toBe(String(UNREAD));
          await noToast(page);
          await expectScreen(page, `message-list-${lang}`, [
            { locator: page.getByTestId("message-row-time"), reason: "written in the machine's time zone" },
          ]);
        });

        it(`My in ${lang}`, async () => {
          await openRoute(page, system.url, "/index/My", null, "my-screen");
          await expect.poll(() => page.getByTestId("my-user-contact").textContent()).toContain(DEMO_ACCOUNT.email);
          await expect.poll(() => page.getByTestId("my-menu-messageCentre-badge").textContent()).toBe(String(UNREAD));
          await noToast(page);
          await expectScreen(page, `my-${lang}`);
        });

        it(`Device in ${lang}`, async () => {
          await openRoute(page, system.url, "/Device", ids, "device-screen");
          await page.locator('[data-testid="device-channel"][data-live="true"]').waitFor({ timeout: 15_000 });
          await expect.poll(() => page.getByTestId("device-station").getAttribute("data-station")).toBe("0");
          await expect.poll(() => page.getByTestId("device-water-left").textContent()).not.toBe("—");
          await expect.poll(() => page.getByTestId("device-flow").textContent()).not.toBe("—");
          await noToast(page);
          await expectScreen(page, `device-${lang}`, [
            { locator: page.getByTestId("device-last-report"), reason: "minutes since the last report" },
            { locator: page.locator(".device-fresh"), reason: "minutes since each live value's report" },
            { locator: page.getByTestId("device-water-left"), reason: "live water left before regeneration" },
            { locator: page.getByTestId("device-flow"), reason: "live flow" },
          ]);
        });

        it(`DeviceSetting in ${lang}`, async () => {
          await openRoute(page, system.url, "/DeviceSetting", ids, "device-setting-screen");
          await page.getByTestId("device-setting-input-resinVolume").waitFor({ timeout: 15_000 });
          await noToast(page);
          await expectScreen(page, `device-setting-${lang}`);
        });
      });
    }
  });
});

/** Prefix of the seeded messages' source keys. */
const SEEDED = "visual:";

/**
 * Removes the demo owner's messages other than the seeded three (a softener's event or alarm written while the file
 * runs would add a row and raise the unread badges), naming each one removed on the console.
 */
async function dropOtherMessages(system: DevSystem): Promise<void> {
  const user = await system.db
    .selectFrom("users")
    .select("id")
    .where("email", "=", DEMO_ACCOUNT.email)
    .executeTakeFirstOrThrow();
  const others = await system.db
    .selectFrom("messages")
    .select(["id", "source_key", "title"])
    .where("user_id", "=", user.id)
    .where("source_key", "not like", `${SEEDED}%`)
    .execute();
  if (others.length === 0) return;
  console.info(
    `visual: removed messages not seeded by the test: ${others.map((m) => `${m.source_key} "${m.title}"`).join(", ")}`,
  );
  await system.db
    .deleteFrom("messages")
    .where(
      "id",
      "in",
      others.map((m) => m.id),
    )
    .execute();
}

/**
 * Three messages of the demo owner with fixed texts and times, worded from the server's catalogue keys so each
 * language shows its own titles: a leak alarm of `device` (unread), a finished regeneration (read) and a test
 * announcement (unread), newest first in that order.
 */
async function seedMessages(system: DevSystem, familyId: string, device: { id: string; name: string }) {
  const user = await system.db
    .selectFrom("users")
    .select("id")
    .where("email", "=", DEMO_ACCOUNT.email)
    .executeTakeFirstOrThrow();
  const params = { device: device.name };
  const rows = [
    {
      key: `${SEEDED}leak`,
      at: "2026-03-02T09:15:00.000Z",
      type: MESSAGE_TYPES.deviceAlarm,
      event: "leak",
      close_reason: 513,
      read: false,
      texts: catalogueTexts("en", "message.leak.title", "message.leak.content", params),
      device: true,
    },
    {
      key: `${SEEDED}regeneration`,
      at: "2026-03-01T02:40:00.000Z",
      type: MESSAGE_TYPES.deviceNotice,
      event: "regeneration-finished",
      close_reason: null,
      read: true,
      texts: catalogueTexts("en", "message.regenerationFinished.title", "message.regenerationFinished.content", params),
      device: true,
    },
    {
      key: `${SEEDED}test`,
      at: "2026-02-27T18:05:00.000Z",
      type: MESSAGE_TYPES.announcement,
      event: null,
      close_reason: null,
      read: false,
      texts: catalogueTexts("en", "message.test.title", "message.test.content"),
      device: false,
    },
  ];
  await system.db.transaction().execute(async (trx) => {
    for (const r of rows) {
      await trx
        .insertInto("message_sources")
        .values({
          source_key: r.key,
          kind: r.device ? "device-event" : "test",
          device_id: r.device ? device.id : null,
          created_at: r.at,
          published_at: r.at,
        })
        .execute();
      await trx
        .insertInto("messages")
        .values({
          id: crypto.randomUUID(),
          user_id: user.id,
          type: r.type,
          event: r.event,
          ...r.texts,
          device_id: r.device ? device.id : null,
          device_name: r.device ? device.name : null,
          family_id: r.device ? familyId : null,
          close_reason: r.close_reason,
          source_key: r.key,
          is_read: r.read ? 1 : 0,
          read_time: r.read ? r.at : null,
          creation_time: r.at,
        })
        .execute();
    }
  });
}
