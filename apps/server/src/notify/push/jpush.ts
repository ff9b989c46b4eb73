import type { PushNotification, PushResult, PushSender, PushTarget } from "./types.ts";

/** JPush error code for "cannot find user by this audience" (registration unknown or inactive 255+ days). */
export const JPUSH_INVALID_AUDIENCE = 1011;

/** Options of {@link JPushSender}. */
export interface JPushOptions {
  appKey: string;
  masterSecret: string;
  /** e.g. https://api.jpush.cn (config JPUSH_BASE_URL); the call is POST {baseUrl}/v3/push. */
  baseUrl: string;
  /** iOS through the APNs production environment (options.apns_production). Default false. */
  apnsProduction?: boolean;
  /** How long JPush keeps an offline notification, s (options.time_to_live). Default 86 400 (one day). */
  timeToLiveSeconds?: number;
  /** Request timeout, ms. Default 10 000. */
  timeoutMs?: number;
}

/**
 * The JPush v3 push request body for one registration (JPush REST API "Push API v3"): audience registration_id,
 * notification with a common alert plus android (title, extras) and ios (alert {title, body}, sound, badge +1,
 * extras) parts.
 */
export function jpushBody(
  registrationId: string,
  platform: "android" | "ios" | null,
  n: PushNotification,
  opts: Pick<JPushOptions, "apnsProduction" | "timeToLiveSeconds"> = {},
): Record<string, unknown> {
  return {
    platform: platform ? [platform] : "all",
    audience: { registration_id: [registrationId] },
    notification: {
      alert: n.content,
      android: { alert: n.content, title: n.title, extras: n.extras, priority: n.urgent ? 2 : 0 },
      ios: { alert: { title: n.title, body: n.content }, sound: "default", badge: "+1", extras: n.extras },
    },
    options: { time_to_live: opts.timeToLiveSeconds ?? 86_400, apns_production: opts.apnsProduction ?? false },
  };
}

/**
 * Push through JPush: `POST {baseUrl}/v3/push` with HTTP Basic `appKey:masterSecret` and {@link jpushBody}. 200 →
 * "sent"; error code 1011 (unknown audience) → "invalid" (the caller drops the registration); anything else →
 * "failed". Only "jpush" targets; others fail.
 */
export class JPushSender implements PushSender {
  readonly name = "jpush";
  private readonly authorization: string;
  private readonly opts: JPushOptions;
  constructor(opts: JPushOptions) {
    this.opts = opts;
    this.authorization = `Basic ${Buffer.from(`${opts.appKey}:${opts.masterSecret}`).toString("base64")}`;
  }

  async send(target: PushTarget, n: PushNotification): Promise<PushResult> {
    if (target.kind !== "jpush") return { outcome: "failed", detail: "not a JPush target" };
    const url = `${this.opts.baseUrl.replace(/\/+$/, "")}/v3/push`;
    let res: Response;
    try {
      res = await fetch(url, {
        method: "POST",
        headers: { authorization: this.authorization, "content-type": "application/json" },
        body: JSON.stringify(jpushBody(target.registrationId, target.platform, n, this.opts)),
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? 10_000),
      });
    } catch (err) {
      return { outcome: "failed", detail: (err as Error).message };
    }
    const text = await res.text().catch(() => "");
    if (res.ok) return { outcome: "sent", detail: text.slice(0, 200) };
    let code: number | undefined;
    try {
      code = (JSON.parse(text) as { error?: { code?: number } }).error?.code;
    } catch {
      code = undefined;
    }
    if (code === JPUSH_INVALID_AUDIENCE) return { outcome: "invalid", detail: text.slice(0, 200) };
    return { outcome: "failed", detail: `HTTP ${res.status} ${text.slice(0, 200)}` };
  }
}
