import mqtt from "mqtt";

/**
 * One MQTT 3.1.1 login as a device: CONNECT with username `mac`, `password` and client id `clientId` (default the
 * MAC), closed again at once. Resolves the CONNACK return code: 0 connected, 3 server unavailable, 4 bad user name or
 * password, 5 not authorised; -1 for a failure without a code. Waits at most 30 s for the broker's answer.
 */
export function mqttLogin(url: string, mac: string, password: string, clientId = mac): Promise<number> {
  return new Promise((resolve) => {
    const c = mqtt.connect(url, { clientId, username: mac, password, reconnectPeriod: 0, connectTimeout: 30_000 });
    c.once("connect", () => {
      c.end(true);
      resolve(0);
    });
    c.once("error", (err: Error & { code?: number }) => {
      c.end(true);
      resolve(typeof err.code === "number" ? err.code : -1);
    });
  });
}
