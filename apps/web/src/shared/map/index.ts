/**
 * The map layer (spec §1, §2 Select-address dialog, §4 map tools, §5 coordinates, §7 map search, §8 map errors,
 * §9 defaults). Screens import from here. Leaflet and the dialog load only when {@link openAddressSelect} is called
 * (or the /AddressSelect route is entered).
 */

import type { LocationResult } from "./geocode.ts";

export { regionChildren } from "./api/region-children.ts";
export type { LocationResult } from "./geocode.ts";

/**
 * Opens the full-page AddressSelect dialog (spec §2) and resolves with the confirmed location, or null when the user
 * backs out. `initial` (GCJ-02) centres the map there instead of the user's position. Loads Leaflet on first use.
 */
export async function openAddressSelect(initial?: {
  longitude: number;
  latitude: number;
}): Promise<LocationResult | null> {
  const { showAddressSelectDialog } = await import("./address-select.tsx");
  return showAddressSelectDialog(initial);
}

/** Navigation params of the /AddressSelect route: an optional start point (GCJ-02). */
export interface AddressSelectParams {
  longitude?: number;
  latitude?: number;
}

const results = new Map<string, LocationResult>();
const RESULT_EVENT = "aquapilot:address-select";

/**
 * Hands the location confirmed on the /AddressSelect route back to the page that opened it (spec §2
 * `requestPageId`); used by the route screen before it goes back.
 */
export function publishAddressSelectResult(requestPageId: string | undefined, location: LocationResult): void {
  const id = requestPageId ?? "";
  results.set(id, location);
  window.dispatchEvent(new CustomEvent(RESULT_EVENT, { detail: { requestPageId: id, location } }));
}

/**
 * Takes (and forgets) the location the /AddressSelect route confirmed for `requestPageId`, or null. A page that
 * navigated there with `navigateTo(PATHS.AddressSelect, params, { requestPageId })` reads it when it shows again.
 */
export function takeAddressSelectResult(requestPageId?: string): LocationResult | null {
  const id = requestPageId ?? "";
  const value = results.get(id) ?? null;
  results.delete(id);
  return value;
}

/** Listens for locations confirmed on the /AddressSelect route; returns the unsubscribe. */
export function onAddressSelectResult(listener: (requestPageId: string, location: LocationResult) => void): () => void {
  const handler = (e: Event) => {
    const { requestPageId, location } = (e as CustomEvent<{ requestPageId: string; location: LocationResult }>).detail;
    listener(requestPageId, location);
  };
  window.addEventListener(RESULT_EVENT, handler);
  return () => window.removeEventListener(RESULT_EVENT, handler);
}
