/**
 * The fleet benchmark's broker: Debian's Mosquitto 2.0 on 127.0.0.1 and a free port, accounts in a password file and
 * topic rights in an ACL file written here (the "plain" broker kind of docs/deploy.md: the operator keeps the
 * accounts, `MQTT_BROKER_KIND=plain`). Provisioning 10,000 devices through the dynamic-security control API costs
 * Mosquitto a rewrite of its whole JSON file per device; the password file is written once. The rights are those of
 * the dynamic-security roles (docs/device-protocol.md §4): a device publishes only its own status, state, telemetry,
 * event and ack and subscribes only to its own cmd; the gateway account reads and writes every topic and the shared
 * group `$share/gateways/…`.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { pbkdf2Sync, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { MQTT_TOPIC_ROOT } from "@aquapilot/contract";
import { freePort, waitForPort } from "@aquapilot/server/test/free-port.ts";

/** Debian's broker binary. */
export const MOSQUITTO_BINARY = "/usr/sbin/mosquitto";

/** A running throwaway broker. */
export interface FleetBroker {
  /** mqtt://127.0.0.1:<port>, no credentials (devices add their own). */
  url: string;
  /** MQTT_URL of the server processes: the gateway account in the URL. */
  gatewayUrl: string;
  /** Broker's process id (for its memory, /proc/<pid>/status). */
  pid: number;
  /** Stops the broker (SIGTERM) and removes its folder. */
  close(): Promise<void>;
}

/**
 * Mosquitto's PBKDF2-SHA512 password hash line (`$7$<iterations>$<salt b64>$<hash b64>`, what mosquitto_passwd
 * writes), 101 iterations as Mosquitto's default.
 */
export function mosquittoPasswordHash(password: string): string {
  const salt = randomBytes(12);
  const hash = pbkdf2Sync(password, salt, 101, 64, "sha512");
  return `$7$101$${salt.toString("base64")}$${hash.toString("base64")}`;
}

/**
 * Starts Mosquitto with accounts for `devices` (username = MAC, password = secret) and a gateway account, and waits
 * until it listens. The folder (conf, passwords, ACL, log) is removed by close().
 * @throws when the binary is missing or the broker does not listen within 10 s.
 */
export async function startFleetBroker(devices: ReadonlyArray<{ mac: string; secret: string }>): Promise<FleetBroker> {
  if (!fs.existsSync(MOSQUITTO_BINARY)) throw new Error(`${MOSQUITTO_BINARY} is missing (apt-get install mosquitto)`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "aquapilot-fleet-mosquitto-"));
  const port = await freePort();
  const gateway = { username: "aquapilot-gateway", password: randomBytes(18).toString("base64url") };
  const lines = [`${gateway.username}:${mosquittoPasswordHash(gateway.password)}`];
  for (const d of devices) lines.push(`${d.mac}:${mosquittoPasswordHash(d.secret)}`);
  fs.writeFileSync(path.join(dir, "passwords"), `${lines.join("\n")}\n`);
  const own = `${MQTT_TOPIC_ROOT}/%u`;
  fs.writeFileSync(
    path.join(dir, "acl"),
    [
      `user ${gateway.username}`,
      "topic readwrite #",
      "topic readwrite $share/#",
      "",
      ...["status", "state", "telemetry", "event", "ack"].map((c) => `pattern write ${own}/${c}`),
      `pattern read ${own}/cmd`,
      "",
    ].join("\n"),
  );
  fs.writeFileSync(
    path.join(dir, "mosquitto.conf"),
    [
      `listener ${port} 127.0.0.1`,
      "allow_anonymous false",
      `password_file ${dir}/passwords`,
      `acl_file ${dir}/acl`,
      "persistence false",
      "max_packet_size 16384",
      "max_queued_messages 10000",
      `log_dest file ${dir}/mosquitto.log`,
      "log_type error",
      "log_type warning",
      "",
    ].join("\n"),
  );
  if (process.getuid?.() === 0) fs.chmodSync(dir, 0o755);
  for (const f of ["passwords", "acl", "mosquitto.conf"]) fs.chmodSync(path.join(dir, f), 0o644);
  const child: ChildProcess = spawn(MOSQUITTO_BINARY, ["-c", path.join(dir, "mosquitto.conf")], { stdio: "ignore" });
  try {
    await waitForPort(port, "mosquitto", 10_000, 50);
  } catch (err) {
    child.kill("SIGKILL");
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    url: `mqtt://127.0.0.1:${port}`,
    gatewayUrl: `mqtt://${gateway.username}:${encodeURIComponent(gateway.password)}@127.0.0.1:${port}`,
    pid: child.pid ?? 0,
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
        if (child.exitCode === null) child.kill("SIGKILL");
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
