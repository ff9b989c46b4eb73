import type { TFamilyDashboard } from "@aquapilot/contract/wire";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { deviceChannel } from "../../shared/realtime/index.ts";
import { dashboardKey } from "./api/get-dashboard.ts";
import { applyDashboardMessage, CoalescedRefresh, refetchesDashboard } from "./logic/dashboard-live.ts";

/**
 * Keeps a household's cached dashboard live through hub 1 (spec §7): every message of one of its devices
 * patches the cached dashboard (water left, regenerating, last seen) without a request; events that change the other
 * figures (a cycle started or ended, vacation, a close or reopening, a firmware update ended, online/offline) ask for
 * the dashboard again — joined into at most one request per 10 s. Subscribes to no query itself: the component that
 * keeps it live does not draw again with each message, only those that show the dashboard (a slow phone pays for
 * every needless redraw). Mount it once per shown household.
 */
export function useLiveDashboardUpdates(familyId: string | null | undefined): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!familyId) return;
    const key = dashboardKey(familyId);
    const refresh = new CoalescedRefresh(() => void queryClient.invalidateQueries({ queryKey: key, exact: true }));
    const off = deviceChannel().onMessage((message) => {
      if (message.familyId !== null && message.familyId !== familyId) return;
      const current = queryClient.getQueryData<TFamilyDashboard>(key);
      if (current) {
        queryClient.setQueryData<TFamilyDashboard>(
          key,
          applyDashboardMessage(current, message, new Date().toISOString()),
        );
      }
      if (refetchesDashboard(message, current)) refresh.request();
    });
    return () => {
      off();
      refresh.dispose();
    };
  }, [familyId, queryClient]);
}
