import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { endpoints } from "@aquapilot/contract";
import { DEMO_ACCOUNT, type DevSystem, startDevSystem } from "@aquapilot/dev";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../../../test/call.ts";
import { loadConfig } from "../../config.ts";
import {
  loadOrCreateDevSigningKey,
  signFirmwareDigest,
  trustedFirmwareKeys,
  uploadFirmware,
} from "../firmware/index.ts";

/**
 * Signed firmware updates through the whole system (docs/device-protocol.md §3.7): the launcher's simulated softener
 * pins the development vendor key, downloads the uploaded image from the server over HTTP, verifies and installs it;
 * a corrupted download and a bad signature fail with their reason, seen by query-ota-version, the version unchanged.
 */
describe("signed firmware update with a real broker, the HTTP download and a simulated softener", () => {
  let system: DevSystem;
  let dataDir: string;
  let token: string;
  let device: { id: string; mac: string; model: string | null };

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "aq-ota-signed-"));
    const config = loadConfig({
      APP_ENV: "test",
      PORT: "0",
      MQTT_PORT: "0",
      DATA_DIR: dataDir,
      SIM_DEVICES: "1",
      SIM_TIME_SCALE: "1",
      LOG_LEVEL: "silent",
    });
    system = await startDevSystem(config);
    // The download URL names the configured port (PORT 0 here: the port the server was given).
    system.app.config.PORT = Number(new URL(system.url).port);
    const res = await fetch(`${system.url}/connect/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "password",
        username: DEMO_ACCOUNT.email,
        password: DEMO_ACCOUNT.password,
      }),
    });
    token = ((await res.json()) as { access_token: string }).access_token;
    device = await system.db.selectFrom("devices").select(["id", "mac", "model"]).executeTakeFirstOrThrow();
    for (let i = 0; i < 100; i++) {
      const online = await system.db.selectFrom("device_state").select("online").executeTakeFirst();
      if (online?.online === 1) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const image = Buffer.alloc(64 * 1024, 0x42);
    const sha256 = createHash("sha256").update(image).digest("hex");
    await uploadFirmware(
      { db: system.db, dataDir, trustedKeys: trustedFirmwareKeys(system.app.config), now: () => new Date() },
      {
        model: device.model ?? "",
        version: "1.5.0",
        bytes: image,
        signature: signFirmwareDigest(loadOrCreateDevSigningKey(dataDir).privateKey, sha256),
      },
    );
  });

  afterAll(async () => {
    await system?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const otaVersion = async () =>
    (await call(system, endpoints.queryOtaVersion, { as: token, query: { deviceId: device.id } })).body.result;

  const update = async () => {
    const sim = system.fleet.devices.find((d) => d.mac === device.mac);
    const ended = new Promise<{ ok: boolean; reason: string | null }>((resolve) => sim?.once("ota", resolve));
    const r = await call(system, endpoints.deviceOta, { as: token, query: { deviceId: device.id } });
    expect(r.body.result).toMatchObject({ status: "done" });
    return ended;
  };

  it("a corrupted download and a bad signature fail with their reason; the good image installs", async () => {
    const sim = system.fleet.devices.find((d) => d.mac === device.mac);
    if (!sim) throw new Error("the simulated softener is missing");
    expect(await otaVersion()).toMatchObject({
      currentVersion: "1.0.0",
      latestVersion: "1.5.0",
      updateAvailable: true,
    });

    sim.otaFaults = { corrupt: true };
    expect(await update()).toMatchObject({ ok: false, reason: "hash" });
    await expect.poll(otaVersion, { timeout: 10_000 }).toMatchObject({ otaStatus: "failed", otaError: "hash" });
    expect(sim.firmwareVersion).toBe("1.0.0");

    sim.otaFaults = { badSignature: true };
    expect(await update()).toMatchObject({ ok: false, reason: "signature" });
    await expect.poll(otaVersion, { timeout: 10_000 }).toMatchObject({ otaStatus: "failed", otaError: "signature" });

    sim.otaFaults = { dropAt: 0.5 };
    expect(await update()).toMatchObject({ ok: true, reason: null });
    await expect.poll(otaVersion, { timeout: 15_000 }).toMatchObject({
      otaStatus: "done",
      otaError: null,
      progress: 100,
      currentVersion: "1.5.0",
      updateAvailable: false,
    });
  });
});
