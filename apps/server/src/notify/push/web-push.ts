import fs from "node:fs";
import path from "node:path";
import webpush from "web-push";
import { ensurePrivateDir } from "../../data-dir.ts";
import type { PushNotification, PushResult, PushSender, PushTarget } from "./types.ts";

/** File in DATA_DIR holding the generated VAPID key pair (JSON {publicKey, privateKey}, mode 0600). */
export const VAPID_KEY_FILE = "web-push-vapid.json";

/** A VAPID key pair, base64url (uncompressed P-256 public key, raw private key). */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/**
 * The VAPID keys: VAPID_PUBLIC_KEY + VAPID_PRIVATE_KEY when both are set, else the pair kept in
 * DATA_DIR/web-push-vapid.json, generated on first use.
 * @throws when only one of the two variables is set, or the file is unreadable.
 */
export function loadOrCreateVapidKeys(dataDir: string, env: { publicKey?: string; privateKey?: string }): VapidKeys {
  if (env.publicKey && env.privateKey) return { publicKey: env.publicKey, privateKey: env.privateKey };
  if (env.publicKey || env.privateKey) throw new Error("Set both VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, or neither");
  const file = path.join(dataDir, VAPID_KEY_FILE);
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, "utf8")) as VapidKeys;
  ensurePrivateDir(dataDir);
  const keys = webpush.generateVAPIDKeys();
  try {
    fs.writeFileSync(file, JSON.stringify(keys), { mode: 0o600, flag: "wx" });
  } catch (err) {
    // Another process wrote it first: use theirs.
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return JSON.parse(fs.readFileSync(file, "utf8")) as VapidKeys;
    throw err;
  }
  return keys;
}

/** Options of {@link WebPushSender}. */
export interface WebPushOptions {
  keys: VapidKeys;
  /** mailto: or https: contact (config VAPID_SUBJECT). */
  subject: string;
  /** How long the push service keeps the message, s (TTL header). Default 86 400. */
  ttlSeconds?: number;
  /** Request timeout, ms. Default 10 000. */
  timeoutMs?: number;
}

/**
 * Standard Web Push (RFC 8030/8291/8292) with the `web-push` package: the payload (JSON {title, body, ...extras}) is
 * encrypted with aes128gcm for the subscription's keys and signed with VAPID (`Authorization: vapid t=…, k=…`), with
 * TTL and Urgency headers; the request is sent with fetch. 201/202/200 → "sent"; 404/410 (subscription gone) →
 * "invalid"; anything else → "failed".
 */
export class WebPushSender implements PushSender {
  readonly name = "web-push";
  private readonly opts: WebPushOptions;
  constructor(opts: WebPushOptions) {
    this.opts = opts;
  }

  async send(target: PushTarget, n: PushNotification): Promise<PushResult> {
    if (target.kind !== "web-push") return { outcome: "failed", detail: "not a Web Push target" };
    const payload = JSON.stringify({ title: n.title, body: n.content, ...n.extras });
    let details: webpush.RequestDetails;
    try {
      details = webpush.generateRequestDetails(
        { endpoint: target.subscription.endpoint, keys: target.subscription.keys },
        payload,
        {
          vapidDetails: { subject: this.opts.subject, ...this.opts.keys },
          TTL: this.opts.ttlSeconds ?? 86_400,
          contentEncoding: "aes128gcm",
          urgency: n.urgent ? "high" : "normal",
        },
      );
    } catch (err) {
      return { outcome: "invalid", detail: `bad subscription: ${(err as Error).message}` };
    }
    let res: Response;
    try {
      res = await fetch(details.endpoint, {
        method: details.method,
        headers: Object.fromEntries(Object.entries(details.headers).map(([k, v]) => [k, String(v)])),
        body: details.body ? new Uint8Array(details.body) : undefined,
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? 10_000),
      });
    } catch (err) {
      return { outcome: "failed", detail: (err as Error).message };
    }
    const text = await res.text().catch(() => "");
    if (res.status >= 200 && res.status < 300) return { outcome: "sent" };
    if (res.status === 404 || res.status === 410) return { outcome: "invalid", detail: `HTTP ${res.status}` };
    return { outcome: "failed", detail: `HTTP ${res.status} ${text.slice(0, 200)}` };
  }
}
