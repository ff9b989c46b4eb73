import type { TDeviceChangeMessage, TFamilyDevice } from "@aquapilot/contract/wire";
import { HUB_CLOSE_ERRORS, RealtimeChannelState } from "@aquapilot/contract/wire";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useSyncExternalStore } from "react";
import { apiBaseUrl } from "../api/api-host.ts";
import { getFamiliesQueryOptions } from "../api/families.ts";
import { invalidateOnePerTask } from "../api/query-client.ts";
import { queryKeys } from "../api/query-keys.ts";
import { ensureFreshToken } from "../api/token.ts";
import { forgetLostFamily, knownFamilyIds, lostFamilies } from "../auth/family-lost.tsx";
import { linkFactsOf } from "../device/live-device.ts";
import { createDeviceHubConnection, DeviceChangeChannel } from "./device-channel.ts";
import { domainEvents, useDomainEvents } from "./domain-events.ts";
import { readBefore } from "./hub-channel.ts";
import { type PhoneLinkSnapshot, PhoneLinkWatcher, usePhoneLinkOf } from "./phone-link.ts";
import { sessionGoesOn } from "./session-end.ts";

export { DeviceChangeChannel } from "./device-channel.ts";
export { readBefore } from "./hub-channel.ts";
export type { PhoneLinkSnapshot } from "./phone-link.ts";

let channel: DeviceChangeChannel | null = null;
let link: PhoneLinkWatcher | null = null;

/**
 * The app's hub-1 channel (created on first use; the token comes from the stored, refreshed access token). Each of its
 * connections also feeds the app's domain events (`DomainEvent`, domain-events.ts).
 */
export function deviceChannel(): DeviceChangeChannel {
  channel ??= new DeviceChangeChannel(
    () => domainEvents.attach(createDeviceHubConnection(async () => (await ensureFreshToken()) ?? "", apiBaseUrl())),
    undefined,
    sessionGoesOn,
  );
  return channel;
}

/**
 * Mounted once at the app root (app/background.tsx): every domain event heard on the app's hub 1 refetches what it
 * makes stale, so another member's change (or the user's own on another phone) reaches every open screen without
 * navigating (domain-events.ts `useDomainEvents`). Draws nothing.
 */
export function DomainEventWatch(): null {
  useDomainEvents(deviceChannel());
  return null;
}

/** Replaces the app's channel (tests). */
export function setDeviceChannel(next: DeviceChangeChannel | null): void {
  channel = next;
  link?.dispose();
  link = null;
}

/**
 * Applies one hub-1 message to a family's device list (pure): the matching device gets the message's online flag,
 * its station when reported, its last report time when given, and how the cloud hears it (last heard, refused).
 * Returns the same array when nothing matched.
 */
export function applyDeviceChange(list: TFamilyDevice[], message: TDeviceChangeMessage): TFamilyDevice[] {
  const index = list.findIndex((d) => d.id === message.deviceId);
  if (index < 0) return list;
  const device = list[index];
  const next: TFamilyDevice = {
    ...device,
    online: message.online,
    station: message.station ?? device.station,
    // The list shows real time, never a device's clock: the server's arrival stamp of the report.
    lastReportTime: message.reportedAt ?? message.lastReportTime ?? device.lastReportTime,
    ...linkFactsOf(message, device),
  };
  return list.map((d, i) => (i === index ? next : d));
}

/** The channel state (none 0, connecting 1, connected 2) as React state. */
export function useChannelState(target: DeviceChangeChannel = deviceChannel()): RealtimeChannelState {
  return useSyncExternalStore(
    (cb) => target.onState(cb),
    () => target.state,
    () => RealtimeChannelState.None,
  );
}

/**
 * Keeps a family's device list live (spec §7 hub 1): starts the channel, patches the TanStack Query cache of
 * `queryKeys.familyDevices(familyId)` with station/online from each message, and once connected — the first time as
 * after a reconnect — reads again the device queries read before the connection (the household's list and dashboard,
 * a device's info…), so a change made meanwhile is not missed. When the server closes the connection because the
 * user no longer belongs to a household (`HUB_CLOSE_ERRORS.familyAccessEnded`: removed, left, household deleted),
 * the household queries are read again at once, so Home moves to a household still theirs (the spec
 * has no text for it; the removal notice arrives as a message). Draws nothing itself: a screen that shows the channel's
 * state reads it where it shows it ({@link useChannelState}), so a state change redraws only that part.
 */
export function useKeepDevicesLive(
  familyId: string | null | undefined,
  target: DeviceChangeChannel = deviceChannel(),
): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    void target.start();
    const offMessage = target.onMessage((message) => {
      if (!familyId || (message.familyId !== null && message.familyId !== familyId)) return;
      queryClient.setQueryData<TFamilyDevice[]>(queryKeys.familyDevices(familyId), (list) =>
        list ? applyDeviceChange(list, message) : list,
      );
    });
    const offConnected = target.onConnected((since) => {
      const stale = readBefore(since);
      // One call per task: the connection comes while a screen is still starting, and a long task would hold it.
      void invalidateOnePerTask(
        queryClient,
        { queryKey: queryKeys.familyDevicesAll, predicate: stale },
        { queryKey: queryKeys.deviceAll, predicate: stale },
      );
    });
    const offCloseError = target.onCloseError((error) => {
      if (!error.message.includes(HUB_CLOSE_ERRORS.familyAccessEnded)) return;
      // Which household went: the list read again, compared with the one on screen; each lost one is forgotten at
      // once (its screens leave; hub 2's notice then says who did it).
      const known = knownFamilyIds(queryClient);
      void queryClient
        .fetchQuery({ ...getFamiliesQueryOptions(), staleTime: 0 })
        .then((after) => {
          for (const familyId of lostFamilies(known, after)) forgetLostFamily(queryClient, familyId);
        })
        .catch(() => {}) // offline or signed out meanwhile: the next connection reads the list again
        .finally(() => {
          void queryClient.invalidateQueries({ queryKey: queryKeys.familyAll });
          void queryClient.invalidateQueries({ queryKey: queryKeys.familyUserAll });
        });
    });
    return () => {
      offMessage();
      offConnected();
      offCloseError();
    };
  }, [familyId, queryClient, target]);
}

/** {@link useKeepDevicesLive}, and the channel state (none 0, connecting 1, connected 2) as React state. */
export function useDeviceChanges(
  familyId: string | null | undefined,
  target: DeviceChangeChannel = deviceChannel(),
): RealtimeChannelState {
  useKeepDevicesLive(familyId, target);
  return useChannelState(target);
}

/** The app's watcher of the phone's link to the cloud (phone-link.ts), over the app's hub-1 channel. */
export function phoneLink(): PhoneLinkWatcher {
  link ??= new PhoneLinkWatcher(deviceChannel());
  return link;
}

/** The phone's link to the cloud as React state (state, and since when the figures on screen date). */
export function usePhoneLink(): PhoneLinkSnapshot {
  return usePhoneLinkOf(phoneLink());
}
