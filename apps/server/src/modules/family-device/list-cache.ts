import type { TFamilyDevice } from "@aquapilot/contract";
import { DEFAULT_AUTH_CACHE_MS, familyTag, InvalidatedCache } from "../../auth/request-cache.ts";
import type { Bus, BusEvent } from "../../bus.ts";
import type { Db } from "../../db/index.ts";
import { listFamilyDevices } from "./service.ts";

/**
 * The per-process cache of households' device lists (spec §7 family-device/get-list-by-family-id), each kept as
 * `present` made it from the list (`V`: the route keeps the serialised answer).
 */
export interface FamilyDeviceLists<V> {
  /**
   * `present` of the devices of household `familyId` in sort order with their live state, as
   * {@link listFamilyDevices} reads them: from memory while no bus event has changed them, else from the database. No
   * membership check: the route's object rule runs first. Errors of the database or of `present` propagate; nothing
   * is kept then.
   */
  read(familyId: string): Promise<V>;
  /** Lists held now (for tests and diagnostics). */
  readonly size: number;
  /** Empties the cache: for when bus events may have been missed (system.ts, a gap in the Redis backplane). */
  clear(): void;
  /** Stops following the bus and empties the cache. Call once, at shutdown. */
  close(): void;
}

/**
 * Caches each household's device list, as `present` makes it, for `ttlMs` (AUTH_CACHE_MS, default 5,000 ms; 0 turns it off). Every write to
 * what the list shows is followed by a bus event that drops the household's list at once, in every process sharing
 * the bus:
 *
 * | bus event | written by |
 * | --- | --- |
 * | `device.changed` (its `familyId`) | the gateway's state, status and telemetry batches (online, station, last report, model), rename and image, settings, bind (new and old household), unbind |
 * | `family.devices-changed` | update-device-sort |
 * | `family.members-changed` | the household's deletion (its devices unbound) and membership changes |
 *
 * A read that overlapped any invalidation answers but is not kept (auth/request-cache.ts), so a read begun before a
 * change never stores the old list after the change's event. What is left to the lifetime: an event lost with no gap
 * noticed, and devices provisioned again at a process's start or by the development factory route (their model).
 * `clock` is the monotonic clock in ms (default `performance.now`).
 */
export function createFamilyDeviceLists<V>(opts: {
  db: Db;
  bus: Pick<Bus, "subscribe">;
  /** What is kept of a list (pure; the list must not be changed). */
  present: (list: TFamilyDevice[]) => V;
  ttlMs?: number;
  clock?: () => number;
}): FamilyDeviceLists<V> {
  const cache = new InvalidatedCache<V>({
    ttlMs: opts.ttlMs ?? DEFAULT_AUTH_CACHE_MS,
    clock: opts.clock,
  });
  cache.follow(opts.bus, (event) => {
    const familyId = familyOfEvent(event);
    return familyId ? [familyTag(familyId)] : [];
  });
  // The cache itself is the FamilyDeviceLists' size, clear and close.
  return Object.assign(cache, {
    read: (familyId: string) =>
      cache.getOrLoad(
        familyId,
        async () => opts.present(await listFamilyDevices(opts.db, familyId)),
        () => [familyTag(familyId)],
      ),
  });
}

/** The household whose device list `event` may have changed, or null. */
function familyOfEvent(event: BusEvent): string | null {
  switch (event.type) {
    case "device.changed":
    case "family.devices-changed":
    case "family.members-changed":
      return event.familyId;
    default:
      return null;
  }
}
