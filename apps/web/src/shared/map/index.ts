/**
 * The map layer (spec §1, §2 Select-address dialog, §4 map tools, §5 coordinates, §9 defaults).
 * Placeholder API until the map layer lands; screens import from here.
 */

/** Location result of spec §3. Coordinates are GCJ-02 inside the China bounds of §5 for AMap/Tencent, WGS-84 outside. */
export interface LocationResult {
  address: string;
  hasAddress: boolean;
  province: string;
  city: string;
  district: string;
  street: string;
  cityCode: string;
  longitude: number;
  latitude: number;
}

/**
 * Opens the full-page AddressSelect dialog (spec §2) and resolves with the confirmed location, or null when the user
 * backs out. `initial` centres the map there instead of the user's position.
 */
export async function openAddressSelect(_initial?: {
  longitude: number;
  latitude: number;
}): Promise<LocationResult | null> {
  throw new Error("AddressSelect is not built yet");
}
