import type { TWebPushSubscription } from "@aquapilot/contract";

/** What a push shows on the phone or in the browser: the message's title and content plus what opening it needs. */
export interface PushNotification {
  title: string;
  content: string;
  /** Extras the native shell or service worker reads to open the message (spec §2 "open the message list"). */
  extras: {
    messageId: string;
    /** The device a device message is about; "" for announcements. */
    deviceId: string;
    /** Message type 1–3 as text. */
    type: string;
    /** Message event (contract MESSAGE_EVENTS) or "". */
    event: string;
  };
  /** 1 alarm → high urgency; other types normal. */
  urgent: boolean;
}

/** Where one push goes: a JPush registration of a phone, or a browser's Web Push subscription. */
export type PushTarget =
  | { kind: "jpush"; registrationId: string; platform: "android" | "ios" | null }
  | { kind: "web-push"; subscription: TWebPushSubscription };

/**
 * Outcome of one push: "sent" (accepted by the provider), "invalid" (the provider says the registration or
 * subscription no longer exists: the caller drops it), "failed" (anything else; logged, the binding stays).
 */
export interface PushResult {
  outcome: "sent" | "invalid" | "failed";
  /** Provider status or error text for the log. */
  detail?: string;
}

/** A push provider (docs/messages-push.md): JPush, Web Push, or the outbox of the demo. */
export interface PushSender {
  /** Provider name for logs: "jpush", "web-push", "outbox". */
  readonly name: string;
  /** Sends one notification to one target. Never throws for provider answers; network errors give "failed". */
  send(target: PushTarget, notification: PushNotification): Promise<PushResult>;
}
