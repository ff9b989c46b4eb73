import type { TFamily, TFamilyDevice } from "@aquapilot/contract/wire";
import type { QueryClient } from "@tanstack/react-query";
import { queryKeys } from "../api/query-keys.ts";
import { i18n } from "../i18n/index.ts";
import { navigateTo, PATHS } from "../navigation/index.ts";
import { afterOverlays } from "../navigation/overlay-history.ts";
import { getItem, removeItem } from "../storage/index.ts";
import { pushBackHandler } from "../ui/back-stack.ts";

/**
 * What the app does when the user no longer belongs to a household (removed, the household deleted: docs/architecture.md
 * "Endings"): every cached read of that household and of its devices is dropped (no screen keeps showing them as
 * live), Home's snapshot and the household's selection are forgotten, the household lists are read again, and a screen
 * of that household that is open goes to Home (which moves to a household still theirs, or NoFamily). Answers whether
 * an open screen was the household's. Pure of the network: the caller has learnt it from the hubs.
 */
export function forgetLostFamily(queryClient: QueryClient, familyId: string): boolean {
  const devices = queryClient.getQueryData<TFamilyDevice[]>(queryKeys.familyDevices(familyId)) ?? [];
  const ids = [familyId, ...devices.map((d) => d.id)];
  const mentions = (value: unknown) => {
    const text = JSON.stringify(value);
    return ids.some((id) => text.includes(id));
  };
  queryClient.removeQueries({ predicate: (query) => mentions(query.queryKey) });
  queryClient.setQueryData(queryKeys.families, (list: TFamily[] | undefined) => list?.filter((f) => f.id !== familyId));
  const other = (query: { queryKey: readonly unknown[] }) => !mentions(query.queryKey);
  void queryClient.invalidateQueries({ queryKey: queryKeys.familyAll, predicate: other });
  void queryClient.invalidateQueries({ queryKey: queryKeys.familyUserAll, predicate: other });
  if (getItem("family")?.id === familyId) removeItem("family");
  removeItem("homeSnapshot");
  const hash = decodeURIComponent(typeof window === "undefined" ? "" : window.location.hash);
  const onIt = ids.some((id) => hash.includes(id));
  if (onIt) navigateTo(PATHS.Home, null, { replace: true });
  return onIt;
}

/**
 * The households the app holds anything of: the household list's and every household whose device list is cached
 * (a Device screen opened from a link has the latter only).
 */
export function knownFamilyIds(queryClient: QueryClient): string[] {
  const ids = new Set((queryClient.getQueryData<TFamily[]>(queryKeys.families) ?? []).map((f) => f.id));
  for (const query of queryClient.getQueryCache().findAll({ queryKey: queryKeys.familyDevicesAll })) {
    const key = query.queryKey;
    const familyId = key[key.length - 1];
    if (key.length === queryKeys.familyDevices("").length && typeof familyId === "string" && familyId) {
      ids.add(familyId);
    }
  }
  return [...ids];
}

/** Of the households the app knew (`known` ids), those the user no longer has (`after`: the list read again). */
export function lostFamilies(known: readonly string[], after: readonly TFamily[]): string[] {
  const still = new Set(after.map((f) => f.id));
  return known.filter((id) => !still.has(id));
}

/** Households whose notice is on screen. */
const shown = new Set<string>();

/**
 * Says why a household went, with the server's notice ("You were removed from Home by Ana. …"): a dialog with one
 * button, closed by it, by the mask or by back. One at a time per household. Resolves once it shows. The ending moves
 * the app to another screen (Home, then NoFamily), and a new screen closes the dialogs of the one before: this one
 * stays open instead and takes its place in the new screen's back stack, so only the owner closes it.
 */
export async function showFamilyNotice(familyId: string, title: string, content: string): Promise<void> {
  if (shown.has(familyId)) return;
  shown.add(familyId);
  // The dialog's code loads with the first notice (it is not on any first screen).
  const { showDialog } = await import("../ui/dialogs.tsx");
  let removeBack = () => {};
  let closed = false;
  const done = () => {
    if (closed) return;
    closed = true;
    removeBack();
    handler.close();
    shown.delete(familyId);
  };
  const handler = showDialog({
    title,
    content: <span data-testid="family-notice">{content}</span>,
    closeOnMaskClick: true,
    onClose: done,
    actions: [{ key: "ok", text: i18n.t("ending.ok"), bold: true, onClick: done }],
  });
  const register = () => {
    removeBack = pushBackHandler((reason) => {
      if (reason !== "leave") return done();
      // The page changed under it, or a navigation of the app is waiting for the overlays to go: back on the stack
      // once that navigation has run and its history is settled (queued after it), never in its way.
      setTimeout(() => {
        afterOverlays(() => {
          if (!closed) register();
        });
      }, 0);
    });
  };
  register();
}
