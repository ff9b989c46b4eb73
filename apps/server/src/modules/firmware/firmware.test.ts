/**
 * Signed firmware images (docs/device-protocol.md §3.7 "Firmware update") on a real database: the upload's refusals,
 * the development vendor key, the device download with its token and HTTP ranges, and the `ota` command's parameters.
 */
import { createHash, generateKeyPairSync } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { ZMqttOtaParams } from "@aquapilot/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/helpers.ts";
import { loadOrCreateSecret } from "../../auth/secrets.ts";
import { AppError } from "../../http/errors.ts";
import { startOta } from "../device-control/service.ts";
import { provisionDevice } from "../devices/index.ts";
import { firmwareDownloadUrl } from "./routes.ts";
import { FIRMWARE_DIR, listFirmware, trustedFirmwareKeys, uploadFirmware } from "./service.ts";
import {
  DEV_SIGNING_DIR,
  DEV_SIGNING_KEY_FILE,
  DOWNLOAD_KEY_FILE,
  downloadToken,
  loadOrCreateDevSigningKey,
  parseTrustedKeys,
  rawPublicKeyBase64,
  signFirmwareDigest,
} from "./signing.ts";

const image = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 31 + 7) & 0xff));
const sha256 = createHash("sha256").update(image).digest("hex");

describe("firmware images", () => {
  let t: TestApp;
  let clock = new Date("2026-03-01T10:00:00Z");
  let deps: Parameters<typeof uploadFirmware>[0];
  let devSigned: string;

  beforeAll(async () => {
    t = await createTestApp({ now: () => clock });
    deps = { db: t.db, dataDir: t.config.DATA_DIR, trustedKeys: trustedFirmwareKeys(t.config), now: () => clock };
    devSigned = signFirmwareDigest(loadOrCreateDevSigningKey(t.config.DATA_DIR).privateKey, sha256);
  });
  afterAll(() => t.close());

  const refusal = async (input: Parameters<typeof uploadFirmware>[1]) => {
    try {
      await uploadFirmware(deps, input);
    } catch (err) {
      if (err instanceof AppError) return err.messageKey;
      throw err;
    }
    return "accepted";
  };

  it("creates the development vendor key once, owner-only, and trusts it outside production only", () => {
    const file = path.join(t.config.DATA_DIR, DEV_SIGNING_DIR, DEV_SIGNING_KEY_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const again = loadOrCreateDevSigningKey(t.config.DATA_DIR);
    expect(rawPublicKeyBase64(again.publicKey)).toBe(rawPublicKeyBase64(deps.trustedKeys[0]));
    expect(trustedFirmwareKeys({ ...t.config, APP_ENV: "production" })).toEqual([]);
    const vendor = generateKeyPairSync("ed25519").publicKey;
    const configured = trustedFirmwareKeys({ ...t.config, FIRMWARE_SIGNING_PUBLIC_KEYS: rawPublicKeyBase64(vendor) });
    expect(configured.map(rawPublicKeyBase64)).toEqual([rawPublicKeyBase64(vendor)]);
  });

  it("reads PEM and raw base64 keys, comma separated, and names a bad entry", () => {
    const a = generateKeyPairSync("ed25519").publicKey;
    const b = generateKeyPairSync("ed25519").publicKey;
    const pem = b.export({ format: "pem", type: "spki" }) as string;
    expect(parseTrustedKeys(`${rawPublicKeyBase64(a)}, ${pem}`).map(rawPublicKeyBase64)).toEqual([
      rawPublicKeyBase64(a),
      rawPublicKeyBase64(b),
    ]);
    expect(() => parseTrustedKeys(`${rawPublicKeyBase64(a)},AAAA`)).toThrow(/entry 2/);
    const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 }).publicKey.export({ format: "pem", type: "spki" });
    expect(() => parseTrustedKeys(String(rsa))).toThrow(/Ed25519/);
  });

  it("refuses an unsigned or wrongly signed image, a wrong size or hash, and keeps nothing of them", async () => {
    const base = { model: "AQ-S25", version: "1.2.0", bytes: image };
    expect(await refusal(base)).toBe("firmware.unsigned");
    const stranger = generateKeyPairSync("ed25519").privateKey;
    expect(await refusal({ ...base, signature: signFirmwareDigest(stranger, sha256) })).toBe("firmware.badSignature");
    const otherDigest = createHash("sha256").update("other").digest("hex");
    expect(await refusal({ ...base, signature: signFirmwareDigest(stranger, otherDigest) })).toBe(
      "firmware.badSignature",
    );
    expect(await refusal({ ...base, signature: "not base64 at all" })).toBe("firmware.badSignature");
    expect(await refusal({ ...base, signature: devSigned, size: image.length + 1 })).toBe("firmware.sizeMismatch");
    expect(await refusal({ ...base, signature: devSigned, sha256: otherDigest })).toBe("firmware.hashMismatch");
    expect(await refusal({ ...base, version: "latest", signature: devSigned })).toBe("firmware.badVersion");
    expect(await refusal({ ...base, model: "../etc", signature: devSigned })).toBe("firmware.badModel");
    expect(await refusal({ ...base, bytes: new Uint8Array(0), signature: devSigned })).toBe("firmware.empty");
    expect(await listFirmware(t.db)).toEqual([]);
    expect(fs.existsSync(path.join(t.config.DATA_DIR, FIRMWARE_DIR, sha256))).toBe(false);
  });

  it("stores a signed image by its hash; the same upload again is accepted, other bytes for the version are not", async () => {
    const stored = await uploadFirmware(deps, {
      model: "AQ-S25",
      version: "1.2.0",
      bytes: image,
      size: image.length,
      sha256: sha256.toUpperCase(),
      signature: devSigned,
    });
    expect(stored).toMatchObject({ model: "AQ-S25", version: "1.2.0", size: 5000, sha256, signature: devSigned });
    const file = path.join(t.config.DATA_DIR, FIRMWARE_DIR, sha256);
    expect(fs.readFileSync(file).equals(image)).toBe(true);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(
      await uploadFirmware(deps, { model: "AQ-S25", version: "1.2.0", bytes: image, signature: devSigned }),
    ).toEqual(stored);
    const other = Buffer.concat([image, Buffer.from([1])]);
    const otherSha = createHash("sha256").update(other).digest("hex");
    const otherSigned = signFirmwareDigest(loadOrCreateDevSigningKey(t.config.DATA_DIR).privateKey, otherSha);
    expect(await refusal({ model: "AQ-S25", version: "1.2.0", bytes: other, signature: otherSigned })).toBe(
      "firmware.duplicate",
    );
    await uploadFirmware(deps, { model: "AQ-S25", version: "1.10.0", bytes: other, signature: otherSigned });
    expect((await listFirmware(t.db)).map((i) => i.version)).toEqual(["1.10.0", "1.2.0"]);
  });

  it("starts with DATA_DIR given relative to the working directory (the launcher's default ./data)", async () => {
    const relative = path.relative(process.cwd(), t.config.DATA_DIR);
    expect(path.isAbsolute(relative)).toBe(false);
    const again = await createTestApp({ env: { DATA_DIR: relative } });
    try {
      const missing = await again.app.inject({ method: "GET", url: `/iot/v1/firmware/${sha256}` });
      expect(missing.statusCode).toBeGreaterThanOrEqual(400);
      expect(missing.statusCode).toBeLessThan(500);
    } finally {
      await again.close();
    }
  });

  describe("download (GET /iot/v1/firmware/{sha256})", () => {
    const key = () => loadOrCreateSecret(t.config.DATA_DIR, DOWNLOAD_KEY_FILE);
    const url = (mac: string, sha = sha256, expires = new Date(clock.getTime() + 3600_000)) =>
      new URL(firmwareDownloadUrl("http://x", sha, mac, downloadToken(key(), mac, sha, expires)));
    const get = (u: URL, headers: Record<string, string> = {}) =>
      t.app.inject({ method: "GET", url: `${u.pathname}${u.search}`, headers });

    it("serves the whole image, then any range of it (206 with Content-Range), for a resumed download", async () => {
      const whole = await get(url("02AA00000001"));
      expect(whole.statusCode).toBe(200);
      expect(whole.headers["accept-ranges"]).toBe("bytes");
      expect(whole.rawPayload.equals(image)).toBe(true);
      const rest = await get(url("02AA00000001"), { range: "bytes=2500-" });
      expect(rest.statusCode).toBe(206);
      expect(rest.headers["content-range"]).toBe("bytes 2500-4999/5000");
      expect(rest.rawPayload.equals(image.subarray(2500))).toBe(true);
      const middle = await get(url("02AA00000001"), { range: "bytes=10-19" });
      expect(middle.statusCode).toBe(206);
      expect(middle.rawPayload.equals(image.subarray(10, 20))).toBe(true);
      expect((await get(url("02AA00000001"), { range: "bytes=6000-" })).statusCode).toBe(416);
    });

    it("refuses another device's URL, a changed token, an expired one and an unknown image", async () => {
      const mine = url("02AA00000001");
      const theirs = new URL(mine);
      theirs.searchParams.set("device", "02AA00000002");
      expect((await get(theirs)).statusCode).toBe(401);
      expect((await get(theirs)).json()).toEqual({ error: "invalid-token" });
      const changed = new URL(mine);
      const token = mine.searchParams.get("token") ?? "";
      // Another last character (the token ends with "A" once in 64 URLs: "A" again would change nothing).
      changed.searchParams.set("token", `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`);
      expect((await get(changed)).statusCode).toBe(401);
      expect((await get(new URL(mine.href.replace(/token=[^&]*/, "")))).statusCode).toBe(401);
      const soon = url("02AA00000001", sha256, new Date(clock.getTime() + 60_000));
      expect((await get(soon)).statusCode).toBe(200);
      clock = new Date(clock.getTime() + 61_000);
      expect((await get(soon)).json()).toEqual({ error: "expired-token" });
      const unknown = "0".repeat(64);
      expect((await get(url("02AA00000001", unknown))).statusCode).toBe(404);
    });
  });

  it("the ota command carries the newest image for the device's model, with a URL for that device", async () => {
    const { id } = await provisionDevice(t.db, {
      mac: "02AA00000009",
      secret: "s3cret-s3cret",
      model: "AQ-S25",
      name: "S25",
    });
    const r = await startOta(t.app, { deviceId: id, userId: "u", lang: "en" });
    expect(r.status).toBe("done");
    const sent = t.devices.calls.at(-1);
    expect(sent?.name).toBe("ota");
    const params = ZMqttOtaParams.parse(sent?.params);
    const newest = (await listFirmware(t.db))[0];
    expect(params).toMatchObject({
      version: "1.10.0",
      size: newest.size,
      sha256: newest.sha256,
      signature: newest.signature,
    });
    const u = new URL(params.url ?? "");
    expect(u.searchParams.get("device")).toBe("02AA00000009");
    const res = await t.app.inject({ method: "GET", url: `${u.pathname}${u.search}`, headers: { range: "bytes=0-" } });
    expect(res.statusCode).toBe(206);
    expect(createHash("sha256").update(res.rawPayload).digest("hex")).toBe(newest.sha256);
    // A model with no image uploaded gets the version only (development), from the shipped table.
    const { id: other } = await provisionDevice(t.db, {
      mac: "02AA0000000A",
      secret: "s3cret-s3cret",
      model: "AQ-X9",
      name: "X9",
    });
    await startOta(t.app, { deviceId: other, userId: "u", lang: "en" });
    expect(t.devices.calls.at(-1)?.params).toEqual({ version: "1.1.0" });
    // Production sends no update without a signed image for it.
    const production = Object.assign(Object.create(t.app), { config: { ...t.config, APP_ENV: "production" } });
    const { id: third } = await provisionDevice(t.db, {
      mac: "02AA0000000B",
      secret: "s3cret-s3cret",
      model: "AQ-X9",
      name: "X9",
    });
    const callsBefore = t.devices.calls.length;
    await expect(startOta(production, { deviceId: third, userId: "u", lang: "en" })).rejects.toMatchObject({
      messageKey: "deviceControl.noImage",
    });
    expect(t.devices.calls.length).toBe(callsBefore);
  });
});
