import { createHash, timingSafeEqual } from "node:crypto";
import { MESSAGE_TYPES, type TMessage, type TWebPushSubscription } from "@aquapilot/contract";
import type { AppConfig } from "../../config.ts";
import type { Db } from "../../db/index.ts";
import { AppError, ErrorCode } from "../../http/errors.ts";
import {
  JPushSender,
  loadOrCreateVapidKeys,
  OutboxPushSender,
  type PushNotification,
  type PushSender,
  type PushTarget,
  WebPushSender,
} from "../../notify/push/index.ts";

/** Minimal logger the push service writes to. */
export interface PushLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** What one {@link PushService.deliver} did, per outcome (tests and logs). */
export interface PushReport {
  /** false when the user's push switch is off (nothing was sent). */
  enabled: boolean;
  sent: number;
  failed: number;
  /** Registrations / subscriptions dropped because the provider called them invalid. */
  dropped: number;
}

/** Push bindings, the push switch and delivery of stored messages to phones and browsers (spec §7 push-service). */
export interface PushService {
  /** The VAPID public key browsers subscribe with (base64url). */
  readonly webPushPublicKey: string;
  /** "jpush" when JPush keys are configured, else "outbox" (demo). */
  readonly jpushProvider: string;
  /** Pushes one stored message to every JPush registration and Web Push subscription of `userId`, if the switch is on. */
  deliver(userId: string, message: TMessage): Promise<PushReport>;
}

/** The push notification of a stored message. */
export function notificationOf(message: TMessage): PushNotification {
  return {
    title: message.title,
    content: message.content,
    extras: {
      messageId: message.id,
      deviceId: message.deviceId ?? "",
      type: String(message.type),
      event: message.event ?? "",
    },
    urgent: message.type === MESSAGE_TYPES.deviceAlarm,
  };
}

/**
 * Builds the push service (docs/messages-push.md): phones through JPush when JPUSH_APP_KEY and JPUSH_MASTER_SECRET are
 * set, else through the outbox; browsers through Web Push with the VAPID keys of {@link loadOrCreateVapidKeys}.
 * `senders` replaces the providers (tests).
 */
export function createPushService(opts: {
  db: Db;
  config: Pick<
    AppConfig,
    | "DATA_DIR"
    | "JPUSH_APP_KEY"
    | "JPUSH_MASTER_SECRET"
    | "JPUSH_BASE_URL"
    | "JPUSH_APNS_PRODUCTION"
    | "VAPID_PUBLIC_KEY"
    | "VAPID_PRIVATE_KEY"
    | "VAPID_SUBJECT"
  >;
  logger: PushLogger;
  now?: () => Date;
  senders?: { jpush?: PushSender; webPush?: PushSender };
}): PushService {
  const { db, config, logger } = opts;
  const keys = loadOrCreateVapidKeys(config.DATA_DIR, {
    publicKey: config.VAPID_PUBLIC_KEY,
    privateKey: config.VAPID_PRIVATE_KEY,
  });
  const jpush =
    opts.senders?.jpush ??
    (config.JPUSH_APP_KEY && config.JPUSH_MASTER_SECRET
      ? new JPushSender({
          appKey: config.JPUSH_APP_KEY,
          masterSecret: config.JPUSH_MASTER_SECRET,
          baseUrl: config.JPUSH_BASE_URL,
          apnsProduction: config.JPUSH_APNS_PRODUCTION === "true",
        })
      : new OutboxPushSender(db, opts.now));
  const webPush = opts.senders?.webPush ?? new WebPushSender({ keys, subject: config.VAPID_SUBJECT });

  return {
    webPushPublicKey: keys.publicKey,
    jpushProvider: jpush.name,
    async deliver(userId, message) {
      const report: PushReport = { enabled: await isPushOpen(db, userId), sent: 0, failed: 0, dropped: 0 };
      if (!report.enabled) return report;
      const registrations = await db
        .selectFrom("push_registrations")
        .select(["registration_id", "platform"])
        .where("user_id", "=", userId)
        .execute();
      const subscriptions = await db
        .selectFrom("web_push_subscriptions")
        .selectAll()
        .where("user_id", "=", userId)
        .execute();
      const notification = notificationOf(message);
      const jobs: Array<{ sender: PushSender; target: PushTarget; drop: () => Promise<unknown> }> = [
        ...registrations.map((r) => ({
          sender: jpush,
          target: {
            kind: "jpush" as const,
            registrationId: r.registration_id,
            platform: r.platform === "android" || r.platform === "ios" ? (r.platform as "android" | "ios") : null,
          },
          drop: () =>
            db
              .deleteFrom("push_registrations")
              .where("registration_id", "=", r.registration_id)
              .where("user_id", "=", userId)
              .execute(),
        })),
        ...subscriptions.map((s) => ({
          sender: webPush,
          target: {
            kind: "web-push" as const,
            subscription: {
              endpoint: s.endpoint,
              expirationTime: s.expiration_time,
              keys: { p256dh: s.p256dh, auth: s.auth },
            },
          },
          drop: () =>
            db
              .deleteFrom("web_push_subscriptions")
              .where("endpoint", "=", s.endpoint)
              .where("user_id", "=", userId)
              .execute(),
        })),
      ];
      await Promise.all(
        jobs.map(async (job) => {
          const result = await job.sender.send(job.target, notification).catch((err: Error) => ({
            outcome: "failed" as const,
            detail: err.message,
          }));
          if (result.outcome === "sent") report.sent++;
          else if (result.outcome === "invalid") {
            report.dropped++;
            await job.drop();
            logger.info({ provider: job.sender.name, userId, detail: result.detail }, "push: invalid target dropped");
          } else {
            report.failed++;
            logger.warn({ provider: job.sender.name, userId, detail: result.detail }, "push: send failed");
          }
        }),
      );
      return report;
    },
  };
}

/** The push switch of spec §7 is_open_jpush__message for `userId`; on when never set. */
export async function isPushOpen(db: Db, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom("user_push_settings")
    .select("is_open")
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row ? row.is_open === 1 : true;
}

/** Sets the push switch (upsert) and answers the new value. */
export async function setPushOpen(db: Db, userId: string, isOpen: boolean, now: Date): Promise<boolean> {
  const values = { is_open: isOpen ? 1 : 0, updated_at: now.toISOString() };
  await db
    .insertInto("user_push_settings")
    .values({ user_id: userId, ...values })
    .onConflict((oc) => oc.column("user_id").doUpdateSet(values))
    .execute();
  return isOpen;
}

/** SHA-256 (hex) of an installation id: what `push_registrations.installation_hash` keeps. */
export function installationHash(installationId: string): string {
  return createHash("sha256").update(installationId, "utf8").digest("hex");
}

/** Equality of two secrets in time independent of where they differ (hashes first, so lengths may differ). */
function sameSecret(a: string, b: string): boolean {
  const ha = createHash("sha256").update(a, "utf8").digest();
  const hb = createHash("sha256").update(b, "utf8").digest();
  return timingSafeEqual(ha, hb);
}

/**
 * app-device-binding (spec §7): binds a JPush registration to `userId`. A registration id is unique and names one
 * app installation. Free, or already the caller's: it is (re)bound, keeping the installation proof
 * (`installationId`, hashed; the last one given wins). Held by another user (no silent takeover): it moves
 * only when the caller presents the installation id it was bound with — the same installation re-registering (the
 * phone changed accounts without signing out); otherwise it is refused and the holder keeps it.
 * @throws AppError Conflict `push.registrationTaken` (409) when another user holds it and the proof is missing or
 *   does not match.
 */
export async function bindRegistration(
  db: Db,
  userId: string,
  registrationId: string,
  platform: "android" | "ios" | undefined,
  now: Date,
  installationId?: string,
): Promise<void> {
  const at = now.toISOString();
  const hash = installationId ? installationHash(installationId) : null;
  await db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto("push_registrations")
      .values({
        registration_id: registrationId,
        user_id: userId,
        platform: platform ?? null,
        installation_hash: hash,
        created_at: at,
        updated_at: at,
      })
      .onConflict((oc) => oc.column("registration_id").doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) > 0) return;
    const held = await trx
      .selectFrom("push_registrations")
      .select(["user_id", "installation_hash"])
      .where("registration_id", "=", registrationId)
      .executeTakeFirstOrThrow();
    if (held.user_id !== userId) {
      const proven = hash !== null && held.installation_hash !== null && sameSecret(hash, held.installation_hash);
      if (!proven) throw new AppError(ErrorCode.Conflict, "push.registrationTaken");
    }
    await trx
      .updateTable("push_registrations")
      .set({
        user_id: userId,
        platform: platform ?? null,
        installation_hash: hash ?? held.installation_hash,
        updated_at: at,
      })
      .where("registration_id", "=", registrationId)
      .execute();
  });
}

/**
 * app-device-unbinding (spec §4 logout, §7): forgets the registration if the caller holds it; someone else's
 * registration is left alone. Idempotent (the app ignores failures anyway).
 */
export async function unbindRegistration(db: Db, userId: string, registrationId: string): Promise<void> {
  await db
    .deleteFrom("push_registrations")
    .where("registration_id", "=", registrationId)
    .where("user_id", "=", userId)
    .execute();
}

/**
 * Keeps a browser's Web Push subscription for `userId`. An endpoint is unique and names one browser's subscription.
 * Free, or already the caller's: stored (keys refreshed). Held by another user (no silent takeover): it moves
 * only when the caller presents the same subscription keys (p256dh and auth) — which only the browser holding the
 * subscription has: the same browser subscribing for another account; otherwise it is refused and the holder keeps it.
 * @throws AppError Conflict `push.subscriptionTaken` (409) when another user holds the endpoint with other keys.
 */
export async function subscribeWebPush(db: Db, userId: string, s: TWebPushSubscription, now: Date): Promise<void> {
  const at = now.toISOString();
  const values = {
    user_id: userId,
    p256dh: s.keys.p256dh,
    auth: s.keys.auth,
    expiration_time: s.expirationTime ?? null,
    updated_at: at,
  };
  await db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto("web_push_subscriptions")
      .values({ endpoint: s.endpoint, created_at: at, ...values })
      .onConflict((oc) => oc.column("endpoint").doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) > 0) return;
    const held = await trx
      .selectFrom("web_push_subscriptions")
      .select(["user_id", "p256dh", "auth"])
      .where("endpoint", "=", s.endpoint)
      .executeTakeFirstOrThrow();
    // Both keys are compared, always, so the answer's timing does not tell which one differed.
    const sameKeys = [sameSecret(held.p256dh, s.keys.p256dh), sameSecret(held.auth, s.keys.auth)].every(Boolean);
    if (held.user_id !== userId && !sameKeys) throw new AppError(ErrorCode.Conflict, "push.subscriptionTaken");
    await trx.updateTable("web_push_subscriptions").set(values).where("endpoint", "=", s.endpoint).execute();
  });
}

/** Forgets the caller's subscription with this endpoint (others' are left alone). */
export async function unsubscribeWebPush(db: Db, userId: string, endpoint: string): Promise<void> {
  await db
    .deleteFrom("web_push_subscriptions")
    .where("endpoint", "=", endpoint)
    .where("user_id", "=", userId)
    .execute();
}
