/**
 * The device pairing code the simulator (and a device's label) prints: "MAC:SECRET", scanned or typed when adding a
 * device. The MAC is 12 hex digits, with or without ":" / "-" separators; the secret is the rest after the separator
 * colon.
 */

export { parsePairingCode } from "../../shared/scan/classify.ts";

/** Formats a 12-hex-digit MAC as "AA:BB:CC:DD:EE:FF" for display; other text passes unchanged. */
export function formatMac(mac: string | null | undefined): string {
  const hex = (mac ?? "").replace(/[:-]/g, "").toUpperCase();
  return /^[0-9A-F]{12}$/.test(hex) ? (hex.match(/../g) ?? []).join(":") : (mac ?? "");
}
