import fs from "node:fs";
import path from "node:path";
import type { DevSystem } from "@aquapilot/dev";
import type { SimulatedDevice } from "@aquapilot/device-sim";
import { isPostgres } from "@aquapilot/server/db/engine.ts";
import { mosquittoRequirements, startMosquitto, type TestMosquitto } from "@aquapilot/server/test/mosquitto.ts";
import { findPgBin, startThrowawayPostgres } from "@aquapilot/server/test/postgres-server.ts";
import { skipUnlessInstalled } from "@aquapilot/server/test/required-programs.ts";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchPhone, type Phone, signInAsDemo, storeLanguage } from "../support/browser.ts";
import { startTestSystem } from "../support/system.ts";

const skip = skipUnlessInstalled("the production shape in Chromium (PostgreSQL, Mosquitto)", [
  {
    program: "PostgreSQL",
    found: findPgBin(),
    detail: "no PostgreSQL binaries under /usr/lib/postgresql/*/bin",
    debianPackage: "postgresql",
  },
  ...mosquittoRequirements(),
]);

/**
 * A smoke test of the shape production runs in (docs/deploy.md), in Chromium: the whole system (`startTestSystem`, as
 * `npm start` does) on a throwaway PostgreSQL cluster (DATABASE_URL, test/postgres-server.ts) and an external Mosquitto with dynamic security
 * (MQTT_URL with the gateway's account, MQTT_BROKER_KIND=mosquitto-dynsec), the simulated softeners connecting through
 * that Mosquitto with the accounts the server provisioned. The demo owner signs in; Home shows the devices online
 * with the figures they reported and follows a regeneration live; the Device screen opens from a card; vacation mode
 * is shown only once the device applied it; a reload on the Device route keeps the screen and the state.
 */
describe.skipIf(skip)("the production shape in Chromium: PostgreSQL and Mosquitto", () => {
  let pgServer: { url: string; stop: () => void } | undefined;
  let mosquitto: TestMosquitto | undefined;
  let system: DevSystem;
  let phone: Phone;
  let page: Page;

  beforeAll(async () => {
    // A cluster of its own, migrated into its maintenance database (the cluster is deleted afterwards).
    pgServer = await startThrowawayPostgres(findPgBin()!);
    mosquitto = await startMosquitto();
    system = await startTestSystem({
      DATABASE_URL: pgServer.url,
      MQTT_URL: mosquitto.gatewayUrl,
      MQTT_BROKER_KIND: "mosquitto-dynsec",
      SIM_DEVICES: "2",
    });
    phone = await launchPhone("en-US");
    await storeLanguage(phone.context, "en");
    page = await phone.context.newPage();
  });
  afterAll(async () => {
    await phone?.close();
    await system?.close();
    await mosquitto?.close();
    pgServer?.stop();
  });

  /** The simulated softener behind the device `deviceId` of the system's database. */
  async function simOf(deviceId: string): Promise<SimulatedDevice> {
    const row = await system.db
      .selectFrom("devices")
      .select("mac")
      .where("id", "=", deviceId)
      .executeTakeFirstOrThrow();
    const sim = system.fleet.get(row.mac);
    if (!sim) throw new Error(`no simulated device ${row.mac}`);
    return sim;
  }

  it("runs on PostgreSQL, and the softeners connect through Mosquitto with the accounts the server made", async () => {
    expect(isPostgres(system.db)).toBe(true);
    const macs = system.fleet.devices.map((d) => d.mac).sort();
    expect(macs).toHaveLength(2);
    // Mosquitto's own log names every client it let in: each softener under its MAC, beside the gateway.
    await expect
      .poll(() => {
        const log = fs.readFileSync(path.join(mosquitto!.dir, "mosquitto.log"), "utf8");
        return macs.filter((mac) => new RegExp(`New client connected from .* as ${mac} .*u'${mac}'`).test(log));
      })
      .toEqual(macs);
    const clients = await mosquitto!.dynsec("listClients");
    for (const mac of macs) expect(clients).toContain(mac);
  });

  it("the demo owner signs in; Home shows the devices online with their reported figures, and follows them live", async () => {
    await signInAsDemo(page, system.url);
    const cards = page.getByTestId("device-card");
    await expect.poll(() => cards.count(), { timeout: 15_000 }).toBe(2);
    await expect
      .poll(() => page.locator('[data-testid="device-card"][data-online="true"]').count(), { timeout: 15_000 })
      .toBe(2);
    // Each card's water left is what its softener last reported, as stored in PostgreSQL.
    const ids = await cards.evaluateAll((els) => els.map((el) => el.getAttribute("data-device-id") ?? ""));
    for (const id of ids) {
      const stored = async () =>
        (
          await system.db
            .selectFrom("device_state")
            .select("remaining_water_l")
            .where("device_id", "=", id)
            .executeTakeFirst()
        )?.remaining_water_l ?? null;
      const shown = page.locator(
        `[data-testid="device-card"][data-device-id="${id}"] [data-testid="device-water-left"]`,
      );
      await expect
        .poll(
          async () => {
            // Litres between the card and the report (the simulated valve keeps drawing water); none shown: Infinity.
            const [value, reported] = [await shown.getAttribute("data-value"), await stored()];
            return value && reported !== null ? Math.abs(Number(value) - reported) : Number.POSITIVE_INFINITY;
          },
          { timeout: 15_000 },
        )
        .toBeLessThanOrEqual(1);
    }
    await expect.poll(() => page.getByTestId("home-water-today").getAttribute("data-value")).not.toBe("");
    // A regeneration started on a softener shows on its card without a reload.
    const card = page.locator(`[data-testid="device-card"][data-device-id="${ids[0]}"]`);
    expect(await card.getAttribute("data-station")).toBe("0");
    (await simOf(ids[0])).startRegeneration();
    await expect.poll(() => card.getAttribute("data-station"), { timeout: 15_000 }).not.toBe("0");
  });

  it("vacation mode sent from the Device screen shows only once the device applied it; a reload keeps the screen", async () => {
    const card = page.locator('[data-testid="device-card"]').nth(1);
    const deviceId = (await card.getAttribute("data-device-id"))!;
    const sim = await simOf(deviceId);
    await card.click();
    await page.getByTestId("device-screen").waitFor({ timeout: 15_000 });
    await expect.poll(() => page.locator(".device-page").getAttribute("data-device-id")).toBe(deviceId);
    expect(await page.getByTestId("device-vacation").count()).toBe(0);

    // The softener is slow: it holds the commands it receives until released (as a device busy with its valve).
    const held: Buffer[] = [];
    const device = sim as unknown as { onCommand: (payload: Buffer) => void };
    const apply = device.onCommand.bind(sim);
    device.onCommand = (payload) => void held.push(payload);
    try {
      await page.getByTestId("control-vacation-enter").click();
      await page.locator(".adm-dialog-footer button").last().click();
      await expect.poll(() => held.length, { timeout: 15_000 }).toBe(1);
      await expect.poll(() => page.getByTestId("device-command-status").getAttribute("data-status")).toBe("pending");
      // Received, not applied: the screen does not show the vacation yet.
      await new Promise((r) => setTimeout(r, 1000));
      expect(await page.getByTestId("device-vacation").count()).toBe(0);
      expect(sim.valve.snapshot().vacation).toBe(false);
    } finally {
      device.onCommand = apply;
    }
    for (const payload of held.splice(0)) apply(payload);
    await expect
      .poll(() => page.getByTestId("device-command-status").getAttribute("data-status"), { timeout: 15_000 })
      .toBe("done");
    await page.getByTestId("device-vacation").waitFor({ timeout: 15_000 });
    expect(sim.valve.snapshot().vacation).toBe(true);

    // A reload on the deep route keeps the Device screen of that device, its state read back from PostgreSQL.
    const route = page.url();
    expect(route).toContain(deviceId);
    await page.reload();
    await page.getByTestId("device-screen").waitFor({ timeout: 15_000 });
    expect(page.url()).toBe(route);
    await expect.poll(() => page.locator(".device-page").getAttribute("data-device-id")).toBe(deviceId);
    await page.getByTestId("device-vacation").waitFor({ timeout: 15_000 });
  });
});
