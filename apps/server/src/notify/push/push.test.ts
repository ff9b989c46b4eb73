import { createECDH, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import ece from "http_ece";
import { importJWK, jwtVerify } from "jose";
import { afterEach, describe, expect, it } from "vitest";
import webpush from "web-push";
import { JPushSender } from "./jpush.ts";
import type { PushNotification } from "./types.ts";
import { WebPushSender } from "./web-push.ts";

/** A local HTTP endpoint that records each request and answers with `respond`. */
interface Recorded {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}
const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});
async function endpoint(respond: (req: Recorded) => { status: number; body?: string }) {
  const requests: Recorded[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const rec = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks) };
      requests.push(rec);
      const answer = respond(rec);
      res.writeHead(answer.status, { "content-type": "application/json" });
      res.end(answer.body ?? "");
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}`, requests };
}

const NOTE: PushNotification = {
  title: "Leak detected",
  content: "Kitchen closed its valve.",
  extras: { messageId: "m-1", deviceId: "d-1", type: "1", event: "leak" },
  urgent: true,
};

describe("JPush provider (JPush REST API v3, real HTTP)", () => {
  it("posts /v3/push with Basic appKey:masterSecret, registration_id audience and android/ios extras", async () => {
    const server = await endpoint(() => ({ status: 200, body: '{"sendno":"0","msg_id":"54043195"}' }));
    const sender = new JPushSender({ appKey: "app-key", masterSecret: "master-secret", baseUrl: `${server.base}/` });
    const result = await sender.send({ kind: "jpush", registrationId: "reg-1", platform: "ios" }, NOTE);
    expect(result.outcome).toBe("sent");
    expect(server.requests).toHaveLength(1);
    const req = server.requests[0];
    expect(req.method).toBe("POST");
    expect(req.url).toBe("/v3/push");
    expect(req.headers.authorization).toBe(`Basic ${Buffer.from("app-key:master-secret").toString("base64")}`);
    expect(req.headers["content-type"]).toMatch(/^application\/json/);
    const body = JSON.parse(req.body.toString("utf8"));
    expect(body).toMatchObject({
      platform: ["ios"],
      audience: { registration_id: ["reg-1"] },
      notification: {
        alert: NOTE.content,
        android: { alert: NOTE.content, title: NOTE.title, extras: { messageId: "m-1", deviceId: "d-1" } },
        ios: { alert: { title: NOTE.title, body: NOTE.content }, extras: { messageId: "m-1", deviceId: "d-1" } },
      },
      options: { apns_production: false },
    });
  });

  it("reports an unknown registration (error 1011) as invalid and other errors as failed", async () => {
    let answer = { status: 400, body: '{"error":{"code":1011,"message":"cannot find user by this audience"}}' };
    const server = await endpoint(() => answer);
    const sender = new JPushSender({ appKey: "k", masterSecret: "s", baseUrl: server.base });
    const target = { kind: "jpush" as const, registrationId: "gone", platform: null };
    expect((await sender.send(target, NOTE)).outcome).toBe("invalid");
    expect(JSON.parse(server.requests[0].body.toString()).platform).toBe("all");
    answer = { status: 401, body: '{"error":{"code":1004,"message":"authentication failed"}}' };
    expect((await sender.send(target, NOTE)).outcome).toBe("failed");
    answer = { status: 500, body: "oops" };
    expect((await sender.send(target, NOTE)).outcome).toBe("failed");
  });

  it("fails (does not throw) when the service cannot be reached", async () => {
    const sender = new JPushSender({ appKey: "k", masterSecret: "s", baseUrl: "http://127.0.0.1:1", timeoutMs: 2000 });
    expect((await sender.send({ kind: "jpush", registrationId: "r", platform: null }, NOTE)).outcome).toBe("failed");
  });
});

describe("Web Push provider (web-push, VAPID, aes128gcm, real HTTP)", () => {
  /** A browser-side subscription: P-256 key pair and auth secret, as PushManager.subscribe() makes them. */
  function browserKeys() {
    const ecdh = createECDH("prime256v1");
    ecdh.generateKeys();
    const auth = randomBytes(16);
    return { ecdh, auth, p256dh: ecdh.getPublicKey().toString("base64url"), authB64: auth.toString("base64url") };
  }

  it("sends an encrypted, VAPID-signed message with TTL and Urgency the subscriber can decrypt", async () => {
    const server = await endpoint(() => ({ status: 201 }));
    const vapid = webpush.generateVAPIDKeys();
    const sender = new WebPushSender({ keys: vapid, subject: "mailto:ops@aquapilot.example", ttlSeconds: 3600 });
    const browser = browserKeys();
    const endpointUrl = `${server.base}/push/abc123`;
    const result = await sender.send(
      {
        kind: "web-push",
        subscription: { endpoint: endpointUrl, keys: { p256dh: browser.p256dh, auth: browser.authB64 } },
      },
      NOTE,
    );
    expect(result.outcome).toBe("sent");
    const req = server.requests[0];
    expect(req.url).toBe("/push/abc123");
    expect(req.headers["content-encoding"]).toBe("aes128gcm");
    expect(req.headers.ttl).toBe("3600");
    expect(req.headers.urgency).toBe("high");
    // RFC 8292: Authorization: vapid t=<JWT signed ES256 by the server key>, k=<server public key>
    const match = /^vapid t=([^,]+), k=(.+)$/.exec(String(req.headers.authorization));
    expect(match).not.toBeNull();
    const [, jwt, k] = match as RegExpExecArray;
    expect(k).toBe(vapid.publicKey);
    const raw = Buffer.from(vapid.publicKey, "base64url");
    const key = await importJWK(
      {
        kty: "EC",
        crv: "P-256",
        x: raw.subarray(1, 33).toString("base64url"),
        y: raw.subarray(33).toString("base64url"),
      },
      "ES256",
    );
    const { payload } = await jwtVerify(jwt, key, { audience: server.base });
    expect(payload.sub).toBe("mailto:ops@aquapilot.example");
    expect((payload.exp as number) * 1000).toBeGreaterThan(Date.now());
    // The subscriber (and only it) decrypts the payload.
    const plain = ece.decrypt(req.body, {
      version: "aes128gcm",
      privateKey: browser.ecdh,
      authSecret: browser.authB64,
    });
    expect(JSON.parse(plain.toString("utf8"))).toEqual({
      title: NOTE.title,
      body: NOTE.content,
      messageId: "m-1",
      deviceId: "d-1",
      type: "1",
      event: "leak",
    });
  });

  it("reports a gone subscription (404/410) as invalid and a server error as failed", async () => {
    let status = 410;
    const server = await endpoint(() => ({ status }));
    const sender = new WebPushSender({ keys: webpush.generateVAPIDKeys(), subject: "mailto:ops@aquapilot.example" });
    const browser = browserKeys();
    const target = {
      kind: "web-push" as const,
      subscription: { endpoint: `${server.base}/p/1`, keys: { p256dh: browser.p256dh, auth: browser.authB64 } },
    };
    expect((await sender.send(target, { ...NOTE, urgent: false })).outcome).toBe("invalid");
    expect(server.requests[0].headers.urgency).toBe("normal");
    status = 404;
    expect((await sender.send(target, NOTE)).outcome).toBe("invalid");
    status = 503;
    expect((await sender.send(target, NOTE)).outcome).toBe("failed");
  });
});
