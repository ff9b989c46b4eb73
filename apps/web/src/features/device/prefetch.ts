import type { QueryClient } from "@tanstack/react-query";
import { getFamilyDevicesQueryOptions } from "../../shared/api/family-devices.ts";
import { prefetchForFirstMount } from "../../shared/api/query-client.ts";
import { getDeviceInfoQueryOptions } from "../../shared/device/api/get-device-info.ts";
import { getSaltStatusQueryOptions } from "../../shared/device/api/get-salt-status.ts";
import { getStationDurationsQueryOptions } from "../../shared/device/api/get-station-durations.ts";
import { parseRouteParams } from "../../shared/navigation/index.ts";
import { getUnitPreferencesQueryOptions } from "../../shared/units/api/get-unit-preferences.ts";

/**
 * The Device screen's first calls when it is the page's first screen (issue 12: interactive within 2 s; no request
 * waterfall behind its first render), started at start-up beside its chunk: the live figures (spec §7
 * query-device-info), the station durations (device-station-maxworktime-cache), the salt status (get-salt-status),
 * the household's device list (the name and image) and the owner's units (the volumes and flow are shown in them). The device and household come from the page's route params
 * (`#/Device?params={"deviceId":…,"familyId":…}`, spec §2); without a device id nothing is asked. Failures are silent
 * here: the screen's own queries ask again and show their errors. The statistics are not asked: the chart's call
 * follows the live figures, as the screen does. Resolves when the calls have settled; never rejects.
 * @param client the app's query client, filled under the keys the screen's queries read.
 * @param hash the page's location hash (defaults to the current one).
 */
export async function prefetchDevice(client: QueryClient, hash: string = window.location.hash): Promise<void> {
  const search = hash.includes("?") ? hash.slice(hash.indexOf("?")) : "";
  const { deviceId, familyId } = parseRouteParams<{ deviceId: string; familyId: string }>(search);
  if (typeof deviceId !== "string" || !deviceId) return;
  await Promise.all([
    prefetchForFirstMount(client, getDeviceInfoQueryOptions(deviceId)),
    prefetchForFirstMount(client, getStationDurationsQueryOptions(deviceId)),
    prefetchForFirstMount(client, getSaltStatusQueryOptions(deviceId)),
    typeof familyId === "string" && familyId
      ? prefetchForFirstMount(client, getFamilyDevicesQueryOptions(familyId))
      : undefined,
    prefetchForFirstMount(client, getUnitPreferencesQueryOptions()),
  ]);
}
