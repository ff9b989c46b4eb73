import type { TFamilyShare } from "@aquapilot/contract/wire";

/**
 * Formats an ISO 8601 time as "yyyy-MM-dd HH:mm" in the phone's time zone (spec §9 date formats); "" for an empty
 * or invalid value.
 */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** Formats an ISO 8601 time as "yyyy-MM-dd" (spec §9); "" for an empty or invalid value. */
export function formatDate(iso: string | null | undefined): string {
  return formatDateTime(iso).slice(0, 10);
}

/**
 * The small static location line of a family: its region (province, city, district without repeats, e.g. a
 * municipality whose city equals its province) and "longitude, latitude" with 5 decimals (about 1 m). Empty parts
 * are left out; "" when there is nothing.
 */
export function locationLine(f: {
  province?: string | null;
  city?: string | null;
  district?: string | null;
  longitude: number | null;
  latitude: number | null;
}): string {
  const region: string[] = [];
  for (const part of [f.province, f.city, f.district]) {
    const text = part?.trim();
    if (text && !region.includes(text)) region.push(text);
  }
  const coords =
    typeof f.longitude === "number" && typeof f.latitude === "number"
      ? `${f.longitude.toFixed(5)}, ${f.latitude.toFixed(5)}`
      : "";
  return [region.join(" "), coords].filter(Boolean).join(" · ");
}

/** Status of one of "my shares": revoked wins, then expired (by the server's flag or the clock), else valid. */
export function shareStatus(
  share: Pick<TFamilyShare, "expired" | "revoked" | "expiresAt">,
  now: number = Date.now(),
): "valid" | "expired" | "revoked" {
  if (share.revoked) return "revoked";
  const end = Date.parse(share.expiresAt);
  if (share.expired || (Number.isFinite(end) && end <= now)) return "expired";
  return "valid";
}
