import { type ReconnectBackoff, reconnectDelayMs } from "@aquapilot/contract";
import type { MqttClient } from "mqtt";

/**
 * Makes an mqtt.js client reconnect with jittered exponential backoff instead of its fixed period, so a broker back
 * from a restart is not met by every client at once: the n-th consecutive failed attempt is followed by a wait of
 * `reconnectDelayMs(n, policy)` ms (contract; e.g. 1 s doubling to `policy.maxMs`), and a CONNACK starts over. mqtt.js
 * reads `options.reconnectPeriod` each time it arms its reconnect timer, so the period is set before every attempt.
 * @returns a function that removes the listeners (the period stays as last set).
 */
export function followBackoff(
  client: MqttClient,
  policy: ReconnectBackoff,
  random: () => number = Math.random,
): () => void {
  let failures = 0;
  client.options.reconnectPeriod = reconnectDelayMs(0, policy, random);
  const onConnect = () => {
    failures = 0;
    client.options.reconnectPeriod = reconnectDelayMs(0, policy, random);
  };
  const onReconnect = () => {
    failures += 1;
    client.options.reconnectPeriod = reconnectDelayMs(failures, policy, random);
  };
  client.on("connect", onConnect);
  client.on("reconnect", onReconnect);
  return () => {
    client.off("connect", onConnect);
    client.off("reconnect", onReconnect);
  };
}
