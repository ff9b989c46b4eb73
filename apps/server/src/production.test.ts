import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ACTIVATION_PATHS, DEV_BRIDGE_PATHS, endpoints } from "@aquapilot/contract";
import { DEMO_ACCOUNT, startDevSystem } from "@aquapilot/dev";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, describeEndpoint } from "../test/call.ts";
import { ENGINES, openTestDatabase } from "../test/databases.ts";
import { createTestApp } from "../test/helpers.ts";
import { hashPassword } from "./auth/passwords.ts";
import { KNOWN_WEAK_SECRETS } from "./auth/secret-policy.ts";
import { loadOrCreateSecret } from "./auth/secrets.ts";
import { ConfigError, deviceTransportProblems, loadConfig } from "./config.ts";
import {
  DEV_BROKER_CERT_FILE,
  DEV_BROKER_KEY_FILE,
  DEV_CA_CERT_FILE,
  DEV_TLS_DIR,
  ensureDevelopmentTls,
} from "./iot/index.ts";
import { BODY_NOT_KEPT } from "./notify/index.ts";
import { startSystem } from "./system.ts";

/**
 * "Production is production": with APP_ENV=production there is no demo owner, no factory route, dev bridge
 * or /dev/outbox, no code in the log or the outbox table, and the start is refused on a weak secret (named, never
 * shown) or while the demo account keeps its published password.
 */

const strong = () => randomBytes(32).toString("base64url");
const figures = { refused: 0, accepted: 0, starts: 0 };

/** The ConfigError loadConfig throws for `env` in production (fails the test when none is thrown). */
function refusal(env: Record<string, string>): ConfigError {
  try {
    loadConfig({ APP_ENV: "production", ...env });
  } catch (err) {
    if (err instanceof ConfigError) {
      figures.refused++;
      return err;
    }
    throw err;
  }
  throw new Error(`accepted in production: ${Object.keys(env).join(", ")}`);
}

afterAll(() => {
  console.log(
    `production: ${figures.refused} weak configurations refused, ${figures.accepted} strong ones accepted, ${figures.starts} production starts checked`,
  );
});

describe("weak secrets refuse a production start (config)", () => {
  const weak: Array<[string, Record<string, string>]> = [
    ["EXTERNAL_CALLBACK_SECRET", { EXTERNAL_CALLBACK_SECRET: "short-but-16-chars" }],
    ["EXTERNAL_CALLBACK_SECRET", { EXTERNAL_CALLBACK_SECRET: "ab".repeat(20) }],
    ["EXTERNAL_CALLBACK_SECRET", { EXTERNAL_CALLBACK_SECRET: "0123456789abcdef0123456789abcdef" }],
    ["JPUSH_MASTER_SECRET", { JPUSH_APP_KEY: "a1b2c3d4e5f6a7b8c9d0e1f2" }],
    ["JPUSH_MASTER_SECRET", { JPUSH_APP_KEY: "a1b2c3d4e5f6a7b8c9d0e1f2", JPUSH_MASTER_SECRET: "s3cret" }],
    ["VAPID_PRIVATE_KEY", { VAPID_PUBLIC_KEY: "BPub", VAPID_PRIVATE_KEY: "A".repeat(43) }],
    ["VAPID_PRIVATE_KEY", { VAPID_PUBLIC_KEY: "BPub", VAPID_PRIVATE_KEY: "changeme" }],
    ["DATABASE_URL", { DATABASE_URL: "postgres://postgres:postgres@db.internal:5432/aquapilot" }],
    ["SMTP_URL", { SMTP_URL: "smtp://mailer:passw0rd@smtp.internal:587" }],
    ["REDIS_URL", { REDIS_URL: "redis://default:changeme@redis.internal:6379" }],
    ["MQTT_URL", { MQTT_URL: "mqtt://gateway:admin@broker.internal:1883" }],
  ];

  it.each(weak)("refuses a weak %s, naming it and never showing the value", (name, env) => {
    const err = refusal(env);
    expect(err.problems.some((p) => p.startsWith(`${name}:`))).toBe(true);
    for (const [key, value] of Object.entries(env)) {
      if (/SECRET|PRIVATE|_URL/.test(key)) {
        const secret = key.endsWith("_URL") ? new URL(value).password : value;
        expect(err.message).not.toContain(secret);
      }
    }
  });

  it("accepts strong secrets, and unset ones (generated into DATA_DIR)", () => {
    const good = [
      {},
      { EXTERNAL_CALLBACK_SECRET: strong() },
      { JPUSH_APP_KEY: "a1b2c3d4e5f6a7b8c9d0e1f2", JPUSH_MASTER_SECRET: "9f8e7d6c5b4a39281706f5e4" },
      { VAPID_PUBLIC_KEY: "BPub", VAPID_PRIVATE_KEY: strong() },
      { DATABASE_URL: `postgres://aquapilot:${strong()}@db.internal:5432/aquapilot`, REDIS_URL: "redis://redis:6379" },
    ];
    for (const env of good) {
      expect(() => loadConfig({ APP_ENV: "production", ...env })).not.toThrow();
      figures.accepted++;
    }
  });

  it("leaves development and tests alone (their secrets are not production's)", () => {
    const env = { EXTERNAL_CALLBACK_SECRET: "0123456789abcdef", JPUSH_APP_KEY: "k", JPUSH_MASTER_SECRET: "secret" };
    expect(() => loadConfig({ APP_ENV: "development", ...env })).not.toThrow();
    expect(() => loadConfig({ APP_ENV: "test", ...env })).not.toThrow();
  });

  it("never repeats a secret in a validation error either", () => {
    const err = (() => {
      try {
        loadConfig({ APP_ENV: "development", EXTERNAL_CALLBACK_SECRET: "tiny-s3cr3t" });
      } catch (e) {
        return e as ConfigError;
      }
      throw new Error("accepted");
    })();
    expect(err.message).toContain("EXTERNAL_CALLBACK_SECRET");
    expect(err.message).not.toContain("tiny-s3cr3t");
    expect(KNOWN_WEAK_SECRETS.has("demo1234")).toBe(true);
  });

  it("starts no simulated softeners in production unless SIM_DEVICES says so", () => {
    expect(loadConfig({ APP_ENV: "production" }).SIM_DEVICES).toBe(0);
    expect(loadConfig({ APP_ENV: "production", SIM_DEVICES: "2" }).SIM_DEVICES).toBe(2);
    expect(loadConfig({ APP_ENV: "development" }).SIM_DEVICES).toBe(3);
  });
});

describe("key files in DATA_DIR", () => {
  it("refuses a key file that is not random, naming the file and not the key", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "aq-keys-"));
    try {
      const placeholder = Buffer.alloc(32, 0x41).toString("base64url");
      fs.writeFileSync(path.join(dir, "jwt-signing-key"), placeholder, { mode: 0o600 });
      expect(() => loadOrCreateSecret(dir, "jwt-signing-key")).toThrow(/jwt-signing-key.*not random/);
      try {
        loadOrCreateSecret(dir, "jwt-signing-key");
      } catch (err) {
        expect(String(err)).not.toContain(placeholder);
      }
      fs.writeFileSync(path.join(dir, "short-key"), Buffer.from("changeme").toString("base64url"));
      expect(() => loadOrCreateSecret(dir, "short-key")).toThrow(/shorter than 32 bytes/);
      // A generated key passes, and is the same on the next start.
      const key = loadOrCreateSecret(dir, "fresh-key");
      expect(key.length).toBe(32);
      expect(Buffer.from(loadOrCreateSecret(dir, "fresh-key")).equals(Buffer.from(key))).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * The operator's broker certificate for production starts: a CA and a broker certificate made once in a folder of
 * their own (the operator's PKI, not DATA_DIR), as MQTT_TLS_CERT, MQTT_TLS_KEY and MQTT_TLS_CA.
 */
const operatorPki = fs.mkdtempSync(path.join(os.tmpdir(), "aq-operator-pki-"));
const operatorTlsEnv = {
  MQTT_TLS_CERT: path.join(operatorPki, DEV_TLS_DIR, DEV_BROKER_CERT_FILE),
  MQTT_TLS_KEY: path.join(operatorPki, DEV_TLS_DIR, DEV_BROKER_KEY_FILE),
  MQTT_TLS_CA: path.join(operatorPki, DEV_TLS_DIR, DEV_CA_CERT_FILE),
};
beforeAll(async () => {
  await ensureDevelopmentTls(operatorPki);
});
afterAll(() => fs.rmSync(operatorPki, { recursive: true, force: true }));

describe("the device link in production: MQTT over TLS only, with the operator's certificate", () => {
  it("refuses plain MQTT, the development CA and a plain broker URL told to devices, naming the variable", () => {
    const problems = (env: Record<string, string>) =>
      deviceTransportProblems(loadConfig({ APP_ENV: "production", ...env }));
    expect(problems({})).toEqual([expect.stringMatching(/^MQTT_TLS_CERT: production needs the operator's/)]);
    expect(problems({ ...operatorTlsEnv, MQTT_PLAIN: "true" })).toEqual([
      expect.stringMatching(/^MQTT_PLAIN: production serves devices MQTT over TLS only/),
    ]);
    expect(problems({ MQTT_URL: "mqtt://gateway:pw@broker.internal:1883" })).toEqual([
      expect.stringMatching(/^MQTT_URL: devices would be told plain mqtt:\/\/ MQTT; .*\(set MQTT_PUBLIC_URL/),
    ]);
    expect(problems({ MQTT_URL: "mqtt://broker.internal:1883", MQTT_PUBLIC_URL: "ws://m.example.com/mqtt" })).toEqual([
      expect.stringMatching(/^MQTT_PUBLIC_URL: devices would be told plain ws:\/\/ MQTT/),
    ]);
    for (const problem of problems({ MQTT_URL: "mqtt://gateway:pw@broker.internal:1883" })) {
      expect(problem).not.toContain(":pw@");
    }
    figures.refused += 4;
  });

  it("accepts TLS with the operator's certificate, or an external broker devices reach over mqtts:// or wss://", () => {
    const problems = (env: Record<string, string>) =>
      deviceTransportProblems(loadConfig({ APP_ENV: "production", ...env }));
    expect(loadConfig({ APP_ENV: "production" }).MQTT_PLAIN).toBe(false);
    expect(problems(operatorTlsEnv)).toEqual([]);
    expect(problems({ MQTT_URL: "mqtts://broker.internal:8883" })).toEqual([]);
    expect(problems({ MQTT_URL: "mqtt://broker.internal:1883", MQTT_PUBLIC_URL: "wss://m.example.com/mqtt" })).toEqual(
      [],
    );
    figures.accepted += 3;
    // Development and tests keep plain MQTT beside TLS; certificate and key go together everywhere.
    expect(loadConfig({ APP_ENV: "development" }).MQTT_PLAIN).toBe(true);
    expect(() => loadConfig({ MQTT_TLS_CERT: operatorTlsEnv.MQTT_TLS_CERT })).toThrow(
      /MQTT_TLS_KEY: MQTT_TLS_CERT and MQTT_TLS_KEY are set together/,
    );
  });

  it("startSystem refuses before it opens the database; npm start's exit names the variable", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "aq-prod-tls-"));
    try {
      const config = loadConfig({
        APP_ENV: "production",
        PORT: "0",
        MQTT_PORT: "0",
        DATA_DIR: dataDir,
        LOG_LEVEL: "silent",
      });
      const err = await startSystem(config).then(
        async (system) => {
          await system.close();
          return null;
        },
        (e: unknown) => e,
      );
      figures.starts++;
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).problems).toEqual([expect.stringMatching(/^MQTT_TLS_CERT: /)]);
      expect(fs.readdirSync(dataDir)).toEqual([]);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("activation in production: over HTTPS only", () => {
  it("refuses a call that came over plain HTTP with 403 https-required, and serves one the proxy says came over HTTPS", async () => {
    const production = await createTestApp({ env: { APP_ENV: "production" } });
    const development = await createTestApp();
    try {
      const begin = (app: typeof production.app, headers: Record<string, string> = {}) =>
        app.inject({ method: "POST", url: ACTIVATION_PATHS.begin, payload: { mac: "02AB00000001" }, headers });
      const plain = await begin(production.app);
      expect(plain.statusCode).toBe(403);
      expect(plain.json()).toEqual({ error: "https-required" });
      const complete = await production.app.inject({
        method: "POST",
        url: ACTIVATION_PATHS.complete,
        payload: { mac: "02AB00000001", nonce: "n", secret: "s" },
      });
      expect(complete.json()).toEqual({ error: "https-required" });
      // The reverse proxy on loopback (TRUST_PROXY's default) says the device used HTTPS: the call is handled.
      const proxied = await begin(production.app, { "x-forwarded-proto": "https" });
      expect(proxied.statusCode).toBe(404);
      expect(proxied.json()).toEqual({ error: "unknown-device" });
      // Development serves plain HTTP (modules on a development network).
      expect((await begin(development.app)).json()).toEqual({ error: "unknown-device" });
      figures.refused += 2;
    } finally {
      await production.close();
      await development.close();
    }
  });
});

describe.each(ENGINES)("a production start on %s", (engine) => {
  /** Starts the whole system in production on a fresh database of the engine; closes everything afterwards. */
  async function withProductionSystem(
    prepare: (db: Awaited<ReturnType<typeof openTestDatabase>>["db"]) => Promise<void>,
    check: (system: Awaited<ReturnType<typeof startDevSystem>> | Error) => Promise<void>,
  ): Promise<void> {
    const database = await openTestDatabase(engine);
    try {
      await prepare(database.db);
      const config = loadConfig({
        APP_ENV: "production",
        PORT: "0",
        MQTT_PORT: "0",
        DATA_DIR: database.dataDir,
        LOG_LEVEL: "silent",
        ...operatorTlsEnv,
        ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
      });
      const system = await startDevSystem(config).catch((err: Error) => err);
      figures.starts++;
      try {
        await check(system);
      } finally {
        if (!(system instanceof Error)) await system.close();
      }
    } finally {
      await database.close();
    }
  }

  it("creates no demo account, mounts no factory route, bridge or outbox, and starts no simulated softeners", async () => {
    await withProductionSystem(
      async () => {},
      async (system) => {
        if (system instanceof Error) throw system;
        expect(system.demo).toBeNull();
        expect(system.demoAvailable).toBe(false);
        expect(system.fleet.devices).toHaveLength(0);
        // Devices are told the TLS listener, the only one, and pin the operator's CA.
        expect(system.deviceLink.broker?.port).toBeNull();
        expect(system.deviceLink.deviceUrl).toBe(`mqtts://127.0.0.1:${system.deviceLink.broker?.tlsPort}`);
        expect(system.deviceLink.deviceCa).toBe(fs.readFileSync(operatorTlsEnv.MQTT_TLS_CA, "utf8"));
        expect(await system.db.selectFrom("users").select("id").execute()).toEqual([]);
        const signIn = await fetch(`${system.url}/connect/token`, {
          method: "POST",
          body: new URLSearchParams({
            grant_type: "password",
            username: DEMO_ACCOUNT.email,
            password: DEMO_ACCOUNT.password,
          }),
        });
        expect(signIn.status).toBe(400);
        for (const [method, url] of [
          ["GET", "/dev/outbox"],
          ["POST", "/dev/factory/devices"],
          ["GET", DEV_BRIDGE_PATHS.wifi],
          ["POST", DEV_BRIDGE_PATHS.discover],
        ]) {
          const res = await fetch(`${system.url}${url}`, {
            method,
            headers: { "content-type": "application/json" },
            body: method === "POST" ? "{}" : undefined,
          });
          expect(res.status, url).toBe(404);
        }
      },
    );
  });

  it("refuses to start while the demo account keeps its published password, and starts once it is changed", async () => {
    const insertDemo = (password: string) => async (db: Awaited<ReturnType<typeof openTestDatabase>>["db"]) => {
      await db
        .insertInto("users")
        .values({
          id: `demo-${engine}`,
          user_name: DEMO_ACCOUNT.userName,
          name: "Demo",
          email: DEMO_ACCOUNT.email,
          phone_number: null,
          country_code: null,
          password_hash: await hashPassword(password),
          service_region: 2,
          language_type: "en",
          avatar: null,
          security_stamp: "stamp",
          is_deleted: 0,
          creation_time: new Date().toISOString(),
        })
        .execute();
    };
    await withProductionSystem(insertDemo(DEMO_ACCOUNT.password), async (system) => {
      expect(system).toBeInstanceOf(ConfigError);
      expect((system as ConfigError).message).toContain(DEMO_ACCOUNT.email);
      expect((system as ConfigError).message).not.toContain(DEMO_ACCOUNT.password);
    });
    await withProductionSystem(insertDemo(strong()), async (system) => {
      expect(system).not.toBeInstanceOf(Error);
    });
  });
});

describeEndpoint(endpoints.sendEmailPasswordCode, "codes in production", () => {
  it("keep out of the log and the outbox table when no e-mail provider is configured", async () => {
    const t = await createTestApp({ env: { APP_ENV: "production" } });
    try {
      const res = await call(t, endpoints.sendEmailPasswordCode, { query: { email: "new-owner@production.test" } });
      expect(res.status).toBe(200);
      const rows = await t.db.selectFrom("outbox").selectAll().execute();
      expect(rows).toHaveLength(1);
      expect(rows[0].recipient).toBe("new-owner@production.test");
      expect(rows[0].body).toBe(BODY_NOT_KEPT);
      const logged = t.logs.join("\n");
      expect(logged).toContain("new-owner@production.test");
      expect(logged).not.toMatch(/\b\d{6}\b/);
    } finally {
      await t.close();
    }
  });
});

describe("the production core (startSystem, what src/server.ts runs)", () => {
  it("seeds no demo owner, writes no fleet file and mounts no development route, whatever APP_ENV says", async () => {
    const database = await openTestDatabase("sqlite");
    try {
      const config = loadConfig({
        APP_ENV: "development",
        PORT: "0",
        MQTT_PORT: "0",
        DATA_DIR: database.dataDir,
        LOG_LEVEL: "silent",
      });
      const system = await startSystem(config);
      try {
        expect(await system.db.selectFrom("users").select("id").execute()).toEqual([]);
        expect(fs.existsSync(path.join(database.dataDir, "sim-fleet.json"))).toBe(false);
        for (const [method, url] of [
          ["GET", "/dev/outbox"],
          ["POST", "/dev/factory/devices"],
          ["GET", DEV_BRIDGE_PATHS.wifi],
        ]) {
          const res = await fetch(`${system.url}${url}`, {
            method,
            headers: { "content-type": "application/json" },
            body: method === "POST" ? "{}" : undefined,
          });
          expect(res.status, url).toBe(404);
        }
      } finally {
        await system.close();
      }
    } finally {
      await database.close();
    }
  });
});

describe("npm start with APP_ENV=production", () => {
  it("exits with a message naming the weak variable, without the value", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "aq-prod-"));
    const weakValue = "qwerty";
    try {
      const child = spawn(process.execPath, [path.join(import.meta.dirname, "server.ts")], {
        env: {
          PATH: process.env.PATH,
          APP_ENV: "production",
          DATA_DIR: dataDir,
          PORT: "0",
          MQTT_PORT: "0",
          EXTERNAL_CALLBACK_SECRET: "short-secret-value",
          JPUSH_APP_KEY: "a1b2c3d4e5f6a7b8c9d0e1f2",
          JPUSH_MASTER_SECRET: weakValue,
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stderr = "";
      child.stderr.on("data", (d) => {
        stderr += String(d);
      });
      const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
      figures.refused++;
      expect(code).toBe(2);
      expect(stderr).toContain("EXTERNAL_CALLBACK_SECRET");
      expect(stderr).toContain("JPUSH_MASTER_SECRET");
      expect(stderr).not.toContain("short-secret-value");
      expect(stderr).not.toContain(weakValue);
      // Nothing was started: no database file was created.
      expect(fs.readdirSync(dataDir)).toEqual([]);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 30_000);
});
