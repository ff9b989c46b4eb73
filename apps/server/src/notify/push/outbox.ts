import { randomUUID } from "node:crypto";
import type { Db } from "../../db/index.js";
import type { PushNotification, PushResult, PushSender, PushTarget } from "./types.js";

/**
 * The demo's push provider (no JPush keys configured): keeps each push in the `outbox` table with channel "push",
 * recipient `jpush:{registrationId}` (or `web-push:{endpoint}`), subject = title, body = content + extras JSON.
 * Readable through GET /dev/outbox outside production.
 */
export class OutboxPushSender implements PushSender {
  readonly name = "outbox";
  constructor(
    private readonly db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {}

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
