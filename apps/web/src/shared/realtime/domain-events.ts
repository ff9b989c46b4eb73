import { DOMAIN_EVENT_KINDS, HUB_METHODS, type TDomainEvent } from "@aquapilot/contract/wire";
import { type QueryClient, type QueryFilters, useQueryClient } from "@tanstack/react-query";
import { useEffect, useSyncExternalStore } from "react";
import { invalidateOnePerTask } from "../api/query-client.ts";
import { queryKeys } from "../api/query-keys.ts";
import { subscribeSession } from "../auth/session.ts";
import { getAccessToken } from "../storage/index.ts";
import { unitPreferencesKey } from "../units/api/keys.ts";
import type { DeviceChangeChannel } from "./device-channel.ts";
import { type HubConnectionLike, readBefore } from "./hub-channel.ts";

/**
 * Domain events (hub 1 `DomainEvent`; docs/messages-push.md "Domain events") → the TanStack Query cache, in this one
 * place: {@link queryKeysFor} says which cached reads an event makes stale, {@link useDomainEvents} (mounted once at
 * the app root) fetches again those a screen shows. No screen wires its own updates for another member's changes.
 */

/**
 * Queries an event makes stale: every query whose key starts with `queryKey` and, when `id` is given, holds `id` as
 * one of its parts (the household's or the device's id).
 */
export interface QueryMatch {
  queryKey: readonly unknown[];
  id?: string;
}

/**
 * The queries `event` makes stale (pure; spec §7 query groups, shared/api/query-keys.ts):
 * - `family` (a household's name, avatar, address; created, deleted): every household query (lists and details show
 *   its fields);
 * - `family-devices` (a device added, removed, sorted): the household's device list and dashboard, its detail and the
 *   household list (their device counts), and the after-sales device choice;
 * - `device` (name, image, vacation, a command done, salt, configuration): every query of that device (info, settings,
 *   statistics, salt, cycles, faults) and the household's device list and dashboard (Home's card);
 * - `member` (joined, left, removed, administrator transferred): the household's members and detail, and the household
 *   list (the administrator flag, and the household itself for the member who joined or left);
 * - `settings`: the user's profile, display units and push switch;
 * - `message-read`: every message query (lists, details, the unread badge);
 * - `share-codes`: the user's share-code list; `after-sale`: every after-sales query.
 * An event without the id its kind needs matches nothing of that id's.
 */
export function queryKeysFor(event: TDomainEvent): QueryMatch[] {
  const { familyId, deviceId } = event;
  const ofFamily = (queryKey: readonly unknown[]): QueryMatch[] => (familyId ? [{ queryKey, id: familyId }] : []);
  switch (event.kind) {
    case "family":
      return [{ queryKey: queryKeys.familyAll }];
    case "family-devices":
      return [
        ...ofFamily(queryKeys.familyDevicesAll),
        ...ofFamily(queryKeys.familyAll),
        { queryKey: queryKeys.families },
        { queryKey: [...queryKeys.afterSaleAll, "devices"] },
      ];
    case "device":
      return [
        ...(deviceId ? [{ queryKey: queryKeys.deviceAll, id: deviceId }] : []),
        ...ofFamily(queryKeys.familyDevicesAll),
      ];
    case "member":
      return [...ofFamily(queryKeys.familyUserAll), ...ofFamily(queryKeys.familyAll), { queryKey: queryKeys.families }];
    case "settings":
      return [{ queryKey: queryKeys.profile }, { queryKey: unitPreferencesKey }, { queryKey: queryKeys.pushSwitch }];
    case "message-read":
      return [{ queryKey: queryKeys.messageAll }];
    case "share-codes":
      return [{ queryKey: queryKeys.familyShares }];
    case "after-sale":
      return [{ queryKey: queryKeys.afterSaleAll }];
  }
}

/** The TanStack Query filter of one {@link QueryMatch}. */
export function filterOf(match: QueryMatch): QueryFilters {
  const { id } = match;
  return id === undefined
    ? { queryKey: match.queryKey }
    : { queryKey: match.queryKey, predicate: (query) => query.queryKey.includes(id) };
}

/**
 * Applies one event: marks its queries ({@link queryKeysFor}) stale and fetches again those a screen shows, each in a
 * task of its own (`invalidateOnePerTask`). Resolves when they are answered; never rejects.
 */
export function applyDomainEvent(queryClient: QueryClient, event: TDomainEvent): Promise<void> {
  return invalidateOnePerTask(queryClient, ...queryKeysFor(event).map(filterOf));
}

/**
 * A hub-1 `DomainEvent` argument as the contract's ZDomainEvent (an object, or its JSON text), checked by hand (the
 * first screen loads no zod): null when it is not one (an unknown kind from a newer server included).
 */
export function parseDomainEvent(value: unknown): TDomainEvent | null {
  let data = value;
  if (typeof value === "string") {
    try {
      data = JSON.parse(value);
    } catch {
      return null;
    }
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) return null;
  const record = data as Record<string, unknown>;
  const idOrNull = (v: unknown) => v === null || typeof v === "string";
  if (!(DOMAIN_EVENT_KINDS as readonly unknown[]).includes(record.kind)) return null;
  if (!idOrNull(record.familyId) || !idOrNull(record.deviceId) || !idOrNull(record.userId)) return null;
  if (typeof record.cause !== "string") return null;
  return {
    kind: record.kind as TDomainEvent["kind"],
    familyId: record.familyId as string | null,
    deviceId: record.deviceId as string | null,
    userId: record.userId as string | null,
    cause: record.cause,
  };
}

/**
 * The domain events heard on hub 1: {@link DomainEventFeed.attach} listens on a connection for `DomainEvent` (the app's
 * hub-1 connections are attached as they are built, shared/realtime/index.ts); listeners get each valid event.
 */
export class DomainEventFeed {
  private readonly listeners = new Set<(event: TDomainEvent) => void>();

  /** Listens for `DomainEvent` on `connection`; answers the connection. */
  attach<C extends Pick<HubConnectionLike, "on">>(connection: C): C {
    connection.on(HUB_METHODS.domainEvent, (payload: unknown) => this.receive(payload));
    return connection;
  }

  /** Hands one `DomainEvent` argument to the listeners; an invalid one is logged and dropped. */
  receive(payload: unknown): void {
    const event = parseDomainEvent(payload);
    if (!event) {
      console.warn("[realtime] hub 1 domain event does not match the contract", payload);
      return;
    }
    for (const listener of this.listeners) listener(event);
  }

  /** Listens for events; returns the unsubscribe function. */
  onEvent(listener: (event: TDomainEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** The app's feed (its hub-1 connections are attached to it in shared/realtime/index.ts). */
export const domainEvents = new DomainEventFeed();

/**
 * The query groups a domain event can touch that a hub-1 connection re-reads when it comes (back). The device and
 * device-list groups are left to `useKeepDevicesLive`, which re-reads them on the screens that show them (one call
 * each, not two).
 */
const EVENT_GROUPS: readonly (readonly unknown[])[] = [
  queryKeys.familyAll,
  queryKeys.familyUserAll,
  queryKeys.profile,
  unitPreferencesKey,
  queryKeys.pushSwitch,
  queryKeys.afterSaleAll,
];

/**
 * Keeps every open screen in step with changes made elsewhere (another member's phone, the user's other phone), at
 * the app root: while someone is signed in, hub 1 runs and each domain event refetches the queries it makes stale
 * ({@link applyDomainEvent}); when hub 1 connects — the first time, and after a drop — the queries of those groups read
 * before it are read again, since events sent meanwhile reached nobody. Stopping hub 1 stays with sign-out and 401.
 */
export function useDomainEvents(channel: DeviceChangeChannel, feed: DomainEventFeed = domainEvents): void {
  const queryClient = useQueryClient();
  const session = useSyncExternalStore(
    subscribeSession,
    () => getAccessToken() ?? "",
    () => "",
  );
  const signedIn = session !== "";
  useEffect(() => {
    if (!signedIn) return;
    void channel.start();
    const offEvent = feed.onEvent((event) => void applyDomainEvent(queryClient, event));
    const offConnected = channel.onConnected((since) => {
      const stale = readBefore(since);
      void invalidateOnePerTask(queryClient, ...EVENT_GROUPS.map((queryKey) => ({ queryKey, predicate: stale })));
    });
    return () => {
      offEvent();
      offConnected();
    };
  }, [signedIn, channel, feed, queryClient]);
}
