import { endpoints } from "@aquapilot/contract/wire";
import type { QueryClient } from "@tanstack/react-query";
import { yieldIfScheduler } from "../../first-paint/scheduling.ts";
import { callUrl } from "../../shared/api/declared-request.ts";
import { getFamilyDevicesQueryOptions } from "../../shared/api/family-devices.ts";
import { prefetchForFirstMount } from "../../shared/api/query-client.ts";
import { getDeviceInfoQueryOptions } from "../../shared/device/api/get-device-info.ts";
import { getSaltStatusQueryOptions } from "../../shared/device/api/get-salt-status.ts";
import { getStationDurationsQueryOptions } from "../../shared/device/api/get-station-durations.ts";
import { parseRouteParams } from "../../shared/navigation/index.ts";
import { getUnitPreferencesQueryOptions } from "../../shared/units/api/get-unit-preferences.ts";

/**
 * The Device screen's first calls when it is the page's first screen (it must be interactive within 2 s: no
 * request waterfall behind its first render), started at start-up beside its chunk: the live figures (spec §7
 * query-device-info), the station durations (device-station-maxworktime-cache), the salt status (get-salt-status),
 * the household's device list (the name and image) and the owner's units (the volumes and flow are shown in them),
 * each started in a task of its own where the browser has a scheduler. The device and household come from the page's
 * route params (`#/Device?params={"deviceId":…,"familyId":…}`, spec §2); without a device id nothing is asked. Failures are silent
 * here: the screen's own queries ask again and show their errors. The statistics are not asked: the chart's call
 * follows the live figures, as the screen does. Resolves when the calls have settled; never rejects.
 * @param client the app's query client, filled under the keys the screen's queries read.
 * @param hash the page's location hash (defaults to the current one).
 */
export async function prefetchDevice(client: QueryClient, hash: string = window.location.hash): Promise<void> {
  const search = hash.includes("?") ? hash.slice(hash.indexOf("?")) : "";
  const { deviceId, familyId } = parseRouteParams<{ deviceId: string; familyId: string }>(search);
  if (typeof deviceId !== "string" || !deviceId) return;
  const starts: Array<() => Promise<unknown>> = [
    () => prefetchForFirstMount(client, getDeviceInfoQueryOptions(deviceId)),
    () => prefetchForFirstMount(client, getStationDurationsQueryOptions(deviceId)),
    () => prefetchForFirstMount(client, getSaltStatusQueryOptions(deviceId)),
    ...(typeof familyId === "string" && familyId
      ? [() => prefetchForFirstMount(client, getFamilyDevicesQueryOptions(familyId))]
      : []),
    () => prefetchForFirstMount(client, getUnitPreferencesQueryOptions()),
  ];
  // Each query starts in a short task of its own (the five together were one task of ~13 ms on this
  // machine, over 50 ms on Lighthouse's slow phone, right after the app's code had run).
  const started: Array<Promise<unknown>> = [];
  for (const start of starts) {
    started.push(start());
    await yieldIfScheduler();
  }
  await Promise.all(started);
}

/** A route parameter's placeholder in an early call's URL ({@link deviceEarlyCalls}): `__deviceId__`. */
export const earlyParam = (name: "deviceId" | "familyId"): string => `__${name}__`;

/**
 * The Device screen's first calls as the page's boot script sends them before the app's code has loaded
 * (apps/web/src/first-paint/boot.js, first-paint/early-answers.ts): `"METHOD url"`, the URL built by the app's own
 * client (`callUrl`) with {@link earlyParam} placeholders as query values, which boot.js fills from the route's params
 * (form-encoded, as the client encodes a query): the calls {@link prefetchDevice} makes, and the permissions start-up
 * asks for (spec §4, application-configuration). Written into index.html by the build
 * (apps/web/src/first-paint/build/prerender-plugin.ts, `data-device-calls`).
 */
export function deviceEarlyCalls(): string[] {
  const deviceId = earlyParam("deviceId");
  const familyId = earlyParam("familyId");
  const calls = [
    [endpoints.applicationConfiguration, {}],
    [endpoints.queryDeviceInfo, { query: { deviceId } }],
    [endpoints.deviceStationMaxWorkTimeCache, { query: { deviceId } }],
    [endpoints.getSaltStatus, { query: { deviceId } }],
    [endpoints.getFamilyDevices, { query: { familyId } }],
    [endpoints.getUnitPreferences, {}],
  ] as const;
  return calls.map(([endpoint, options]) => `${endpoint.method} ${callUrl(endpoint, options)}`);
}
