import { randomUUID } from "node:crypto";
import type { Db } from "../../db/index.ts";
import type { PushNotification, PushResult, PushSender, PushTarget } from "./types.ts";

/**
 * The demo's push provider (no JPush keys configured): keeps each push in the `outbox` table with channel "push",
 * recipient `jpush:{registrationId}` (or `web-push:{endpoint}`), subject = title, body = content + extras JSON.
 * Readable through GET /dev/outbox outside production.
 */
export class OutboxPushSender implements PushSender {
  readonly name = "outbox";
  private readonly db: Db;
  private readonly now: () => Date;
  constructor(db: Db, now: () => Date = () => new Date()) {
    this.db = db;
    this.now = now;
  }

  async send(target: PushTarget, n: PushNotification): Promise<PushResult> {
    const recipient =
      target.kind === "jpush" ? `jpush:${target.registrationId}` : `web-push:${target.subscription.endpoint}`;
    await this.db
      .insertInto("outbox")
      .values({
        id: randomUUID(),
        channel: "push",
        recipient,
        subject: n.title,
        body: `${n.content}\n${JSON.stringify(n.extras)}`,
        created_at: this.now().toISOString(),
      })
      .execute();
    return { outcome: "sent" };
  }
}
