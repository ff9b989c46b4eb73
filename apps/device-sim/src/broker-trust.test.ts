import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { brokerTlsOptions, pinBrokerCa, pinnedBrokerCas } from "./broker-trust.ts";
import { defaultBrokerCaFile } from "./env.ts";

/** What a simulated module pins for an mqtts:// broker (docs/device-protocol.md "Transport security"). */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "aq-sim-trust-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const PEM_A = "-----BEGIN CERTIFICATE-----\nQQ==\n-----END CERTIFICATE-----\n";
const PEM_B = "-----BEGIN CERTIFICATE-----\nQg==\n-----END CERTIFICATE-----\n";

describe("the CAs a simulated module pins", () => {
  it("are the SIM_MQTT_CA file (default the development CA of ./data) and the CAs pinned in the process", () => {
    expect(defaultBrokerCaFile({})).toBe("./data/tls/ca.crt");
    expect(defaultBrokerCaFile({ SIM_MQTT_CA: "" })).toBe("./data/tls/ca.crt");
    expect(defaultBrokerCaFile({ SIM_MQTT_CA: "/etc/aquapilot/ca.crt" })).toBe("/etc/aquapilot/ca.crt");
    const file = path.join(dir, "ca.crt");
    fs.writeFileSync(file, PEM_A);
    expect(pinnedBrokerCas(file)).toEqual([PEM_A]);
    expect(pinnedBrokerCas(path.join(dir, "missing.crt"))).toEqual([]);
    const unpin = pinBrokerCa(PEM_B);
    expect(pinnedBrokerCas(file)).toEqual([PEM_B, PEM_A]);
    unpin();
    expect(pinnedBrokerCas(path.join(dir, "missing.crt"))).toEqual([]);
  });

  it("verify an mqtts:// or wss:// broker against the device's own CA first, and leave plain MQTT alone", () => {
    expect(brokerTlsOptions("mqtts://127.0.0.1:8883", PEM_A)).toEqual({ ca: [PEM_A], rejectUnauthorized: true });
    expect(brokerTlsOptions("wss://m.example/mqtt", [PEM_A, PEM_B])).toEqual({
      ca: [PEM_A, PEM_B],
      rejectUnauthorized: true,
    });
    const unpin = pinBrokerCa(PEM_B);
    try {
      expect(brokerTlsOptions("mqtts://127.0.0.1:8883").ca).toContain(PEM_B);
      expect(brokerTlsOptions("mqtt://127.0.0.1:1883")).toEqual({});
      expect(brokerTlsOptions("ws://127.0.0.1:8080/mqtt", PEM_A)).toEqual({});
    } finally {
      unpin();
    }
  });
});
