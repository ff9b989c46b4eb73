import { createHash } from "node:crypto";
import {
  ACTIVATION_PATHS,
  endpoints,
  ZActivationBeginResult,
  ZActivationCompleteResult,
  ZActivationError,
} from "@aquapilot/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  familyWithDevices,
  joinWithShareCode,
  signUpOwner,
  signUpUser,
  type TestUser,
} from "../../../test/api-factories.ts";
import { call, describeEndpoint } from "../../../test/call.ts";
import { createTestApp, type TestApp } from "../../../test/helpers.ts";
import { provisionDevice } from "../devices/provision.ts";
import { BIND_LIMITS } from "../devices/routes.ts";
import { ACTIVATION_LIMITS } from "./routes.ts";
import { deviceBrokerUrl } from "./service.ts";

const SECRET = "factory-secret-of-a-softener-0001";

/** Device activation over HTTP (docs/device-protocol.md §13.4) and binding with its pairing codes. */
describe("device activation over HTTP", () => {
  let t: TestApp;
  let clock = new Date("2026-06-01T08:00:00.000Z");
  const deviceIds: Record<string, string> = {};
  /** Each test uses its own client address, so the per-address limits of one test do not touch another. */
  let nextAddress = 1;
  const freshAddress = () => `10.9.0.${nextAddress++}`;

  const post = (path: string, payload: unknown, remoteAddress = "10.0.0.1") =>
    t.app.inject({ method: "POST", url: path, payload: payload as object, remoteAddress });

  async function activate(mac: string, secret = SECRET, remoteAddress = "10.0.0.1") {
    const begin = await post(ACTIVATION_PATHS.begin, { mac, model: "AQ-S25", firmwareVersion: "1.0.0" }, remoteAddress);
    expect(begin.statusCode).toBe(200);
    const { nonce } = ZActivationBeginResult.parse(begin.json());
    return post(ACTIVATION_PATHS.complete, { mac, nonce, secret }, remoteAddress);
  }

  beforeAll(async () => {
    t = await createTestApp({
      now: () => clock,
      env: {
        LOG_LEVEL: "trace",
        // The gateway's credentials must never reach a device.
        MQTT_URL: "mqtt://gateway:gw-password-xyz@broker.internal:1883",
      },
    });
    for (const [name, mac] of [
      ["a", "02CC00000001"],
      ["b", "02CC00000002"],
      ["c", "02CC00000003"],
      ["d", "02CC00000004"],
      ["e", "02CC00000005"],
    ]) {
      deviceIds[name] = (
        await provisionDevice(t.db, { mac, secret: SECRET, name: `Softener ${name}`, model: "AQ-S25" })
      ).id;
    }
  });
  afterAll(() => t.close());

  it("step one answers a nonce, the server time and the broker URL without credentials", async () => {
    const res = await post(ACTIVATION_PATHS.begin, { mac: "02:cc:00:00:00:01", model: "AQ-S25" });
    expect(res.statusCode).toBe(200);
    const body = ZActivationBeginResult.parse(res.json());
    expect(body.expiresInSeconds).toBe(120);
    expect(body.serverTime).toBe(clock.toISOString());
    expect(body.mqttUrl).toBe("mqtt://broker.internal:1883");
    expect(res.body).not.toContain("gw-password-xyz");
    expect(res.body).not.toContain("gateway");
    // Stateless: nothing is written.
    expect(await t.db.selectFrom("device_activations").selectAll().execute()).toEqual([]);
  });

  it("refuses an unknown MAC (404) and malformed bodies (400) as plain {error} bodies", async () => {
    const unknown = await post(ACTIVATION_PATHS.begin, { mac: "02CC000000FF" });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: "unknown-device" });

    const malformed: Array<[string, unknown]> = [
      [ACTIVATION_PATHS.begin, {}],
      [ACTIVATION_PATHS.begin, { mac: "not-a-mac" }],
      [ACTIVATION_PATHS.begin, { mac: "02CC00000001", model: "x".repeat(65) }],
      [ACTIVATION_PATHS.complete, { mac: "02CC00000001", nonce: "short", secret: SECRET }],
      [ACTIVATION_PATHS.complete, { mac: "02CC00000001", nonce: "n".repeat(20) }],
    ];
    for (const [path, payload] of malformed) {
      const res = await post(path, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toEqual({ error: "invalid-request" });
    }
    const badJson = await t.app.inject({
      method: "POST",
      url: ACTIVATION_PATHS.complete,
      headers: { "content-type": "application/json" },
      payload: "{not json",
      remoteAddress: "10.0.0.1",
    });
    expect(badJson.statusCode).toBe(400);
    expect(badJson.json()).toEqual({ error: "invalid-request" });
    expect(ZActivationError.safeParse(badJson.json()).success).toBe(true);
  });

  it("step two issues MAC:TOKEN valid 10 minutes, storing only the token's SHA-256", async () => {
    const res = await activate("02-CC-00-00-00-01");
    expect(res.statusCode).toBe(200);
    const { pairingCode, expiresAt } = ZActivationCompleteResult.parse(res.json());
    const match = /^02CC00000001:([A-Za-z0-9_-]{22})$/.exec(pairingCode);
    expect(match).not.toBeNull();
    const token = match![1];
    expect(Buffer.from(token, "base64url")).toHaveLength(16);
    expect(expiresAt).toBe(new Date(clock.getTime() + 10 * 60_000).toISOString());

    const rows = await t.db.selectFrom("device_activations").selectAll().where("device_id", "=", deviceIds.a).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      token_hash: createHash("sha256").update(token).digest("hex"),
      expires_at: expiresAt,
      created_at: clock.toISOString(),
      used_at: null,
      used_by: null,
    });
    expect(JSON.stringify(rows)).not.toContain(token);

    // A second activation issues another code; both stay usable until they expire.
    const again = ZActivationCompleteResult.parse((await activate("02CC00000001")).json());
    expect(again.pairingCode).not.toBe(pairingCode);
    expect(
      await t.db.selectFrom("device_activations").selectAll().where("device_id", "=", deviceIds.a).execute(),
    ).toHaveLength(2);
  });

  it("refuses a wrong secret (401) and a stale, foreign or forged nonce (409), writing nothing", async () => {
    const before = (await t.db.selectFrom("device_activations").selectAll().execute()).length;
    const wrong = await activate("02CC00000002", "not-the-factory-secret-0000");
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ error: "bad-credentials" });

    const nonceOf = async (mac: string) =>
      ZActivationBeginResult.parse((await post(ACTIVATION_PATHS.begin, { mac })).json()).nonce;
    const complete = (mac: string, nonce: string, secret = SECRET) =>
      post(ACTIVATION_PATHS.complete, { mac, nonce, secret });

    const foreign = await complete("02CC00000002", await nonceOf("02CC00000003"));
    expect(foreign.statusCode).toBe(409);
    expect(foreign.json()).toEqual({ error: "nonce-invalid" });

    const nonce = await nonceOf("02CC00000002");
    const [expiry, salt, signature] = nonce.split(".");
    const forged = await complete("02CC00000002", `${Number(expiry) + 60_000}.${salt}.${signature}`);
    expect(forged.statusCode).toBe(409);
    const garbage = await complete("02CC00000002", "x".repeat(40));
    expect(garbage.statusCode).toBe(409);

    // The nonce is checked before the secret: a stale nonce with a wrong secret is still 409.
    const start = clock;
    try {
      clock = new Date(start.getTime() + 121_000);
      const stale = await complete("02CC00000002", nonce);
      expect(stale.statusCode).toBe(409);
      expect(stale.json()).toEqual({ error: "nonce-invalid" });
      expect((await complete("02CC00000002", nonce, "wrong-secret-wrong-secret")).statusCode).toBe(409);
      clock = new Date(start.getTime() + 119_000);
      // Within its 120 s the same nonce still works.
      expect((await complete("02CC00000002", nonce)).statusCode).toBe(200);
    } finally {
      clock = start;
    }
    expect((await t.db.selectFrom("device_activations").selectAll().execute()).length).toBe(before + 1);
  });

  it("deletes a device's used and expired codes when it issues a new one", async () => {
    const start = clock;
    try {
      const first = ZActivationCompleteResult.parse((await activate("02CC00000004")).json());
      const second = ZActivationCompleteResult.parse((await activate("02CC00000004")).json());
      const hashOf = (code: string) => createHash("sha256").update(code.split(":")[1]).digest("hex");
      await t.db
        .updateTable("device_activations")
        .set({ used_at: clock.toISOString() })
        .where("token_hash", "=", hashOf(first.pairingCode))
        .execute();
      clock = new Date(start.getTime() + 5 * 60_000);
      const third = ZActivationCompleteResult.parse((await activate("02CC00000004")).json());
      const hashes = async () =>
        (
          await t.db
            .selectFrom("device_activations")
            .select("token_hash")
            .where("device_id", "=", deviceIds.d)
            .execute()
        ).map((r) => r.token_hash);
      expect((await hashes()).sort()).toEqual([hashOf(second.pairingCode), hashOf(third.pairingCode)].sort());
      clock = new Date(start.getTime() + 11 * 60_000);
      const fourth = ZActivationCompleteResult.parse((await activate("02CC00000004")).json());
      expect((await hashes()).sort()).toEqual([hashOf(third.pairingCode), hashOf(fourth.pairingCode)].sort());
    } finally {
      clock = start;
    }
  });

  it("limits both steps per MAC and per client address (429 rate-limited)", async () => {
    // Per MAC: every address counts towards the same device.
    for (let i = 0; i < ACTIVATION_LIMITS.beginPerMac; i++) {
      const res = await post(ACTIVATION_PATHS.begin, { mac: "02CC00000005" }, freshAddress());
      expect(res.statusCode).toBe(200);
    }
    const limited = await post(ACTIVATION_PATHS.begin, { mac: "02CC00000005" }, freshAddress());
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ error: "rate-limited" });
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expect((await post(ACTIVATION_PATHS.begin, { mac: "02CC00000002" }, freshAddress())).statusCode).toBe(200);

    // Per address: a scanner trying many MACs.
    const scanner = freshAddress();
    for (let i = 0; i < ACTIVATION_LIMITS.beginPerAddress; i++) {
      const mac = `02DD${i.toString(16).padStart(8, "0")}`;
      expect((await post(ACTIVATION_PATHS.begin, { mac }, scanner)).statusCode).toBe(404);
    }
    const scanned = await post(ACTIVATION_PATHS.begin, { mac: "02CC00000002" }, scanner);
    expect(scanned.statusCode).toBe(429);
    expect(scanned.json()).toEqual({ error: "rate-limited" });

    // Step two per MAC (the nonce is checked before the argon2 secret, so these are cheap 409s).
    for (let i = 0; i < ACTIVATION_LIMITS.completePerMac; i++) {
      const res = await post(
        ACTIVATION_PATHS.complete,
        { mac: "02CC00000005", nonce: "x".repeat(40), secret: SECRET },
        freshAddress(),
      );
      expect(res.statusCode).toBe(409);
    }
    const tooMany = await post(
      ACTIVATION_PATHS.complete,
      { mac: "02CC00000005", nonce: "x".repeat(40), secret: SECRET },
      freshAddress(),
    );
    expect(tooMany.statusCode).toBe(429);
    expect(tooMany.json()).toEqual({ error: "rate-limited" });

    // Step two per address.
    const guesser = freshAddress();
    for (let i = 0; i < ACTIVATION_LIMITS.completePerAddress; i++) {
      const mac = `02DE${i.toString(16).padStart(8, "0")}`;
      const res = await post(ACTIVATION_PATHS.complete, { mac, nonce: "x".repeat(40), secret: SECRET }, guesser);
      expect(res.statusCode).toBe(409);
    }
    const guessed = await post(
      ACTIVATION_PATHS.complete,
      { mac: "02CC00000002", nonce: "x".repeat(40), secret: SECRET },
      guesser,
    );
    expect(guessed.statusCode).toBe(429);
  });

  it("never logs the secret, the nonce or the token", async () => {
    const begin = await post(ACTIVATION_PATHS.begin, { mac: "02CC00000002" }, freshAddress());
    const { nonce } = ZActivationBeginResult.parse(begin.json());
    const done = await post(ACTIVATION_PATHS.complete, { mac: "02CC00000002", nonce, secret: SECRET }, freshAddress());
    const token = ZActivationCompleteResult.parse(done.json()).pairingCode.split(":")[1];
    const logs = t.logs.join("\n");
    expect(logs).toContain(ACTIVATION_PATHS.complete);
    for (const text of [SECRET, nonce, token, "gw-password-xyz"]) expect(logs).not.toContain(text);
  });
});

describe("the broker URL told to devices", () => {
  it("is MQTT_PUBLIC_URL when set", async () => {
    const t = await createTestApp({ env: { MQTT_PUBLIC_URL: "mqtts://mqtt.aquapilot.example:8883" } });
    try {
      await provisionDevice(t.db, { mac: "02CC00000009", secret: SECRET, name: "S" });
      const res = await t.app.inject({ method: "POST", url: ACTIVATION_PATHS.begin, payload: { mac: "02CC00000009" } });
      expect(res.json().mqttUrl).toBe("mqtts://mqtt.aquapilot.example:8883");
    } finally {
      await t.close();
    }
  });

  it("drops credentials from every source", () => {
    const config = { MQTT_HOST: "0.0.0.0", MQTT_PORT: 1883 };
    expect(deviceBrokerUrl(config)).toBe("mqtt://127.0.0.1:1883");
    expect(deviceBrokerUrl(config, "mqtt://user:pw@10.0.0.5:1884/")).toBe("mqtt://10.0.0.5:1884");
    expect(deviceBrokerUrl({ ...config, MQTT_URL: "mqtts://gw:pw@broker:8883" })).toBe("mqtts://broker:8883");
    expect(deviceBrokerUrl({ ...config, MQTT_PUBLIC_URL: "wss://m.example/mqtt" }, "mqtt://x:y@h:1")).toBe(
      "wss://m.example/mqtt",
    );
  });
});

/** Binding with a pairing code from activation (spec §7 device POST /; docs/device-protocol.md §13.4). */
describeEndpoint(endpoints.bindDevice, "with a pairing code from activation, over HTTP", () => {
  let t: TestApp;
  let owner: TestUser;
  let member: TestUser;
  let outsider: TestUser;
  let homeId: string;
  const MAC = "02EE00000001";

  const bind = (as: TestUser, body: object) => call(t.app, endpoints.bindDevice, { as, body });
  const code = async () => {
    const begin = await t.app.inject({ method: "POST", url: ACTIVATION_PATHS.begin, payload: { mac: MAC } });
    const { nonce } = ZActivationBeginResult.parse(begin.json());
    const done = await t.app.inject({
      method: "POST",
      url: ACTIVATION_PATHS.complete,
      payload: { mac: MAC, nonce, secret: SECRET },
    });
    return ZActivationCompleteResult.parse(done.json()).pairingCode;
  };

  beforeAll(async () => {
    t = await createTestApp();
    owner = await signUpOwner(t.app, "owner@bind.test");
    member = await signUpUser(t.app, "member@bind.test");
    outsider = await signUpUser(t.app, "outsider@bind.test");
    homeId = (await familyWithDevices(t, owner, 0, { name: "Home" })).id;
    await joinWithShareCode(t.app, homeId, owner, member);
    await provisionDevice(t.db, { mac: MAC, secret: SECRET, name: "New softener", model: "AQ-S35" });
  });
  afterAll(() => t.close());

  it("binds once with the code; the same code then fails; a non-administrator is refused", async () => {
    const pairingCode = await code();
    const byMember = await bind(member, { familyId: homeId, code: pairingCode });
    expect(byMember.status).toBe(403);

    const ok = await bind(owner, { familyId: homeId, code: pairingCode, name: "Utility room" });
    expect(ok.status).toBe(200);
    expect(ok.result).toMatchObject({ familyId: homeId, name: "Utility room", mac: MAC });

    const again = await bind(owner, { familyId: homeId, code: pairingCode });
    expect(again.status).toBe(400);
    expect(again.body.error).toMatchObject({
      code: "InvalidCode",
      message: "The pairing code is not valid for any device.",
    });
    // The factory secret keeps working.
    const factory = await bind(owner, { familyId: homeId, code: `${MAC}:${SECRET}` });
    expect(factory.status).toBe(200);
  });

  it("limits binding per user: 429 in the ABP envelope", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < BIND_LIMITS.perUser + 2; i++) {
      statuses.push((await bind(outsider, { familyId: homeId, code: `${MAC}:wrong-${i}` })).status);
    }
    // Not in the household, which looks absent to them (404), until the limit refuses before looking at the request.
    expect(statuses).toEqual([...Array(BIND_LIMITS.perUser).fill(404), 429, 429]);
    const limited = await bind(outsider, { familyId: homeId, code: `${MAC}:${SECRET}` });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ success: false, __abp: true, error: { code: "TooManyRequests" } });
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    // Another user is not affected.
    expect((await bind(owner, { familyId: homeId, code: `${MAC}:${SECRET}` })).status).toBe(200);
  });
});
