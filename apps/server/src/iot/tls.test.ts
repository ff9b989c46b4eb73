import { execFileSync } from "node:child_process";
import { X509Certificate } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import mqtt from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "../../test/databases.ts";
import { InProcessBus } from "../bus.ts";
import { ConfigError } from "../config.ts";
import { provisionDevice } from "../modules/devices/index.ts";
import { rollupTelemetryBatch } from "../modules/statistics/index.ts";
import { type DeviceLink, silentLogger, startDeviceLink } from "./index.ts";
import {
  DEV_BROKER_CERT_FILE,
  DEV_BROKER_KEY_FILE,
  DEV_CA_CERT_FILE,
  DEV_CA_KEY_FILE,
  DEV_TLS_DIR,
  ensureDevelopmentTls,
  loadOperatorTls,
  subjectAltNames,
} from "./tls.ts";

/**
 * MQTT over TLS on the embedded broker (docs/device-protocol.md "Transport security"): the development CA in
 * DATA_DIR, a real Aedes broker serving TLS only, real mqtt.js clients that pin one CA or another.
 */

const DEVICE = { mac: "02E0000000A1", secret: "tls-device-secret-0123456789abc" };
const DAY_MS = 86_400_000;

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "aq-tls-"));
}

/**
 * Connects as the device to `url` trusting `ca` (checking the certificate names `servername`, default the URL's host); resolves "connected" on CONNACK 0, else the error's code or message
 * (e.g. "UNABLE_TO_VERIFY_LEAF_SIGNATURE" for a server whose CA is not the pinned one).
 */
function deviceConnect(url: string, ca?: string, servername?: string): Promise<string> {
  return new Promise((resolve) => {
    const client = mqtt.connect(url, {
      clientId: DEVICE.mac,
      username: DEVICE.mac,
      password: DEVICE.secret,
      reconnectPeriod: 0,
      connectTimeout: 10_000,
      ...(ca ? { ca, rejectUnauthorized: true } : {}),
      ...(servername ? { servername } : {}),
    });
    client.once("connect", () => {
      client.end(true);
      resolve("connected");
    });
    client.once("error", (err: Error & { code?: string | number }) => {
      client.end(true);
      resolve(String(err.code ?? err.message));
    });
    client.once("close", () => resolve("closed"));
  });
}

/** A TCP port nobody listens on right now (bound, then released). */
async function unusedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("the development CA in DATA_DIR", () => {
  it("is created once with private files, and reused with its broker certificate on the next start", async () => {
    const dataDir = tempDir();
    try {
      const first = await ensureDevelopmentTls(dataDir, ["softener.local"]);
      const dir = path.join(dataDir, DEV_TLS_DIR);
      for (const file of [DEV_CA_KEY_FILE, DEV_CA_CERT_FILE, DEV_BROKER_KEY_FILE, DEV_BROKER_CERT_FILE]) {
        expect(fs.statSync(path.join(dir, file)).mode & 0o777, file).toBe(0o600);
      }
      expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
      const leaf = new X509Certificate(first.cert);
      const ca = new X509Certificate(first.ca ?? "");
      expect(ca.ca).toBe(true);
      expect(leaf.ca).toBe(false);
      expect(leaf.verify(ca.publicKey)).toBe(true);
      expect(subjectAltNames(leaf).sort()).toEqual(["127.0.0.1", "::1", "localhost", "softener.local"].sort());
      expect(first.source).toBe("development");

      const again = await ensureDevelopmentTls(dataDir, ["softener.local"]);
      expect(again.cert).toBe(first.cert);
      expect(again.key).toBe(first.key);
      expect(again.ca).toBe(first.ca);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("issues the broker certificate again from the same CA when a name is missing or it nears its end", async () => {
    const dataDir = tempDir();
    try {
      const first = await ensureDevelopmentTls(dataDir);
      const renamed = await ensureDevelopmentTls(dataDir, ["mqtt.example.test"]);
      expect(renamed.ca).toBe(first.ca);
      expect(renamed.cert).not.toBe(first.cert);
      expect(subjectAltNames(new X509Certificate(renamed.cert))).toContain("mqtt.example.test");

      const validTo = new Date(new X509Certificate(renamed.cert).validTo).getTime();
      const late = await ensureDevelopmentTls(dataDir, ["mqtt.example.test"], new Date(validTo - 10 * DAY_MS));
      expect(late.ca).toBe(first.ca);
      expect(late.cert).not.toBe(renamed.cert);
      expect(new Date(new X509Certificate(late.cert).validTo).getTime()).toBeGreaterThan(validTo);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("creates a new CA when its key does not belong to its certificate", async () => {
    const one = tempDir();
    const two = tempDir();
    try {
      const first = await ensureDevelopmentTls(one);
      await ensureDevelopmentTls(two);
      fs.copyFileSync(path.join(two, DEV_TLS_DIR, DEV_CA_KEY_FILE), path.join(one, DEV_TLS_DIR, DEV_CA_KEY_FILE));
      const replaced = await ensureDevelopmentTls(one);
      expect(replaced.ca).not.toBe(first.ca);
      expect(new X509Certificate(replaced.cert).verify(new X509Certificate(replaced.ca ?? "").publicKey)).toBe(true);
    } finally {
      fs.rmSync(one, { recursive: true, force: true });
      fs.rmSync(two, { recursive: true, force: true });
    }
  });
});

describe("operator certificates (MQTT_TLS_CERT, MQTT_TLS_KEY, MQTT_TLS_CA)", () => {
  it("are read as given, and a key of another certificate is refused naming the variable, not the key", async () => {
    const one = tempDir();
    const two = tempDir();
    try {
      await ensureDevelopmentTls(one);
      await ensureDevelopmentTls(two);
      const file = (dir: string, name: string) => path.join(dir, DEV_TLS_DIR, name);
      const loaded = loadOperatorTls({
        cert: file(one, DEV_BROKER_CERT_FILE),
        key: file(one, DEV_BROKER_KEY_FILE),
        ca: file(one, DEV_CA_CERT_FILE),
      });
      expect(loaded.source).toBe("operator");
      expect(loaded.ca).toBe(fs.readFileSync(file(one, DEV_CA_CERT_FILE), "utf8"));

      const wrongKey = () =>
        loadOperatorTls({ cert: file(one, DEV_BROKER_CERT_FILE), key: file(two, DEV_BROKER_KEY_FILE) });
      expect(wrongKey).toThrow(ConfigError);
      expect(wrongKey).toThrow(/^Invalid configuration:\n {2}- MQTT_TLS_KEY: /);
      const key = fs.readFileSync(file(two, DEV_BROKER_KEY_FILE), "utf8");
      expect(() => wrongKey()).not.toThrow(key.split("\n")[1] ?? "");
      expect(() => loadOperatorTls({ cert: file(one, "missing.crt"), key: file(one, DEV_BROKER_KEY_FILE) })).toThrow(
        /MQTT_TLS_CERT: cannot read .*missing\.crt \(ENOENT\)/,
      );
    } finally {
      fs.rmSync(one, { recursive: true, force: true });
      fs.rmSync(two, { recursive: true, force: true });
    }
  });
});

describe("the embedded broker over TLS only (MQTT_PLAIN=false)", () => {
  let database: TestDatabase;
  let link: DeviceLink;
  let plainPort: number;
  const strangerDir = tempDir();

  beforeAll(async () => {
    database = await openTestDatabase("sqlite");
    await provisionDevice(database.db, { mac: DEVICE.mac, secret: DEVICE.secret, name: "TLS softener" });
    plainPort = await unusedPort();
    link = await startDeviceLink({
      db: database.db,
      bus: new InProcessBus(),
      dataDir: database.dataDir,
      mqttHost: "127.0.0.1",
      mqttPort: plainPort,
      mqttPlain: false,
      tls: { port: 0 },
      logger: silentLogger,
      onTelemetry: rollupTelemetryBatch,
    });
  });

  afterAll(async () => {
    await link?.close();
    await database?.close();
    fs.rmSync(strangerDir, { recursive: true, force: true });
  });

  it("tells devices mqtts:// and its CA, and the gateway is connected over TLS", () => {
    expect(link.broker?.port).toBeNull();
    expect(link.deviceUrl).toBe(`mqtts://127.0.0.1:${link.broker?.tlsPort}`);
    expect(link.brokerUrl).toBe(link.deviceUrl);
    expect(link.deviceCa).toBe(fs.readFileSync(path.join(database.dataDir, DEV_TLS_DIR, DEV_CA_CERT_FILE), "utf8"));
    // The gateway's own connection counts among the broker's clients, over TLS.
    expect(link.broker?.connectedClients).toBeGreaterThanOrEqual(1);
    expect(link.broker?.stats.connections).toEqual({ plain: 0, tls: 1 });
  });

  it("accepts a device that pins the CA", async () => {
    expect(await deviceConnect(link.deviceUrl, link.deviceCa ?? undefined)).toBe("connected");
  });

  it("refuses the handshake of a device that pins another CA", async () => {
    const stranger = await ensureDevelopmentTls(strangerDir);
    const handed = link.broker?.stats.connections.tls;
    const outcome = await deviceConnect(link.deviceUrl, stranger.ca ?? undefined);
    expect(outcome).toBe("UNABLE_TO_VERIFY_LEAF_SIGNATURE");
    // The refused handshake never reached the broker.
    expect(link.broker?.stats.connections.tls).toBe(handed);
  });

  it("refuses a device that trusts only the system's CAs", async () => {
    expect(await deviceConnect(link.deviceUrl)).toMatch(
      /^(UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN)$/,
    );
  });

  it("serves no plain MQTT: MQTT_PORT is closed and the TLS port does not speak plain MQTT", async () => {
    expect(await deviceConnect(`mqtt://127.0.0.1:${plainPort}`)).toBe("ECONNREFUSED");
    expect(await deviceConnect(`mqtt://127.0.0.1:${link.broker?.tlsPort}`)).not.toBe("connected");
  });
});

describe("the embedded broker with both listeners (development)", () => {
  let database: TestDatabase;
  let link: DeviceLink;

  beforeAll(async () => {
    database = await openTestDatabase("sqlite");
    await provisionDevice(database.db, { mac: DEVICE.mac, secret: DEVICE.secret, name: "TLS softener" });
    link = await startDeviceLink({
      db: database.db,
      bus: new InProcessBus(),
      dataDir: database.dataDir,
      mqttPort: 0,
      tls: { port: 0 },
      logger: silentLogger,
      onTelemetry: rollupTelemetryBatch,
    });
  });

  afterAll(async () => {
    await link?.close();
    await database?.close();
  });

  it("serves plain MQTT on brokerUrl and TLS on deviceUrl, the same accounts on both", async () => {
    expect(link.brokerUrl).toBe(`mqtt://127.0.0.1:${link.broker?.port}`);
    expect(link.deviceUrl).toBe(`mqtts://127.0.0.1:${link.broker?.tlsPort}`);
    expect(await deviceConnect(link.brokerUrl)).toBe("connected");
    expect(await deviceConnect(link.deviceUrl, link.deviceCa ?? undefined)).toBe("connected");
  });
});

/** An operator's CA and a broker certificate naming only `name`, made with OpenSSL as an operator would. */
function operatorPki(dir: string, name: string): { cert: string; key: string; ca: string } {
  const file = (f: string) => path.join(dir, f);
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"];
  const openssl = (...args: string[]) => execFileSync("/usr/bin/openssl", args, { stdio: "ignore" });
  openssl(
    "req",
    "-x509",
    ...ec,
    "-keyout",
    file("ca.key"),
    "-out",
    file("ca.crt"),
    "-days",
    "30",
    "-subj",
    "/CN=Operator CA",
  );
  openssl("req", ...ec, "-keyout", file("broker.key"), "-out", file("broker.csr"), "-subj", `/CN=${name}`);
  fs.writeFileSync(file("ext.cnf"), `subjectAltName=DNS:${name}\nextendedKeyUsage=serverAuth\n`);
  openssl(
    "x509",
    "-req",
    "-in",
    file("broker.csr"),
    "-CA",
    file("ca.crt"),
    "-CAkey",
    file("ca.key"),
    "-CAcreateserial",
    "-days",
    "30",
    "-out",
    file("broker.crt"),
    "-extfile",
    file("ext.cnf"),
  );
  return { cert: file("broker.crt"), key: file("broker.key"), ca: file("ca.crt") };
}

describe.skipIf(!fs.existsSync("/usr/bin/openssl"))("an operator certificate naming the public host only", () => {
  let database: TestDatabase;
  let link: DeviceLink;
  const pki = tempDir();

  beforeAll(async () => {
    database = await openTestDatabase("sqlite");
    await provisionDevice(database.db, { mac: DEVICE.mac, secret: DEVICE.secret, name: "TLS softener" });
    link = await startDeviceLink({
      db: database.db,
      bus: new InProcessBus(),
      dataDir: database.dataDir,
      mqttPlain: false,
      tls: { port: 0, files: operatorPki(pki, "mqtt.example.test") },
      logger: silentLogger,
      onTelemetry: rollupTelemetryBatch,
    });
  });

  afterAll(async () => {
    await link?.close();
    await database?.close();
    fs.rmSync(pki, { recursive: true, force: true });
  });

  it("keeps the gateway on its own broker over loopback, while devices check the name they were told", async () => {
    // The gateway connected over TLS to 127.0.0.1, a name the certificate lacks: it trusts the exact certificate.
    expect(link.broker?.stats.connections).toEqual({ plain: 0, tls: 1 });
    expect(fs.existsSync(path.join(database.dataDir, DEV_TLS_DIR))).toBe(false);
    const ca = link.deviceCa ?? undefined;
    expect(await deviceConnect(link.deviceUrl, ca)).toBe("ERR_TLS_CERT_ALTNAME_INVALID");
    expect(await deviceConnect(link.deviceUrl, ca, "mqtt.example.test")).toBe("connected");
  });
});
