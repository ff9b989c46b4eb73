import type { TFamily } from "@aquapilot/contract/wire";
import { useEffect, useMemo, useState } from "react";
import { useFamilies } from "../../../shared/api/families.ts";
import { resolveWifiBridge, type WifiBridge } from "../../../shared/bridge/wifi-bridge.ts";
import { type NavigateOptions, navigateTo, PATHS } from "../../../shared/navigation/index.ts";
import { getItem } from "../../../shared/storage/index.ts";
import { type DeviceNetworkParams, type SetupStep, setupEntries } from "../params.ts";

/**
 * The household a setup adds to (spec §6: only its administrator may): the one in the params, else the home
 * family (spec §3 `family`), else the first of the caller's households. `list` is every household.
 */
export function useSetupFamily(familyId: string | undefined) {
  const families = useFamilies();
  const list = families.data ?? [];
  const family = useMemo<TFamily | null>(() => {
    if (list.length === 0) return null;
    const wanted = familyId ?? getItem("family")?.id;
    return list.find((f) => f.id === wanted) ?? list[0];
  }, [list, familyId]);
  return { list, family, pending: families.isPending, error: families.error };
}

/**
 * Goes to a step of /DeviceNetwork (spec §2: params as JSON) keeping the household and mode; pushes a history entry
 * so the system back button walks the steps, unless `options.replace`. The step's `depth` counts the setup's pages
 * below it, so the finished setup can take them away.
 */
export function goToStep(
  params: Partial<DeviceNetworkParams>,
  step: SetupStep,
  extra: Partial<DeviceNetworkParams> = {},
  options: NavigateOptions = {},
): void {
  const below = setupEntries(params) - 1;
  const depth = options.replace ? below : below + 1;
  const next: DeviceNetworkParams = { familyId: params.familyId, mode: params.mode, step, ...extra };
  if (depth > 0) next.depth = depth;
  if (step === "mode" || step === "code") delete next.mode;
  navigateTo(PATHS.DeviceNetwork, next, options);
}

/** The phone's Wi-Fi bridge (native, development or none), once resolved; null while probing. */
export function useWifiBridge(): WifiBridge | null {
  const [bridge, setBridge] = useState<WifiBridge | null>(null);
  useEffect(() => {
    let alive = true;
    void resolveWifiBridge().then((b) => {
      if (alive) setBridge(b);
    });
    return () => {
      alive = false;
    };
  }, []);
  return bridge;
}
