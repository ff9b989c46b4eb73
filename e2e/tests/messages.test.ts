import { randomUUID } from "node:crypto";
import { HUB_PATHS, type TMessage, type TPaged } from "@aquapilot/contract";
import { DEMO_ACCOUNT, type DevSystem } from "@aquapilot/dev";
import { messageMessages } from "@aquapilot/server/modules/message/messages.ts";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import messageEn from "../../apps/web/src/features/message/locales/en.json" with { type: "json" };
import messageZhHans from "../../apps/web/src/features/message/locales/zh-Hans.json" with { type: "json" };
import { accessToken, apiCall, openRoute, registerByEmail, signInOnPage } from "../support/api.ts";
import { HUB_ENDED_LOG, launchPhone, type Phone, settled, snap, storeLanguage } from "../support/browser.ts";
import { familyIdOf, startTestSystem } from "../support/system.ts";

const WEB = { en: messageEn, "zh-Hans": messageZhHans } as const;
const LIST = "/api/push-service/app/message/get-user-message-list";

/** One household member with the app open: who, in which language, the page and whether its hub 2 is connected. */
interface Member {
  label: string;
  lang: "en" | "zh-Hans";
  account: string;
  password: string;
  token: string;
  userId: string;
  phone: Phone;
  page: Page;
  hubReady: () => boolean;
}

/**
 * The message centre in Chromium against the whole system: two members of one household, their apps
 * open on Home in different languages (en, zh-Hans). A leak (513) on a simulated softener reaches both apps live over
 * hub 2 (toast and bell badge +1, latency logged), titled in each member's own language; opening the message marks
 * it read and the badge drops; mark-all-read clears every unread one. A message sent while the app is closed is there
 * and counted when it opens. Infinite scroll over 45 messages pages 15 → 30 → 45 and stops exactly at totalCount;
 * pull-down refresh shows a message that arrived without a live push.
 */
describe("the message centre in Chromium", () => {
  let system: DevSystem;
  let owner: Member;
  let member: Member;
  let deviceId: string;
  let deviceName: string;
  const memberEmail = `member-${Date.now()}@example.com`;

  /** Follows the page's hub-2 WebSocket: true once the server answered on it (handshake done), false after it closed. */
  function trackMessageHub(page: Page): () => boolean {
    let ready = false;
    page.on("websocket", (ws) => {
      if (!ws.url().includes(HUB_PATHS.message)) return;
      ws.on("framereceived", () => {
        ready = true;
      });
      ws.on("close", () => {
        ready = false;
      });
    });
    return () => ready;
  }

  async function openMember(label: string, lang: Member["lang"], account: string, password: string): Promise<Member> {
    const phone = await launchPhone(lang === "en" ? "en-US" : "zh-CN");
    await storeLanguage(phone.context, lang, { keep: true });
    const page = await phone.context.newPage();
    const hubReady = trackMessageHub(page);
    await signInOnPage(page, system.url, account, password);
    await page.getByTestId("home-screen").waitFor();
    const token = await accessToken(system.url, account, password);
    const user = await system.db
      .selectFrom("users")
      .select("id")
      .where("email", "=", account)
      .executeTakeFirstOrThrow();
    return { label, lang, account, password, token, userId: user.id, phone, page, hubReady };
  }

  async function unreadOnServer(m: Member): Promise<number> {
    const r = await apiCall<TPaged<TMessage>>(system.url, `${LIST}?isRead=false&skipCount=0&maxResultCount=1`, {
      token: m.token,
    });
    expect(r.status).toBe(200);
    return r.result.totalCount;
  }

  /** The bell's unread count on Home (data-unread) and the badge text ("" when no badge is shown). */
  async function bell(page: Page): Promise<{ unread: number; badge: string }> {
    const unread = Number(await page.getByTestId("home-messages").getAttribute("data-unread"));
    const badge = page.getByTestId("home-messages-badge");
    return { unread, badge: (await badge.count()) > 0 ? ((await badge.textContent()) ?? "").trim() : "" };
  }

  beforeAll(async () => {
    system = await startTestSystem({ SIM_DEVICES: "2" });
    // The second member registers in Chinese, so the server writes her messages in zh-Hans.
    await registerByEmail(system.url, memberEmail, "member12", "zh-Hans");
    const ownerToken = await accessToken(system.url, DEMO_ACCOUNT.email, DEMO_ACCOUNT.password);
    const memberToken = await accessToken(system.url, memberEmail, "member12");
    const home = { id: await familyIdOf(system, DEMO_ACCOUNT.email) };
    // She joins the demo household with its share code (the API path of the QR code flow of families.test.ts).
    const share = await apiCall<{ code: string }>(
      system.url,
      `/api/run-lucky/device/app/family-user/trans-to-other-member-qr-code?familyId=${home.id}`,
      { token: ownerToken },
    );
    expect(share.status).toBe(200);
    const joined = await apiCall<{ joined: boolean }>(
      system.url,
      `/api/run-lucky/device/app/family-user/analysis-code?code=${encodeURIComponent(share.result.code)}`,
      { method: "POST", token: memberToken },
    );
    expect(joined.result.joined).toBe(true);
    const device = await system.db
      .selectFrom("devices")
      .select(["id", "name"])
      .where("mac", "=", system.fleet.devices[0].mac)
      .executeTakeFirstOrThrow();
    deviceId = device.id;
    deviceName = device.name;
    [owner, member] = await Promise.all([
      openMember("owner (en)", "en", DEMO_ACCOUNT.email, DEMO_ACCOUNT.password),
      openMember("member (zh-Hans)", "zh-Hans", memberEmail, "member12"),
    ]);
  });
  afterAll(async () => {
    await owner?.phone.close();
    await member?.phone.close();
    await system?.close();
  });

  it("a leak reaches both members' open apps live, in each one's language; reading clears it, mark-all-read clears all", async () => {
    const members = [owner, member];
    for (const m of members) await expect.poll(m.hubReady, { timeout: 15_000 }).toBe(true);
    const before = new Map<Member, number>();
    for (const m of members) {
      const n = await unreadOnServer(m);
      before.set(m, n);
      await expect.poll(async () => (await bell(m.page)).unread, { timeout: 10_000 }).toBe(n);
      // Record, inside the page, when the bell reaches n + 1 and when the message toast appears.
      await m.page.evaluate((target) => {
        const w = window as unknown as { __arrival: { badgeAt: number; toastAt: number; id: string; text: string } };
        w.__arrival = { badgeAt: 0, toastAt: 0, id: "", text: "" };
        const check = () => {
          const bellEl = document.querySelector('[data-testid="home-messages"]');
          if (!w.__arrival.badgeAt && Number(bellEl?.getAttribute("data-unread")) >= target) {
            w.__arrival.badgeAt = Date.now();
          }
          const toastEl = document.querySelector('[data-testid="message-toast"]');
          if (!w.__arrival.toastAt && toastEl) {
            w.__arrival.toastAt = Date.now();
            w.__arrival.id = toastEl.getAttribute("data-message-id") ?? "";
            w.__arrival.text = toastEl.textContent ?? "";
          }
        };
        new MutationObserver(check).observe(document.body, {
          subtree: true,
          childList: true,
          attributes: true,
          characterData: true,
        });
      }, n + 1);
    }

    const injectedAt = Date.now();
    system.fleet.devices[0].injectClose(513);
    const arrivals = new Map<Member, { badgeAt: number; toastAt: number; id: string; text: string }>();
    for (const m of members) {
      await expect
        .poll(
          async () => {
            const a = await m.page.evaluate(
              () =>
                (window as unknown as { __arrival: { badgeAt: number; toastAt: number; id: string; text: string } })
                  .__arrival,
            );
            return a.badgeAt > 0 && a.toastAt > 0 ? a : null;
          },
          { timeout: 5_000, interval: 50 },
        )
        .not.toBeNull();
      const a = await m.page.evaluate(
        () =>
          (window as unknown as { __arrival: { badgeAt: number; toastAt: number; id: string; text: string } })
            .__arrival,
      );
      arrivals.set(m, a);
      console.log(
        `[messages] leak 513 → ${m.label}: badge +1 after ${a.badgeAt - injectedAt} ms, toast after ${a.toastAt - injectedAt} ms`,
      );
      // The toast and the badge: one more unread, the toast titled in this member's language.
      expect(a.text).toBe(messageMessages[m.lang]["message.leak.title"]);
      expect(await bell(m.page)).toEqual({ unread: before.get(m)! + 1, badge: String(before.get(m)! + 1) });
    }
    // One message per member, each in the member's own language.
    expect(arrivals.get(owner)!.id).not.toBe(arrivals.get(member)!.id);

    // Each member opens the message: it is the leak, about the device, and reading it clears the badge.
    for (const m of members) {
      const id = arrivals.get(m)!.id;
      await m.page.getByTestId("home-messages").click();
      await m.page.getByTestId("message-centre-screen").waitFor();
      const row = m.page.locator(`[data-testid="message-row"][data-message-id="${id}"]`);
      await row.waitFor({ timeout: 10_000 });
      expect(await row.getAttribute("data-read")).toBe("false");
      expect(await row.textContent()).toContain(messageMessages[m.lang]["message.leak.title"]);
      expect(await row.getByTestId("message-row-device").textContent()).toBe(deviceName);
      await row.click();
      await m.page.locator(`[data-testid="message-detail"][data-message-id="${id}"]`).waitFor({ timeout: 10_000 });
      expect(await m.page.getByTestId("message-detail-title").textContent()).toBe(
        messageMessages[m.lang]["message.leak.title"],
      );
      expect(await m.page.getByTestId("message-detail-content").textContent()).toBe(
        messageMessages[m.lang]["message.leak.content"].replace("{device}", deviceName),
      );
      await expect
        .poll(
          async () =>
            (await system.db.selectFrom("messages").select("is_read").where("id", "=", id).executeTakeFirst())?.is_read,
          { timeout: 10_000 },
        )
        .toBe(1);
      // A message about a device opens that device.
      await m.page.getByTestId("message-open-device").click();
      await m.page.getByTestId("device-screen").waitFor({ timeout: 15_000 });
      expect(decodeURIComponent(m.page.url())).toContain(deviceId);
      await openRoute(m.page, system.url, "/index/home", undefined, "home-screen");
      await expect
        .poll(() => bell(m.page), { timeout: 10_000 })
        .toEqual({
          unread: before.get(m)!,
          badge: before.get(m)! > 0 ? String(before.get(m)) : "",
        });
    }

    // Two more messages each (live), then mark-all-read clears them all.
    for (const m of members) {
      const unread = await unreadOnServer(m);
      for (let i = 0; i < 2; i++) {
        const sent = await apiCall(system.url, "/api/push-service/app/message/test-send-message", {
          method: "POST",
          token: m.token,
        });
        expect(sent.status).toBe(200);
      }
      await expect.poll(async () => (await bell(m.page)).badge).toBe(String(unread + 2));
      await m.page.getByTestId("home-messages").click();
      await m.page.getByTestId("message-centre-screen").waitFor();
      await expect
        .poll(async () => (await m.page.getByTestId("message-unread-count").textContent())?.trim(), { timeout: 10_000 })
        .toBe(String(unread + 2));
      await m.page.getByTestId("message-mark-all-read").click();
      await expect
        .poll(() => m.page.locator(".adm-toast-main").last().textContent(), { timeout: 10_000 })
        .toContain(WEB[m.lang].message.allMarked);
      await m.page.getByTestId("message-tab-unread").click();
      await expect.poll(() => m.page.getByTestId("message-tab-unread").getAttribute("data-active")).toBe("true");
      await m.page.getByTestId("message-list-empty").waitFor({ timeout: 10_000 });
      expect(await m.page.getByTestId("message-row").count()).toBe(0);
      expect(await m.page.getByTestId("message-unread-count").count()).toBe(0);
      expect(await unreadOnServer(m)).toBe(0);
      await openRoute(m.page, system.url, "/index/home", undefined, "home-screen");
      await expect.poll(() => bell(m.page), { timeout: 10_000 }).toEqual({ unread: 0, badge: "" });
    }
  });

  it("a message sent while the app is closed is in the list and counted when the app opens", async () => {
    await member.page.close();
    const sent = await apiCall<TMessage>(system.url, "/api/push-service/app/message/test-send-message", {
      method: "POST",
      token: member.token,
    });
    expect(sent.status).toBe(200);
    const page = await member.phone.context.newPage();
    member.page = page;
    await openRoute(page, system.url, "/index/home", undefined, "home-screen");
    await expect.poll(() => bell(page), { timeout: 10_000 }).toEqual({ unread: 1, badge: "1" });
    await openRoute(page, system.url, "/index/My", undefined, "my-menu-messageCentre-badge");
    expect((await page.getByTestId("my-menu-messageCentre-badge").textContent())?.trim()).toBe("1");
    await openRoute(page, system.url, "/MessageDetails", { filter: "unread" }, "message-centre-screen");
    await expect.poll(() => page.getByTestId("message-row").count(), { timeout: 10_000 }).toBe(1);
    const row = page.getByTestId("message-row");
    expect(await row.getAttribute("data-message-id")).toBe(sent.result.id);
    expect(await row.getAttribute("data-read")).toBe("false");
    expect(await row.textContent()).toContain(messageMessages["zh-Hans"]["message.test.title"]);
  });

  it("messages switch language with the interface: the same message reads in the language chosen now", async () => {
    const page = member.page;
    await openRoute(page, system.url, "/MessageDetails", { filter: "all" }, "message-centre-screen");
    const row = page.getByTestId("message-row").first();
    await row.waitFor({ timeout: 10_000 });
    const id = await row.getAttribute("data-message-id");
    expect(await row.textContent()).toContain(messageMessages["zh-Hans"]["message.test.title"]);
    for (const lang of ["en", "ru", "zh-Hans"] as const) {
      await openRoute(page, system.url, "/Setting", undefined, "setting-screen");
      await page.getByTestId(`setting-language-${lang}`).click();
      await openRoute(page, system.url, "/MessageDetails", { filter: "all" }, "message-centre-screen");
      const same = page.locator(`[data-testid="message-row"][data-message-id="${id}"]`);
      await expect
        .poll(() => same.textContent(), { timeout: 10_000 })
        .toContain(messageMessages[lang]["message.test.title"]);
      await page.waitForTimeout(400); // the page's slide-in
      await snap(page, `message-list-${lang}`);
    }
  });

  it("push management on Home turns the push switch off on the server; messages still reach the centre", async () => {
    const page = owner.page;
    const PUSH = "/api/RunLuckyIot/appuser_setting/app/setting/is_open_jpush__message/";
    await openRoute(page, system.url, "/index/home", undefined, "home-screen");
    await page.getByTestId("home-push").click();
    await page.getByTestId("push-switch-sheet").waitFor();
    const toggle = page.getByTestId("push-switch");
    await expect.poll(() => toggle.getAttribute("data-checked"), { timeout: 10_000 }).toBe("true");
    await toggle.click();
    await expect
      .poll(() => page.locator(".adm-toast-main").last().textContent(), { timeout: 10_000 })
      .toContain(WEB.en.message.push.off);
    expect((await apiCall<boolean>(system.url, PUSH, { token: owner.token })).result).toBe(false);
    // Push off: a new message still arrives live and is counted.
    const unread = await unreadOnServer(owner);
    await apiCall(system.url, "/api/push-service/app/message/test-send-message", {
      method: "POST",
      token: owner.token,
    });
    await expect.poll(() => bell(page)).toEqual({ unread: unread + 1, badge: String(unread + 1) });
    // The switch reads the stored state after a reload, and turns back on.
    await page.reload();
    await page.getByTestId("home-screen").waitFor({ timeout: 15_000 });
    await page.getByTestId("home-push").click();
    await expect.poll(() => toggle.getAttribute("data-checked"), { timeout: 10_000 }).toBe("false");
    await toggle.click();
    await expect.poll(async () => (await apiCall<boolean>(system.url, PUSH, { token: owner.token })).result).toBe(true);
    await expect.poll(() => toggle.getAttribute("data-checked")).toBe("true");
  });

  it("a member removed by the administrator is told at once, in her language and by whom, and her Home drops the household", async () => {
    member.phone.expectErrors(
      /^Failed to load resource: the server responded with a status of 404 \(Not Found\) \(at [^ ]+\/api\//,
      "a call of the household's screens that crosses the removal finds it absent: she is no longer in it",
    );
    // A fresh page of her phone, followed from its first hub-2 frame.
    await member.page.close();
    const page = await member.phone.context.newPage();
    member.page = page;
    const hubReady = trackMessageHub(page);
    await openRoute(page, system.url, "/index/home", undefined, "home-screen");
    await expect.poll(() => page.getByTestId("device-card").count(), { timeout: 15_000 }).toBeGreaterThan(0);
    await expect.poll(() => hubReady(), { timeout: 15_000 }).toBe(true);
    const familyId = await familyIdOf(system, DEMO_ACCOUNT.email);
    const users = await apiCall<Array<{ id: string; userId: string }>>(
      system.url,
      `/api/run-lucky/device/app/family-user/get-list-by-family-id?familyId=${familyId}`,
      { token: owner.token },
    );
    const membership = users.result.find((u) => u.userId === member.userId);
    expect(membership).toBeDefined();
    member.phone.expectErrors(HUB_ENDED_LOG, "the removal ends her access to the household while its hub is connected");
    const removed = await apiCall(system.url, `/api/run-lucky/device/app/family-user/${membership?.id}`, {
      method: "DELETE",
      token: owner.token,
    });
    expect(removed.status).toBe(200);
    // The notice, in her language, names the household and the administrator who removed her (a dialog, not a toast).
    const notice = page.getByTestId("family-notice");
    await notice.waitFor({ timeout: 5_000 });
    expect(await notice.textContent()).toBe(
      messageMessages["zh-Hans"]["message.familyRemovedBy.content"]
        .replace("{administrator}", "Demo")
        .replace("{family}", "Home"),
    );
    expect(await page.getByTestId("message-toast").count()).toBe(0);
    // Her only household is gone: the app leaves Home for NoFamily without a reload.
    await page.getByTestId("no-family-screen").waitFor({ timeout: 10_000 });
  });

  it("infinite scroll over 45 messages: 15, 30, then 45 and done exactly at totalCount; pull-down shows a new one", async () => {
    const email = `reader-${Date.now()}@example.com`;
    await registerByEmail(system.url, email, "reader12", "en");
    const reader = await system.db
      .selectFrom("users")
      .select("id")
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    // 45 announcements through the server's own path (the `npm run announce` code), sent before the app opens.
    for (let i = 1; i <= 45; i++) {
      await system.app.messages.announce({
        title: `Notice ${i}`,
        content: `Announcement number ${i}`,
        userIds: [reader.id],
      });
    }
    const token = await accessToken(system.url, email, "reader12");
    // The server's whole list, newest first (announcements stored in the same millisecond are ordered by id).
    const serverIds = async () =>
      (
        await apiCall<TPaged<TMessage>>(system.url, `${LIST}?skipCount=0&maxResultCount=100`, { token })
      ).result.items.map((m) => m.id);
    const before = await serverIds();
    expect(before).toHaveLength(45);

    const phone = await launchPhone("en-US");
    try {
      await storeLanguage(phone.context, "en");
      const page = await phone.context.newPage();
      await signInOnPage(page, system.url, email, "reader12", "no-family-screen");
      // Every page request of the list (the unread badge asks for maxResultCount=1 and is left out).
      const skips: number[] = [];
      page.on("request", (req) => {
        const url = new URL(req.url());
        if (url.pathname === LIST && url.searchParams.get("maxResultCount") === "15") {
          skips.push(Number(url.searchParams.get("skipCount")));
        }
      });
      await openRoute(page, system.url, "/MessageDetails", { filter: "all" }, "message-centre-screen");
      const list = page.getByTestId("message-list");
      const footer = page.getByTestId("message-list-footer");
      await expect.poll(() => list.getAttribute("data-count"), { timeout: 10_000 }).toBe("15");
      // Without scrolling nothing more loads: once the first page's answer is in and shown (what would make the list
      // ask for more), only that page was asked for. The list of requests is checked again at the end.
      await settled(page);
      expect(skips).toEqual([0]);
      expect(await list.getAttribute("data-count")).toBe("15");
      expect(await footer.getAttribute("data-state")).toBe("more");
      const rowIds = () =>
        page.getByTestId("message-row").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-message-id")));
      // The server's order, page by page, nothing repeated or left out.
      expect(await rowIds()).toEqual(before.slice(0, 15));

      await footer.scrollIntoViewIfNeeded();
      await expect.poll(() => list.getAttribute("data-count"), { timeout: 10_000 }).toBe("30");
      expect(await rowIds()).toEqual(before.slice(0, 30));
      expect(await footer.getAttribute("data-state")).not.toBe("done");
      await footer.scrollIntoViewIfNeeded();
      await expect.poll(() => list.getAttribute("data-count"), { timeout: 10_000 }).toBe("45");
      await expect.poll(() => footer.getAttribute("data-state")).toBe("done");
      expect(await rowIds()).toEqual(before);
      // The third page was full: only totalCount ends the list, so no fourth request is sent (the scroll's answers
      // are in and shown when it is checked, and the whole list of requests once more at the end).
      await footer.scrollIntoViewIfNeeded();
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
      await settled(page);
      expect(skips).toEqual([0, 15, 30]);

      // A message that arrived without a live push (stored, delivery already claimed): pull-down refresh shows it.
      const now = new Date().toISOString();
      const sourceKey = `announcement:${randomUUID()}`;
      await system.db.transaction().execute(async (trx) => {
        await trx
          .insertInto("message_sources")
          .values({ source_key: sourceKey, kind: "announcement", device_id: null, created_at: now, published_at: now })
          .execute();
        await trx
          .insertInto("messages")
          .values({
            id: randomUUID(),
            user_id: reader.id,
            type: 3,
            event: null,
            title: "Notice 46",
            content: "Arrived while nobody listened",
            device_id: null,
            device_name: null,
            family_id: null,
            close_reason: null,
            source_key: sourceKey,
            is_read: 0,
            read_time: null,
            creation_time: now,
          })
          .execute();
      });
      // Nothing asks for it (the list's requests up to the pull-down are checked at the end).
      await settled(page);
      expect(await rowIds()).toEqual(before);
      const beforePull = skips.length;
      await pullDown(page);
      await expect
        .poll(() => page.getByTestId("message-row").first().textContent(), { timeout: 10_000 })
        .toContain("Notice 46");
      // The refresh reloads the three pages it had (now the 45 newest); totalCount 46 says one more is there.
      await expect.poll(() => list.getAttribute("data-count")).toBe("45");
      await expect.poll(() => footer.getAttribute("data-state")).toBe("more");
      await footer.scrollIntoViewIfNeeded();
      await expect.poll(() => list.getAttribute("data-count"), { timeout: 10_000 }).toBe("46");
      await expect.poll(() => footer.getAttribute("data-state")).toBe("done");
      const after = await serverIds();
      expect(after).toEqual([expect.any(String), ...before]);
      expect(await rowIds()).toEqual(after);
      // Every page request of the list, in order, until now: the three pages scrolled to, nothing before the
      // pull-down, the three pages the refresh reloads, and the page the last scroll asked for; a load that came
      // late shows here.
      expect(skips.slice(0, beforePull)).toEqual([0, 15, 30]);
      expect(skips.slice(beforePull)).toEqual([0, 15, 30, 45]);
    } finally {
      await phone.close();
    }
  });
});

/** Scrolls the list to its top and pulls it down with real touch events (Chrome DevTools Protocol), then releases. */
async function pullDown(page: Page): Promise<void> {
  await page.evaluate(() => {
    let el: Element | null = document.querySelector('[data-testid="message-list"]');
    while (el) {
      el.scrollTop = 0;
      el = el.parentElement;
    }
    window.scrollTo(0, 0);
  });
  const box = await page.getByTestId("message-list").boundingBox();
  if (!box) throw new Error("message-list is not visible");
  const x = box.x + box.width / 2;
  const y = box.y + 20;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x, y }] });
  for (let i = 1; i <= 12; i++) {
    await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: [{ x, y: y + i * 25 }] });
    await page.waitForTimeout(16); // pacing: one move a frame, as a finger drags
  }
  await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
  await cdp.detach();
}
