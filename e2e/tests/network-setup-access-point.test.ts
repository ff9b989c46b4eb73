import type { DevSystem } from "@aquapilot/dev";
import { SMART_SETUP_STEPS } from "@aquapilot/provisioning";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import setupEn from "../../apps/web/src/features/network-setup/locales/en.json" with { type: "json" };
import { openRoute, signInOnPage } from "../support/api.ts";
import { launchPhone, newPageIn, type Phone } from "../support/browser.ts";
import {
  freeUdpPorts,
  type NewOwner,
  newOwnerWithFamily,
  startModule,
  type TestModule,
} from "../support/setup-mode.ts";
import { startTestSystem } from "../support/system.ts";

const T = setupEn.networkSetup;

/**
 * Network setup of an old module (access point and UDP) in Chromium: without a native shell the app uses the
 * server's development bridge, which plays the phone's Wi-Fi and sends the BroadLink packets to the simulated module
 * on loopback (docs/device-protocol.md §13.3, §13.6). Success with either firmware — stock (no join acknowledgement,
 * the 0x80-byte hello answer; the cloud's setup ticket tells the outcome) and the product's (hello extension) — and
 * the failures of the smart flow the bridge can provoke (spec §4; "connection timed out", the bridge failing to send
 * the join packet, is unit-tested in smart-flow.test.ts).
 */
describe("network setup of an old module through the development bridge", () => {
  let system: DevSystem;
  let phone: Phone;
  let page: Page;
  let owner: NewOwner;
  let ports: [number, number];
  let module: TestModule | null = null;

  beforeAll(async () => {
    ports = await freeUdpPorts();
    system = await startTestSystem({
      SIM_DEVICES: "0",
      SIM_AP_UDP_PORT: String(ports[0]),
      SIM_LAN_UDP_PORT: String(ports[1]),
    });
    owner = await newOwnerWithFamily(system, "ap-owner");
    phone = await launchPhone("en-US");
    page = await newPageIn(phone.context, "en");
    await signInOnPage(page, system.url, owner.email, owner.password);
  });
  afterEach(async () => {
    await module?.stop();
    module = null;
  });
  afterAll(async () => {
    await phone?.close();
    await system?.close();
  });

  async function newModule(failure?: string, firmware: "stock" | "product" = "stock"): Promise<TestModule> {
    module = await startModule(system, { generation: "old", firmware, failure, apPort: ports[0], lanPort: ports[1] });
    return module;
  }

  async function connect(password = "softwater24"): Promise<void> {
    await openRoute(
      page,
      system.url,
      "/DeviceNetwork",
      { familyId: owner.familyId, step: "wifi", mode: "ap" },
      "network-setup-wifi",
    );
    await expect.poll(() => page.getByTestId("network-setup-wifi").getAttribute("data-bridge")).toBe("dev");
    await expect.poll(() => page.getByTestId("network-setup-current-wifi").getAttribute("data-ssid")).toBe("AquaHome");
    await page.getByTestId("network-setup-wifi-name").fill("AquaHome");
    await page.getByTestId("network-setup-wifi-password").fill(password);
    await page.getByTestId("network-setup-connect").click();
    await page.getByTestId("network-setup-progress").waitFor();
  }

  async function expectFailure(code: number, timeout: number): Promise<void> {
    const failure = page.getByTestId("network-setup-failure");
    await failure.waitFor({ timeout });
    expect(await failure.getAttribute("data-code")).toBe(String(code));
    expect(await page.getByTestId("network-setup-failure-text").textContent()).toBe(
      T.progress.smartFailures[String(code) as keyof typeof T.progress.smartFailures],
    );
    expect(await page.getByTestId("network-setup-failure-hint").textContent()).toBe(
      T.progress.smartHints[String(code) as keyof typeof T.progress.smartHints],
    );
  }

  // Every step shows as walked with either firmware: the progress list marks the steps before the active one done
  // (a stock module goes from "connected to Wi-Fi" to "adding" when its activation with the ticket arrives).
  it.each(["stock", "product"] as const)(
    "adds the device with %s firmware: ticket, access point, join packet, discovery, server, binding",
    async (firmware) => {
      const { device } = await newModule(undefined, firmware);
      await connect();
      // Every step of the smart flow is walked, in order, and the last one is "Device added successfully".
      const seen = new Set<string>();
      await expect
        .poll(
          async () => {
            // One snapshot of every step's state (elements vanish when the name step opens).
            const states = await page.$$eval('[data-testid="network-setup-step"]', (els) =>
              els.map((e) => [e.getAttribute("data-step"), e.getAttribute("data-state")]),
            );
            for (const [step, state] of states) if (state === "done" || state === "active") seen.add(step ?? "");
            return page.getByTestId("device-network-name-screen").isVisible();
          },
          { timeout: 30_000, interval: 50 },
        )
        .toBe(true);
      expect([...seen].filter((s) => s !== "added")).toEqual(SMART_SETUP_STEPS.filter((s) => s !== "added"));
      const row = await system.db
        .selectFrom("devices")
        .select("family_id")
        .where("mac", "=", device.mac)
        .executeTakeFirst();
      expect(row?.family_id).toBe(owner.familyId);
      // The module activated with the setup ticket the app put into the join packet.
      const ticket = await system.db
        .selectFrom("setup_tickets")
        .innerJoin("devices", "devices.id", "setup_tickets.device_id")
        .select("setup_tickets.family_id")
        .where("devices.mac", "=", device.mac)
        .executeTakeFirst();
      expect(ticket?.family_id).toBe(owner.familyId);
      expect(device.softener?.connected).toBe(true);
      // The simulated phone is back on its home network.
      const wifi = (await (await fetch(`${system.url}/dev/bridge/wifi`)).json()) as { ssid: string };
      expect(wifi.ssid).toBe("AquaHome");
    },
  );

  it("initialization failed: the device's access point cannot be joined", async () => {
    await newModule("init");
    await connect();
    await expectFailure(1, 15_000);
  });

  it("device failed to connect to the server: the product's hello answer reports its cloud failure", async () => {
    await newModule("server", "product");
    await connect();
    await expectFailure(4, 20_000);
  });

  it("failed to find device: the module ignores the join packet and never appears", async () => {
    await newModule("timeout");
    await connect();
    // The app searches for 60 s before it gives up (docs/device-protocol.md §13.3).
    await expectFailure(3, 80_000);
  }, 120_000);
});
