import { afterAll, describe, expect, it } from "vitest";
import {
  MQTT_BOUNDS,
  MQTT_MAX_PACKET_BYTES,
  MQTT_RECEIPT_MAX_IDS,
  REPORTED_SETTING_RULES,
  sanitizeReportedSettings,
  ZMqttAck,
  ZMqttEvent,
  ZMqttOtaParams,
  ZMqttReceipt,
  ZMqttState,
  ZMqttStatus,
  ZMqttTelemetry,
} from "./mqtt.ts";

const TS = "2026-03-10T08:00:00.000Z";
const figures = { refused: 0, dropped: 0 };
afterAll(() => {
  console.log(`mqtt schemas: ${figures.refused} hostile payloads refused, ${figures.dropped} setting keys dropped`);
});

/** A state report as the simulator sends it (docs/device-protocol.md §3.2). */
const STATE = {
  v: 1,
  ts: TS,
  station: 1,
  stationRemainingSeconds: 300,
  stationStartedAt: "2026-03-10T07:55:00.000Z",
  stationDurationSeconds: 600,
  serviceRemainingSeconds: 5000,
  remainingWaterL: 4500,
  capacityL: 4500,
  flowRateLpm: 6.5,
  totalWaterL: 12345.6,
  vacation: false,
  closeReason: null,
  firmwareVersion: "1.2.3",
  model: "AQ-S25",
  serialNumber: "RV0001",
  deviceSerialNumber: "AQ0001",
  regenerationCount: 12,
  settings: { resinVolume: 25, regeneratingTriggerTime: "02:00", currentTime: "", saltUsedKg: 36 },
};

describe("MQTT payload bounds", () => {
  it("accepts what a valve sends and normalises times to UTC with milliseconds", () => {
    const r = ZMqttState.parse({ ...STATE, ts: "2026-03-10T10:00:00+02:00" });
    expect(r.ts).toBe(TS);
    expect(r.settings).toEqual(STATE.settings);
    expect(ZMqttTelemetry.parse({ v: 1, ts: TS, totalWaterL: 10, flowRateLpm: 0, intervalWaterL: 2 }).ts).toBe(TS);
    expect(ZMqttStatus.parse({ v: 1, online: true }).online).toBe(true);
  });

  it("refuses the faulty-device probe's values: garbage times, 1e308, huge texts, control characters", () => {
    const refused: Array<[string, unknown]> = [
      ["garbage ts", { ...STATE, ts: "garbage-ts" }],
      ["impossible date", { ...STATE, ts: "2026-02-30T00:00:00Z" }],
      ["time as a number", { ...STATE, ts: 1_700_000_000_000 }],
      ["41-character time", { ...STATE, ts: `2026-03-10T08:00:00.${"1".repeat(20)}Z` }],
      ["1e308 water", { ...STATE, totalWaterL: 1e308 }],
      ["negative water", { ...STATE, remainingWaterL: -1 }],
      ["flow beyond any valve", { ...STATE, flowRateLpm: MQTT_BOUNDS.flowLpm + 1 }],
      ["station 9", { ...STATE, station: 9 }],
      ["fractional count", { ...STATE, regenerationCount: 1.5 }],
      ["a week and a second", { ...STATE, stationDurationSeconds: MQTT_BOUNDS.seconds + 1 }],
      ["65-character model", { ...STATE, model: "M".repeat(65) }],
      ["NUL in a serial number", { ...STATE, serialNumber: "RV\u00000001" }],
      ["escape sequence in firmware", { ...STATE, firmwareVersion: "\u001b[31m1.0" }],
      ["line break in the model", { ...STATE, model: "AQ\nS25" }],
      ["wrong version", { ...STATE, v: 2 }],
    ];
    for (const [why, payload] of refused) {
      expect(ZMqttState.safeParse(payload).success, why).toBe(false);
      figures.refused++;
    }
    const telemetry = { v: 1, ts: TS, totalWaterL: 100, flowRateLpm: 1, intervalWaterL: 1 };
    expect(ZMqttTelemetry.safeParse({ ...telemetry, intervalWaterL: 1e308 }).success).toBe(false);
    expect(ZMqttTelemetry.safeParse({ ...telemetry, intervalWaterL: 150 }).success).toBe(false); // more than the total
    const event = { v: 1, ts: TS, id: "e1", type: "station", station: 1 };
    expect(ZMqttEvent.safeParse(event).success).toBe(true);
    expect(ZMqttEvent.safeParse({ ...event, id: "e".repeat(MQTT_BOUNDS.idChars + 1) }).success).toBe(false);
    expect(ZMqttEvent.safeParse({ ...event, id: "" }).success).toBe(false);
    expect(ZMqttEvent.safeParse({ ...event, id: "a\u0000b" }).success).toBe(false);
    const ack = { v: 1, id: "c1", ts: TS, ok: false, error: "busy" };
    expect(ZMqttAck.safeParse(ack).success).toBe(true);
    expect(ZMqttAck.safeParse({ ...ack, error: "x".repeat(MQTT_BOUNDS.errorChars + 1) }).success).toBe(false);
  });

  it("keeps known settings within their rules and drops the rest", () => {
    const raw: Record<string, unknown> = {
      resinVolume: 25,
      washTime: 1e308, // beyond 99 min
      workPattern: 2.5, // not an integer
      rawWaterHardness: "250", // a string where a number belongs
      regeneratingTriggerTime: "24:00", // no such time
      washInitiationTime: "03:30",
      currentTime: "garbage",
      saltUsedKg: 12.5,
    };
    for (let i = 0; i < 500; i++) raw[`unknown${i}`] = i;
    const { settings, dropped } = sanitizeReportedSettings(raw);
    expect(settings).toEqual({ resinVolume: 25, washInitiationTime: "03:30", saltUsedKg: 12.5 });
    expect(dropped).toHaveLength(505);
    figures.dropped += dropped.length;
    expect(dropped).toEqual(
      expect.arrayContaining(["washTime", "workPattern", "rawWaterHardness", "regeneratingTriggerTime", "currentTime"]),
    );
    // Prototype keys are not settings and never reach the result's prototype.
    const polluted = JSON.parse('{"__proto__": {"resinVolume": 1}, "constructor": 5}');
    expect(sanitizeReportedSettings(polluted)).toEqual({ settings: {}, dropped: ["__proto__", "constructor"] });
    expect(Object.getPrototypeOf(sanitizeReportedSettings(polluted).settings)).toBe(Object.prototype);
    // Through the state schema: the report stays valid, only the bad settings are gone.
    expect(ZMqttState.parse({ ...STATE, settings: raw }).settings).toEqual(settings);
    expect(Object.keys(REPORTED_SETTING_RULES)).toHaveLength(27);
  });

  it("carries report ids and receipts within their bounds (docs/device-protocol.md §3.6)", () => {
    const record = { v: 1, ts: TS, totalWaterL: 10, flowRateLpm: 0, intervalWaterL: 2 };
    expect(ZMqttTelemetry.parse({ ...record, id: "r-1", resent: true })).toMatchObject({ id: "r-1", resent: true });
    expect(ZMqttTelemetry.parse(record).id).toBeUndefined(); // a record without one: older firmware
    for (const bad of [{ id: "" }, { id: "x".repeat(65) }, { id: "a\u0000b" }, { resent: false }, { resent: "yes" }]) {
      expect(ZMqttTelemetry.safeParse({ ...record, ...bad }).success, JSON.stringify(bad)).toBe(false);
    }
    const longest = Array.from({ length: MQTT_RECEIPT_MAX_IDS }, (_, i) =>
      String(i).padStart(MQTT_BOUNDS.idChars, "x"),
    );
    const receipt = ZMqttReceipt.parse({ v: 1, ts: TS, ids: longest });
    // The largest receipt fits a packet, topic and packet id included.
    expect(Buffer.byteLength(JSON.stringify(receipt)) + 64).toBeLessThan(MQTT_MAX_PACKET_BYTES);
    expect(ZMqttReceipt.safeParse({ v: 1, ts: TS, ids: [] }).success).toBe(false);
    expect(ZMqttReceipt.safeParse({ v: 1, ts: TS, ids: [...longest, "one-more"] }).success).toBe(false);
    expect(ZMqttReceipt.safeParse({ v: 1, ts: TS, ids: ["a\nb"] }).success).toBe(false);
  });
});

describe("ota command parameters (docs/device-protocol.md §3.7)", () => {
  const signed = {
    version: "1.2.0",
    url: "https://cloud.example.com/iot/v1/firmware/ab?device=02AA00000001&token=1.x",
    size: 4096,
    sha256: "a".repeat(64),
    signature: `${"A".repeat(86)}==`,
  };
  it("takes a signed image whole, or a version alone, or nothing", () => {
    expect(ZMqttOtaParams.safeParse(signed).success).toBe(true);
    expect(ZMqttOtaParams.safeParse({ version: "1.2.0" }).success).toBe(true);
    expect(ZMqttOtaParams.safeParse({}).success).toBe(true);
  });
  it("refuses an image with a field missing, a version missing, or a malformed hash, signature, size or URL", () => {
    const { signature: _s, ...unsigned } = signed;
    const { version: _v, ...versionless } = signed;
    for (const bad of [
      unsigned,
      versionless,
      { ...signed, sha256: "A".repeat(64) },
      { ...signed, signature: "c2lnbmF0dXJl" },
      { ...signed, size: 0 },
      { ...signed, size: 16 * 1024 * 1024 + 1 },
      { ...signed, url: "ftp://cloud.example.com/image" },
    ]) {
      expect(ZMqttOtaParams.safeParse(bad).success).toBe(false);
    }
  });
  it("names the four reasons an ota-failed event may give", () => {
    const failed = { v: 1, ts: TS, id: "e1", type: "ota-failed", progress: 80 };
    for (const reason of ["download", "hash", "signature", "boot"]) {
      expect(ZMqttEvent.safeParse({ ...failed, reason }).success).toBe(true);
    }
    expect(ZMqttEvent.safeParse({ ...failed, reason: "gremlins" }).success).toBe(false);
  });
});
