/**
 * Signed firmware updates of a simulated device on a real MQTT broker (Aedes on a free port) with the image served over
 * HTTP with `Range` (node:http on a free port): a good image installs; a corrupted download fails "hash", a bad
 * signature "signature", a failed boot rolls back with "boot" — each keeping the old version; a dropped connection
 * resumes with `Range`.
 */
import { createHash, generateKeyPairSync, randomUUID, sign } from "node:crypto";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { deviceTopic, MQTT_PROTOCOL_VERSION, type TMqttAck, type TMqttEvent } from "@aquapilot/contract";
import { Aedes } from "aedes";
import mqtt, { type MqttClient } from "mqtt";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SimulatedDevice } from "./device.ts";
import { defaultFirmwareKeys } from "./env.ts";
import { checkImage, downloadImage, type OtaFaults, parseVendorKeys } from "./ota-signed.ts";

const vendor = generateKeyPairSync("ed25519");
const vendorRaw = Buffer.from((vendor.publicKey.export({ format: "jwk" }) as { x: string }).x, "base64url");
const image = Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 7 + 3) & 0xff));
const sha256 = createHash("sha256").update(image).digest("hex");
const signature = sign(null, Buffer.from(sha256, "hex"), vendor.privateKey).toString("base64");

let broker: Aedes;
let mqttServer: net.Server;
let brokerUrl: string;
let cloud: MqttClient;
let httpServer: http.Server;
let imageUrl: string;
/** The `Range` header of every image request (null: none), in order. */
const ranges: Array<string | null> = [];
/** Resolves when the server sees a stalled image request's connection close (the device let go of it). */
let stalledClosed: () => void = () => {};
const inbox: Array<{ mac: string; channel: string; body: unknown }> = [];
const devices: SimulatedDevice[] = [];
let macSeq = 0;

beforeAll(async () => {
  broker = await Aedes.createBroker();
  mqttServer = net.createServer(broker.handle);
  await new Promise<void>((resolve) => mqttServer.listen(0, "127.0.0.1", resolve));
  brokerUrl = `mqtt://127.0.0.1:${(mqttServer.address() as AddressInfo).port}`;
  cloud = await mqtt.connectAsync(brokerUrl, { clientId: "test-cloud-ota", reconnectPeriod: 0 });
  await cloud.subscribeAsync("aq/v1/devices/+/+", { qos: 1 });
  cloud.on("message", (topic, payload) => {
    const [, , , mac, channel] = topic.split("/");
    inbox.push({ mac, channel, body: JSON.parse(payload.toString("utf8")) });
  });
  // A server with single-range support as HTTP (RFC 9110 §14) gives it: 206 with Content-Range for "bytes=n-".
  httpServer = http.createServer((req, res) => {
    const range = req.headers.range ?? null;
    ranges.push(range);
    const m = range ? /^bytes=(\d+)-$/.exec(range) : null;
    const from = m ? Number(m[1]) : 0;
    if (m) {
      res.writeHead(206, {
        "content-range": `bytes ${from}-${image.length - 1}/${image.length}`,
        "content-length": image.length - from,
      });
    } else {
      res.writeHead(200, { "content-length": image.length, "accept-ranges": "bytes" });
    }
    // "?stall": the first chunk, then nothing more (a slow link) until the device lets go.
    if (req.url?.includes("stall")) {
      res.on("close", () => stalledClosed());
      res.write(image.subarray(from, from + 16_384));
      return;
    }
    // In chunks, so a dropped connection stops part-way.
    let at = from;
    const pump = () => {
      while (at < image.length) {
        const next = Math.min(image.length, at + 16_384);
        const ok = res.write(image.subarray(at, next));
        at = next;
        if (!ok) return void res.once("drain", pump);
      }
      res.end();
    };
    pump();
  });
  await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  imageUrl = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/image.bin`;
});

afterAll(async () => {
  await Promise.all(devices.map((d) => d.stop()));
  await cloud?.endAsync();
  await new Promise<void>((resolve) => broker.close(() => resolve()));
  await new Promise<void>((resolve) => mqttServer.close(() => resolve()));
  httpServer.closeAllConnections();
  await new Promise<void>((resolve) => httpServer.close(() => resolve()));
});

async function startDevice(otaFaults: OtaFaults = {}, firmwareKeys = [vendorRaw.toString("base64")]) {
  macSeq += 1;
  const d = new SimulatedDevice({
    brokerUrl,
    mac: `02DF000000${String(macSeq).padStart(2, "0")}`,
    secret: "s",
    seed: 1,
    tickMs: 50,
    reconnectPeriodMs: 0,
    telemetryIntervalMs: 0,
    family: { persons: 0 },
    firmwareKeys,
    otaFaults,
  });
  devices.push(d);
  await d.start();
  return d;
}

interface Outcome {
  ok: boolean;
  reason: string | null;
  requests: number[];
}

/** Sends a signed "ota" for the test image and answers its ack and the update's outcome. */
async function update(d: SimulatedDevice, params: Record<string, unknown> = {}) {
  const ended = new Promise<Outcome>((resolve) => d.once("ota", resolve));
  const id = randomUUID();
  const body = {
    v: MQTT_PROTOCOL_VERSION,
    id,
    ts: new Date().toISOString(),
    name: "ota",
    params: { version: "2.0.0", url: imageUrl, size: image.length, sha256, signature, ...params },
  };
  await cloud.publishAsync(deviceTopic(d.mac, "cmd"), JSON.stringify(body), { qos: 1 });
  const outcome = await ended;
  // The ack travels through the broker; the outcome is the device's own event and may come first.
  const ack = await vi.waitFor(
    () => {
      const found = inbox.find((m) => m.mac === d.mac && m.channel === "ack" && (m.body as TMqttAck).id === id);
      if (!found) throw new Error(`no ack for ${id} yet`);
      return found.body as TMqttAck;
    },
    { timeout: 5_000, interval: 20 },
  );
  return { ack, outcome };
}

/** The device's firmware events received so far, as "type:progress[:reason]". */
function otaEvents(mac: string): string[] {
  return inbox
    .filter((m) => m.mac === mac && m.channel === "event")
    .map((m) => m.body as TMqttEvent)
    .filter((e) => e.type.startsWith("ota"))
    .map((e) => [e.type, e.progress, ...(e.reason ? [e.reason] : [])].join(":"));
}

describe("signed firmware update (docs/device-protocol.md §3.7)", () => {
  it("downloads, verifies hash and signature, installs and reports 0 → 100 %", async () => {
    const d = await startDevice();
    const { ack, outcome } = await update(d);
    expect(ack.ok).toBe(true);
    expect(outcome).toMatchObject({ ok: true, reason: null, requests: [0] });
    expect(d.firmwareVersion).toBe("2.0.0");
    await expect.poll(() => otaEvents(d.mac).at(-1)).toBe("ota-progress:100");
    const events = otaEvents(d.mac);
    expect(events[0]).toBe("ota-progress:0");
    expect(events.slice(-2)).toEqual(["ota-progress:90", "ota-progress:100"]);
    expect(events.every((e) => e.startsWith("ota-progress"))).toBe(true);
  });

  it('a corrupted download fails "hash" and keeps the old version', async () => {
    const d = await startDevice({ corrupt: true });
    const { outcome } = await update(d);
    expect(outcome).toMatchObject({ ok: false, reason: "hash" });
    expect(d.firmwareVersion).toBe("1.0.0");
    await expect.poll(() => otaEvents(d.mac).at(-1)).toBe("ota-failed:80:hash");
  });

  it('a signature by another key, or a forged one, fails "signature"', async () => {
    const other = generateKeyPairSync("ed25519");
    const foreign = sign(null, Buffer.from(sha256, "hex"), other.privateKey).toString("base64");
    const d = await startDevice();
    expect((await update(d, { signature: foreign })).outcome).toMatchObject({ ok: false, reason: "signature" });
    d.otaFaults = { badSignature: true };
    expect((await update(d)).outcome).toMatchObject({ ok: false, reason: "signature" });
    expect(d.firmwareVersion).toBe("1.0.0");
    // A device pinning no vendor key installs nothing signed.
    const bare = await startDevice({}, []);
    expect((await update(bare)).outcome).toMatchObject({ ok: false, reason: "signature" });
    await expect.poll(() => otaEvents(bare.mac).at(-1)).toBe("ota-failed:80:signature");
  });

  it("a device switched off mid-download closes the download: no further request, no outcome, nothing installed", async () => {
    const d = await startDevice();
    const before = ranges.length;
    const outcomes: unknown[] = [];
    d.on("ota", (o) => outcomes.push(o));
    const closed = new Promise<void>((resolve) => {
      stalledClosed = resolve;
    });
    const body = {
      v: MQTT_PROTOCOL_VERSION,
      id: randomUUID(),
      ts: new Date().toISOString(),
      name: "ota",
      params: { version: "2.0.0", url: `${imageUrl}?stall`, size: image.length, sha256, signature },
    };
    await cloud.publishAsync(deviceTopic(d.mac, "cmd"), JSON.stringify(body), { qos: 1 });
    await vi.waitFor(() => expect(ranges.length).toBe(before + 1), { timeout: 10_000 });
    await d.stop();
    // The stalled server never ends the response: only the device letting go closes it (else this wait times out).
    await closed;
    expect(ranges.length).toBe(before + 1);
    expect(outcomes).toEqual([]);
    expect(d.firmwareVersion).not.toBe("2.0.0");
    expect(d.otaInProgress).toBeNull();
  });

  it("a connection dropped half-way resumes with Range from the bytes held", async () => {
    const d = await startDevice({ dropAt: 0.5 });
    const before = ranges.length;
    const { outcome } = await update(d);
    expect(outcome.ok).toBe(true);
    expect(outcome.requests).toHaveLength(2);
    expect(outcome.requests[1]).toBeGreaterThan(0);
    expect(outcome.requests[1]).toBeLessThanOrEqual(image.length / 2);
    expect(ranges.slice(before)).toEqual([null, `bytes=${outcome.requests[1]}-`]);
    expect(d.firmwareVersion).toBe("2.0.0");
  });

  it('a failed boot rolls back to the old version and fails "boot"', async () => {
    const d = await startDevice({ bootFails: true });
    const { outcome } = await update(d);
    expect(outcome).toMatchObject({ ok: false, reason: "boot" });
    expect(d.firmwareVersion).toBe("1.0.0");
    await expect.poll(() => otaEvents(d.mac).at(-1)).toBe("ota-failed:90:boot");
  });

  it('an image that cannot be fetched fails "download"; the command\'s fields come together or not at all', async () => {
    const d = await startDevice();
    const { outcome } = await update(d, { url: `${imageUrl.replace(/:\d+\//, ":1/")}` });
    expect(outcome).toMatchObject({ ok: false, reason: "download" });
    expect(outcome.requests).toHaveLength(5);
    const id = randomUUID();
    const body = { v: 1, id, ts: new Date().toISOString(), name: "ota", params: { version: "2.0.0", url: imageUrl } };
    await cloud.publishAsync(deviceTopic(d.mac, "cmd"), JSON.stringify(body), { qos: 1 });
    await expect
      .poll(() => inbox.find((m) => m.channel === "ack" && (m.body as TMqttAck).id === id)?.body)
      .toMatchObject({ ok: false, error: "invalid-params" });
  });
});

describe("image checks", () => {
  const keys = parseVendorKeys([vendorRaw.toString("base64")]);
  it("checks the hash before the signature", () => {
    expect(checkImage(image, { sha256, signature }, keys)).toBeNull();
    expect(checkImage(image.subarray(1), { sha256, signature }, keys)).toBe("hash");
    expect(
      checkImage(image, { sha256, signature: signature.replace(/^./, (c) => (c === "A" ? "B" : "A")) }, keys),
    ).toBe("signature");
    expect(checkImage(image, { sha256, signature }, [])).toBe("signature");
  });

  it("accepts a PEM vendor key as well as the raw base64 key", () => {
    const pem = vendor.publicKey.export({ format: "pem", type: "spki" }) as string;
    expect(checkImage(image, { sha256, signature }, parseVendorKeys([pem]))).toBeNull();
    expect(() => parseVendorKeys(["AAAA"])).toThrow();
  });

  it("`npm run sim` pins FIRMWARE_SIGNING_PUBLIC_KEYS, else the development vendor key of ./data, else none", () => {
    const raw = vendorRaw.toString("base64");
    expect(defaultFirmwareKeys({ FIRMWARE_SIGNING_PUBLIC_KEYS: ` ${raw} ,` })).toEqual([raw]);
    const privatePem = vendor.privateKey.export({ format: "pem", type: "pkcs8" }) as string;
    const fromFile = defaultFirmwareKeys({}, () => privatePem);
    expect(checkImage(image, { sha256, signature }, parseVendorKeys(fromFile))).toBeNull();
    const missing = () => {
      throw new Error("ENOENT");
    };
    expect(defaultFirmwareKeys({}, missing)).toEqual([]);
  });

  it("an image longer than announced is refused", async () => {
    expect((await downloadImage(imageUrl, image.length - 1)).bytes).toBeNull();
    expect((await downloadImage(imageUrl, image.length)).bytes?.equals(image)).toBe(true);
  });
});
