import { type ChildProcess, execFile, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import {
  DEV_BROKER_CERT_FILE,
  DEV_BROKER_KEY_FILE,
  DEV_CA_CERT_FILE,
  DEV_TLS_DIR,
  ensureDevelopmentTls,
} from "../src/iot/tls.ts";
import { freePort, waitForPort } from "./free-port.ts";
import type { Requirement } from "./required-programs.ts";

const run = promisify(execFile);

/** Debian's Mosquitto 2.0 (apt-get install mosquitto mosquitto-clients); the plugin is found by {@link dynsecPlugin}. */
export const MOSQUITTO = {
  broker: "/usr/sbin/mosquitto",
  ctrl: "/usr/bin/mosquitto_ctrl",
  pub: "/usr/bin/mosquitto_pub",
  sub: "/usr/bin/mosquitto_sub",
} as const;

/** The Debian package of each of {@link MOSQUITTO}'s programs. */
const PACKAGE_OF: Record<keyof typeof MOSQUITTO, string> = {
  broker: "mosquitto",
  ctrl: "mosquitto",
  pub: "mosquitto-clients",
  sub: "mosquitto-clients",
};

/** The dynamic-security plugin's file name; its folder depends on the architecture (/usr/lib/<triplet>/). */
const PLUGIN_FILE = "mosquitto_dynamic_security.so";

/** The library folders searched for the plugin when dpkg does not list it, each with its subfolders. */
const LIBRARY_FOLDERS = ["/usr/lib", "/usr/local/lib", "/usr/lib64"];

/** `dpkg -L mosquitto`: the files Debian's package installed, one a line; "" without dpkg or the package. */
function dpkgListOfMosquitto(): string {
  try {
    return execFileSync("dpkg", ["-L", "mosquitto"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  } catch {
    return "";
  }
}

/**
 * Finds Mosquitto's dynamic-security plugin by asking the system, not at one architecture's path: the file of that
 * name that `listPackage` (dpkg -L mosquitto) lists and that exists, else the first found in `folders` or one of their
 * direct subfolders (the multiarch folders such as /usr/lib/aarch64-linux-gnu). .ci/run looks the same way.
 * @returns the plugin's path, or null when it is nowhere.
 */
export function findDynsecPlugin(
  listPackage: () => string = dpkgListOfMosquitto,
  folders: readonly string[] = LIBRARY_FOLDERS,
): string | null {
  const listed = listPackage()
    .split("\n")
    .map((line) => line.trim())
    .find((line) => path.basename(line) === PLUGIN_FILE && fs.existsSync(line));
  if (listed) return listed;
  for (const folder of folders) {
    const candidates = [path.join(folder, PLUGIN_FILE)];
    try {
      for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
        if (entry.isDirectory()) candidates.push(path.join(folder, entry.name, PLUGIN_FILE));
      }
    } catch {
      // a folder this system does not have
    }
    const found = candidates.find((file) => fs.existsSync(file));
    if (found) return found;
  }
  return null;
}

let plugin: string | null | undefined;

/** {@link findDynsecPlugin}, asked once per test file. */
function dynsecPlugin(): string | null {
  if (plugin === undefined) plugin = findDynsecPlugin();
  return plugin;
}

/**
 * What the Mosquitto suites need: the broker, mosquitto_ctrl, the clients and the dynamic-security plugin, each with
 * where it was found and its Debian package (for test/required-programs.ts `skipUnlessInstalled`).
 */
export function mosquittoRequirements(): Requirement[] {
  const programs = (Object.keys(MOSQUITTO) as (keyof typeof MOSQUITTO)[]).map((what) => ({
    program: path.basename(MOSQUITTO[what]),
    found: fs.existsSync(MOSQUITTO[what]) ? MOSQUITTO[what] : null,
    detail: `not at ${MOSQUITTO[what]}`,
    debianPackage: PACKAGE_OF[what],
  }));
  return [
    ...programs,
    {
      program: "Mosquitto's dynamic-security plugin",
      found: dynsecPlugin(),
      detail: `no ${PLUGIN_FILE} in dpkg -L mosquitto nor under ${LIBRARY_FOLDERS.join(", ")}`,
      debianPackage: "mosquitto",
    },
  ];
}

/** The role docs/deploy.md tells the operator to give the server's gateway account. */
export const GATEWAY_ROLE = "aquapilot-gateway";

/** A Mosquitto with the dynamic-security plugin in a temp folder, on 127.0.0.1 and a free port. */
export interface TestMosquitto {
  port: number;
  /** mqtt://127.0.0.1:<port>, no credentials. */
  url: string;
  /** MQTT_URL of the server: the gateway account's credentials in the URL. */
  gatewayUrl: string;
  /**
   * The MQTT over TLS listener (`mqtts://127.0.0.1:<port>`, docs/deploy.md) and the PEM files of its
   * certificate, key and the CA devices pin; null with `tls: false`.
   */
  tls: { port: number; url: string; gatewayUrl: string; files: { cert: string; key: string; ca: string } } | null;
  gateway: { username: string; password: string };
  admin: { username: string; password: string };
  /** The temp folder: mosquitto.conf, dynamic-security.json, mosquitto.db, mosquitto.log. */
  dir: string;
  /** Runs `mosquitto_ctrl -h … -p … -u admin -P … dynsec <args>`; resolves its stdout. */
  dynsec(...args: string[]): Promise<string>;
  /** Stops the broker with SIGTERM (it saves its persistence file) and waits for it to exit. */
  stop(): Promise<void>;
  /** Kills the broker with SIGKILL (a crash: nothing saved since its last autosave) and waits for it to exit. */
  kill(): Promise<void>;
  /** Starts it again on the same port with the same files. */
  start(): Promise<void>;
  /** stop(), then start() after `downMs`. */
  restart(downMs?: number): Promise<void>;
  /** Stops the broker and removes the folder. */
  close(): Promise<void>;
}

/** The gateway's role and account, exactly as docs/deploy.md gives them (mosquitto_ctrl through `dynsec`). */
async function setUpGateway(
  dynsec: (...args: string[]) => Promise<string>,
  gateway: { username: string; password: string },
): Promise<void> {
  await dynsec("createRole", GATEWAY_ROLE);
  // Mosquitto 2.0 checks a shared subscription's ACL on the whole filter, `$share/<group>/…` included.
  await dynsec("addRoleACL", GATEWAY_ROLE, "subscribePattern", "$share/gateways/aq/v1/devices/#", "allow");
  await dynsec("addRoleACL", GATEWAY_ROLE, "subscribePattern", "aq/v1/devices/#", "allow");
  await dynsec("addRoleACL", GATEWAY_ROLE, "publishClientReceive", "aq/v1/devices/#", "allow");
  await dynsec("addRoleACL", GATEWAY_ROLE, "publishClientSend", "aq/v1/devices/+/cmd", "allow");
  await dynsec("addRoleACL", GATEWAY_ROLE, "publishClientSend", "aq/v1/devices/+/receipt", "allow");
  await dynsec("addRoleACL", GATEWAY_ROLE, "publishClientSend", "$CONTROL/dynamic-security/#", "allow");
  await dynsec("addRoleACL", GATEWAY_ROLE, "subscribePattern", "$CONTROL/dynamic-security/#", "allow");
  await dynsec("addRoleACL", GATEWAY_ROLE, "publishClientReceive", "$CONTROL/dynamic-security/#", "allow");
  await dynsec("createClient", gateway.username, "-p", gateway.password);
  await dynsec("addClientRole", gateway.username, GATEWAY_ROLE);
}

/**
 * Starts Debian's Mosquitto as docs/deploy.md "External MQTT broker (Mosquitto)" says: `mosquitto_ctrl dynsec init`
 * with an admin account, the documented mosquitto.conf (no anonymous logins, persistence on, dynamic security,
 * 16 KiB packets; the log in `dir`/mosquitto.log also lists subscriptions and unsubscriptions), then the gateway's
 * role and account made with the documented mosquitto_ctrl commands. A second listener serves MQTT over TLS (unless
 * `opts.tls` is false) with a CA and broker certificate made in `dir`/tls (iot/tls.ts `ensureDevelopmentTls`, standing in for the
 * operator's), as docs/deploy.md's TLS listener says. Started as
 * root, Mosquitto drops to the user `mosquitto`, so the folder is handed to that user first.
 * @throws when a binary or the plugin is missing or the broker does not listen within 10 s.
 */
export async function startMosquitto(opts: { tls?: boolean } = {}): Promise<TestMosquitto> {
  const withTls = opts.tls ?? true;
  const pluginFile = dynsecPlugin();
  if (!pluginFile) {
    throw new Error(`Mosquitto's dynamic-security plugin (${PLUGIN_FILE}) is missing: apt-get install mosquitto`);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "aquapilot-mosquitto-"));
  const port = await freePort();
  const admin = { username: "admin", password: randomBytes(12).toString("base64url") };
  const gateway = { username: "aquapilot-gateway", password: randomBytes(24).toString("base64url") };
  const dynsecFile = path.join(dir, "dynamic-security.json");
  await run(MOSQUITTO.ctrl, ["dynsec", "init", dynsecFile, admin.username, admin.password]);
  const conf = path.join(dir, "mosquitto.conf");
  let tls: TestMosquitto["tls"] = null;
  const tlsLines: string[] = [];
  if (withTls) {
    await ensureDevelopmentTls(dir);
    const files = {
      cert: path.join(dir, DEV_TLS_DIR, DEV_BROKER_CERT_FILE),
      key: path.join(dir, DEV_TLS_DIR, DEV_BROKER_KEY_FILE),
      ca: path.join(dir, DEV_TLS_DIR, DEV_CA_CERT_FILE),
    };
    const tlsPort = await freePort();
    const auth = `${gateway.username}:${encodeURIComponent(gateway.password)}`;
    tls = {
      port: tlsPort,
      url: `mqtts://127.0.0.1:${tlsPort}`,
      gatewayUrl: `mqtts://${auth}@127.0.0.1:${tlsPort}`,
      files,
    };
    tlsLines.push(
      `listener ${tlsPort} 127.0.0.1`,
      `certfile ${files.cert}`,
      `keyfile ${files.key}`,
      `cafile ${files.ca}`,
      "tls_version tlsv1.2",
    );
  }
  fs.writeFileSync(
    conf,
    [
      `listener ${port} 127.0.0.1`,
      "allow_anonymous false",
      "per_listener_settings false",
      "persistence true",
      `persistence_location ${dir}/`,
      "max_packet_size 16384",
      "max_queued_messages 100000",
      `plugin ${pluginFile}`,
      `plugin_opt_config_file ${dynsecFile}`,
      `log_dest file ${path.join(dir, "mosquitto.log")}`,
      "log_type error",
      "log_type warning",
      "log_type notice",
      "log_type information",
      // Who subscribed to what (the cluster test checks the gateways use the shared group only).
      "log_type subscribe",
      "log_type unsubscribe",
      // The TLS listener last: certfile, keyfile and cafile belong to the listener above them.
      ...tlsLines,
      "",
    ].join("\n"),
  );
  if (process.getuid?.() === 0) {
    // Mosquitto started as root runs as `mosquitto`: that user must write the folder (dynsec file, persistence).
    await run("chown", ["-R", "mosquitto:mosquitto", dir]).catch(() => undefined);
  }
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn(MOSQUITTO.broker, ["-c", conf], { stdio: "ignore" });
    await waitForPort(port, "mosquitto", 10_000, 50);
    if (tls) await waitForPort(tls.port, "mosquitto (TLS)", 10_000, 50);
  };
  const stop = async (signal: "SIGTERM" | "SIGKILL" = "SIGTERM") => {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      c.once("exit", () => resolve());
      c.kill(signal);
    });
  };
  const dynsec = async (...args: string[]) => {
    const { stdout } = await run(MOSQUITTO.ctrl, [
      "-h",
      "127.0.0.1",
      "-p",
      String(port),
      "-u",
      admin.username,
      "-P",
      admin.password,
      "dynsec",
      ...args,
    ]);
    return stdout;
  };
  await start();
  try {
    await setUpGateway(dynsec, gateway);
  } catch (err) {
    await stop();
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const url = `mqtt://127.0.0.1:${port}`;
  return {
    port,
    url,
    gatewayUrl: `mqtt://${gateway.username}:${encodeURIComponent(gateway.password)}@127.0.0.1:${port}`,
    tls,
    gateway,
    admin,
    dir,
    dynsec,
    stop: () => stop(),
    kill: () => stop("SIGKILL"),
    start,
    async restart(downMs = 0) {
      await stop();
      if (downMs > 0) await new Promise((r) => setTimeout(r, downMs));
      await start();
    },
    async close() {
      await stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Runs mosquitto_pub or mosquitto_sub (Debian's clients) with `args` and resolves how it ended: exit code, stdout and
 * stderr. `stdinLines` are written to its standard input (mosquitto_pub -l sends one message per line). `timeoutMs`
 * ends a client still running (SIGTERM) — then `code` is null.
 */
export function runClient(
  which: "pub" | "sub",
  args: string[],
  timeoutMs = 5000,
  stdinLines?: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(MOSQUITTO[which], args, { stdio: [stdinLines ? "pipe" : "ignore", "pipe", "pipe"] });
    if (stdinLines && child.stdin) child.stdin.end(`${stdinLines.join("\n")}\n`);
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (d) => {
      stdout += d;
    });
    child.stderr?.on("data", (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill("SIGTERM"), timeoutMs);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
