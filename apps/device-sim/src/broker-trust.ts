import fs from "node:fs";
import { defaultBrokerCaFile } from "./env.ts";

/**
 * What a simulated module trusts on an `mqtts://` or `wss://` broker (docs/device-protocol.md "Transport security"):
 * like a module's firmware, it pins CA certificates, never the broker's own certificate, and checks the broker's name
 * against the URL's host. The CAs are the device's `brokerCa` option, else the CAs pinned in this process
 * ({@link pinBrokerCa}: the development launcher pins its server's CA, as a factory flashes it into every module it
 * builds) together with the file SIM_MQTT_CA names (env.ts {@link defaultBrokerCaFile}).
 */

const pinned = new Set<string>();

/**
 * Pins `caPem` (one or more PEM certificates) for every simulated device of this process that gets no `brokerCa` of
 * its own. @returns a function that unpins it again (a stopped launcher's CA is no longer trusted).
 */
export function pinBrokerCa(caPem: string): () => void {
  pinned.add(caPem);
  return () => {
    pinned.delete(caPem);
  };
}

/** The CAs pinned in this process ({@link pinBrokerCa}) and the SIM_MQTT_CA file's, when it can be read. */
export function pinnedBrokerCas(caFile: string = defaultBrokerCaFile()): string[] {
  const cas = [...pinned];
  try {
    const text = fs.readFileSync(caFile, "utf8");
    if (!cas.includes(text)) cas.push(text);
  } catch {
    // No file: nothing more pinned.
  }
  return cas;
}

/**
 * The TLS part of mqtt.js's options for `brokerUrl`: for `mqtts:`/`wss:` the pinned CAs (`brokerCa`, else
 * {@link pinnedBrokerCas}; none at all: the system's CAs) with verification on; for `mqtt:`/`ws:` nothing.
 */
export function brokerTlsOptions(
  brokerUrl: string,
  brokerCa?: string | readonly string[] | null,
): { ca?: string[]; rejectUnauthorized?: true } {
  if (!/^(mqtts|wss):/i.test(brokerUrl)) return {};
  const cas = brokerCa ? (typeof brokerCa === "string" ? [brokerCa] : [...brokerCa]) : pinnedBrokerCas();
  return cas.length > 0 ? { ca: cas, rejectUnauthorized: true } : { rejectUnauthorized: true };
}
