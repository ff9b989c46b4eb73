import type { QueryClient } from "@tanstack/react-query";
import { intlWarmed } from "../../first-paint/intl-warm.ts";
import { nextTask } from "../../first-paint/scheduling.ts";
import { getFamiliesQueryOptions } from "../../shared/api/families.ts";
import { getFamilyDevicesQueryOptions } from "../../shared/api/family-devices.ts";
import { prefetchForFirstMount } from "../../shared/api/query-client.ts";
import { homeFormatWarmers } from "../../shared/format/index.ts";
import { requestLanguage } from "../../shared/i18n/index.ts";
import { getItem, getUserFamily } from "../../shared/storage/index.ts";
import { getUnitPreferencesQueryOptions } from "../../shared/units/api/get-unit-preferences.ts";
import { dashboardQueryOptions } from "./api/get-dashboard.ts";
import { selectHomeFamily } from "./family-selection.ts";

/**
 * Home's first calls, started at start-up instead of after its first render (no request waterfall before
 * the device list paints; this module ships in the entry's chunk, first-paint/build/first-screen-chunks.ts `starter`,
 * so they leave with the permission call): the families (spec §7 get families) and, for the household Home will show
 * (the one kept for this user in userFamilyCache, spec §3, else the first), its devices and its dashboard. The kept
 * household's calls start at once, not after the families: when it is still one of them (the usual case) the answers
 * are the ones Home shows. The owner's units (spec §7 units setting) come too, so the figures show in the owner's unit
 * from the first paint instead of switching from litres when they arrive. Failures are silent here (a kept household
 * the user has left answers 404); Home's own queries ask again and show their errors as usual. While the calls are in
 * flight, the number and date formatters the device cards use are built, one per task ({@link homeFormatWarmers}), so
 * the cards' render does not build them. The calls leave in three tasks (families; the kept household's; units).
 * Resolves when the calls have settled (the formatters are not waited for); never rejects.
 * @param client the app's query client (app/app.tsx), filled under the same keys Home's queries read.
 */
export async function prefetchHome(client: QueryClient): Promise<void> {
  const familyQueries = (familyId: string) =>
    Promise.all([
      prefetchForFirstMount(client, getFamilyDevicesQueryOptions(familyId)),
      prefetchForFirstMount(client, dashboardQueryOptions(familyId)),
    ]);
  const kept = getUserFamily(getItem("loginInfo")?.userName ?? "");
  const families = prefetchForFirstMount(client, getFamiliesQueryOptions()).then((list) => {
    const family = list && selectHomeFamily(list, kept);
    return family && family.id !== kept ? familyQueries(family.id) : undefined;
  });
  // Each further call in a task of its own: a call's sending (headers, the fetch itself) is 1-5 ms on a slow phone,
  // and the six start-up calls together with start-up's own work were one task over 50 ms, which blocks input.
  await nextTask();
  const keptFamily = kept ? familyQueries(kept) : undefined;
  await nextTask();
  const units = prefetchForFirstMount(client, getUnitPreferencesQueryOptions());
  void warmFormats(requestLanguage());
  await Promise.all([families, keptFamily, units]);
}

/**
 * Runs {@link homeFormatWarmers} for `lang`, each in a task of its own, once the off-thread start of the locale data
 * is over; a failure only ends the warm-up.
 */
async function warmFormats(lang: string): Promise<void> {
  // The engine's locale data starts on another thread (first-paint/intl-warm.ts): building the first formatter
  // here before that is over would do the same start in this task.
  await intlWarmed();
  try {
    for (const warm of homeFormatWarmers(lang)) {
      await nextTask();
      warm();
    }
  } catch {
    // an engine without one of the formats: the screen meets the same error itself
  }
}
