/**
 * The device pairing code the simulator (and a device's label) prints: "MAC:SECRET" (issue 4 "scan the device's
 * pairing code … or type it"). The MAC is 12 hex digits, with or without ":" / "-" separators; the secret is the
 * rest after the separator colon.
 */

/** A parsed pairing code: MAC as 12 upper-case hex digits, and the device's secret. */
export interface PairingCode {
  mac: string;
  secret: string;
}

/**
 * Parses a pairing code. Accepts "0211AABBCCDD:secret", "02:11:AA:BB:CC:DD:secret" and "02-11-AA-BB-CC-DD:secret"
 * (any case, surrounding whitespace ignored). Returns null when there is no 12-hex-digit MAC followed by a
 * non-empty secret without whitespace.
 */
export function parsePairingCode(text: string | null | undefined): PairingCode | null {
  const raw = (text ?? "").trim();
  const m = /^((?:[0-9a-f]{2}[:-]?){5}[0-9a-f]{2}):(\S+)$/i.exec(raw);
  if (!m) return null;
  const mac = m[1].replace(/[:-]/g, "").toUpperCase();
  if (mac.length !== 12) return null;
  return { mac, secret: m[2] };
}

/** Formats a 12-hex-digit MAC as "AA:BB:CC:DD:EE:FF" for display; other text passes unchanged. */
export function formatMac(mac: string | null | undefined): string {
  const hex = (mac ?? "").replace(/[:-]/g, "").toUpperCase();
  return /^[0-9A-F]{12}$/.test(hex) ? (hex.match(/../g) ?? []).join(":") : (mac ?? "");
}
