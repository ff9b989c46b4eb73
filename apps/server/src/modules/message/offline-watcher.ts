import type { ExpressionBuilder } from "kysely";
import type { Database, Db } from "../../db/index.ts";
import { DEVICE_HEARD_WINDOW_MS } from "../../iot/live-state.ts";
import type { MessageDelivery } from "./delivery.ts";
import { isWithinOfflineGrace, OFFLINE_MEANING } from "./rules.ts";

/** Options of {@link OfflineWatcher}. */
export interface OfflineWatcherDeps {
  db: Db;
  now: () => Date;
  /** OFFLINE_MESSAGE_MINUTES: an offline period longer than this produces one "offline" message. */
  offlineMinutes: number;
  /** When this process started: no offline period is taken to begin earlier (a restart raises no false alarms). */
  startedAt: Date;
  /** Stores and delivers the alarm to the device's household. */
  delivery: Pick<MessageDelivery, "storeForFamily">;
}

/**
 * The offline watcher: one "offline" alarm per offline period of a device bound to a household, once the period is
 * longer than `offlineMinutes`. Its memory is the `device_offline_watch` table (one row per device seen offline: when
 * the period began, when it was notified), so several processes and restarts agree. The message worker
 * (`MessageCenter.startWorker`) runs {@link check} on its timer.
 */
export class OfflineWatcher {
  private readonly deps: OfflineWatcherDeps;
  constructor(deps: OfflineWatcherDeps) {
    this.deps = deps;
  }

  /**
   * One check: a device (bound to a household) that has been offline for more than `offlineMinutes` gets one
   * "offline" alarm per offline period (source `offline:{deviceId}:{since}`). Offline: its status says so, or the
   * cloud has not heard it within the report interval plus margin (docs/device-protocol.md §5.2). A period starts
   * when the watcher first sees the device offline (at the time of its last write, status or report, but never
   * before this process started, so a restart of the server does not raise false alarms) and ends when the device is
   * seen online. Answers messages created.
   */
  async check(): Promise<number> {
    const { db } = this.deps;
    const now = this.deps.now();
    // Online as the device answers say (docs/device-protocol.md §5.2): its status says so and the cloud heard it
    // within the report interval plus margin (a row from before those times were kept follows its status).
    const cutoff = new Date(now.getTime() - DEVICE_HEARD_WINDOW_MS).toISOString();
    const heard = (eb: ExpressionBuilder<Database, "device_state">) =>
      eb.or([
        eb.and([eb("device_state.last_heard_at", "is", null), eb("device_state.status_at", "is", null)]),
        eb("device_state.last_heard_at", ">=", cutoff),
        eb("device_state.status_at", ">=", cutoff),
      ]);
    await db
      .deleteFrom("device_offline_watch")
      .where("device_id", "in", db.selectFrom("device_state").select("device_id").where("online", "=", 1).where(heard))
      .execute();
    const rows = await db
      .selectFrom("device_state")
      .innerJoin("devices", "devices.id", "device_state.device_id")
      .leftJoin("device_offline_watch", "device_offline_watch.device_id", "device_state.device_id")
      .select([
        "device_state.device_id",
        "device_state.updated_at",
        "device_offline_watch.offline_since",
        "device_offline_watch.notified_at",
      ])
      .where((eb) => eb.or([eb("device_state.online", "=", 0), eb.not(heard(eb))]))
      .where("devices.family_id", "is not", null)
      .execute();
    let created = 0;
    for (const r of rows) {
      let since = r.offline_since;
      if (since === null) {
        const start = Math.max(Date.parse(r.updated_at) || 0, this.deps.startedAt.getTime());
        await db
          .insertInto("device_offline_watch")
          .values({ device_id: r.device_id, offline_since: new Date(start).toISOString(), notified_at: null })
          .onConflict((oc) => oc.column("device_id").doNothing())
          .execute();
        const watch = await db
          .selectFrom("device_offline_watch")
          .select(["offline_since", "notified_at"])
          .where("device_id", "=", r.device_id)
          .executeTakeFirst();
        if (!watch || watch.notified_at) continue;
        since = watch.offline_since;
      } else if (r.notified_at) {
        continue;
      }
      if (isWithinOfflineGrace(since, now, this.deps.offlineMinutes)) continue;
      created += await this.deps.delivery.storeForFamily(
        { key: `offline:${r.device_id}:${since}`, kind: "offline", deviceId: r.device_id },
        { ...OFFLINE_MEANING },
        { minutes: this.deps.offlineMinutes },
      );
      await db
        .updateTable("device_offline_watch")
        .set({ notified_at: now.toISOString() })
        .where("device_id", "=", r.device_id)
        .where("offline_since", "=", since)
        .execute();
    }
    return created;
  }
}
