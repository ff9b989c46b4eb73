import type { TFault } from "@aquapilot/contract/wire";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { type DeviceChangeChannel, deviceChannel, readBefore } from "../../shared/realtime/index.ts";
import { getFaultsQueryOptions } from "./api/get-faults.ts";
import { faultKeys } from "./api/keys.ts";
import { changesFaults } from "./logic/fault.ts";

/** Hub-1 messages that change the list within this many ms are answered with one fetch. */
export const LIVE_REFRESH_DEBOUNCE_MS = 200;

/**
 * The fault list kept live from hub 1 (spec §7; a new fault shows without a reload): loads the list (every device of
 * the caller's households, or `deviceId` alone), starts the channel, and fetches the list again — once per burst —
 * when a message may change it ({@link changesFaults}: a close or reset, a device going offline or online, a station
 * that disagrees with the list) and after a reconnect (something may have been missed meanwhile).
 */
export function useLiveFaults(deviceId?: string, channel: DeviceChangeChannel = deviceChannel()) {
  const queryClient = useQueryClient();
  const query = useQuery(getFaultsQueryOptions(deviceId));
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const refresh = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = null;
        void queryClient.invalidateQueries({ queryKey: faultKeys.list(deviceId) });
      }, LIVE_REFRESH_DEBOUNCE_MS);
    };
    void channel.start();
    const offMessage = channel.onMessage((message) => {
      if (deviceId && message.deviceId !== deviceId) return;
      if (changesFaults(message, queryClient.getQueryData<TFault[]>(faultKeys.list(deviceId)))) refresh();
    });
    // Connected (the first time or again): the faults read before may have missed one.
    const offConnected = channel.onConnected((since) => {
      if (queryClient.getQueryCache().find({ queryKey: faultKeys.list(deviceId), predicate: readBefore(since) })) {
        refresh();
      }
    });
    return () => {
      offMessage();
      offConnected();
      if (timer) clearTimeout(timer);
    };
  }, [deviceId, queryClient, channel]);
  return query;
}
