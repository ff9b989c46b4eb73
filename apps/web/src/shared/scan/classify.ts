/**
 * What a scanned code is (spec §2 home tab "scan"): a household share code ("AQF1.<claims>.<signature>") or a device
 * pairing code ("MAC:SECRET"). Pure, no React, so features that scan (home, device settings) share one reading without
 * importing each other.
 */

/** Prefix of a household share code (version 1, minted by the server's share-code service). */
export const FAMILY_SHARE_CODE_PREFIX = "AQF1.";

/** A parsed pairing code: MAC as 12 upper-case hex digits, and the device's secret. */
export interface PairingCode {
  mac: string;
  secret: string;
}

/** The result of {@link classifyScannedCode}; `code` is the trimmed scanned text. */
export type ScannedCode =
  | { kind: "family"; code: string }
  | { kind: "device"; code: string; mac: string; secret: string }
  | { kind: "unknown"; code: string };

/**
 * Parses a device pairing code. Accepts "0211AABBCCDD:secret", "02:11:AA:BB:CC:DD:secret" and
 * "02-11-AA-BB-CC-DD:secret" (any case, surrounding whitespace ignored). Returns null when there is no
 * 12-hex-digit MAC followed by ":" and a non-empty secret without whitespace.
 */
export function parsePairingCode(text: string | null | undefined): PairingCode | null {
  const raw = (text ?? "").trim();
  const m = /^((?:[0-9a-f]{2}[:-]?){5}[0-9a-f]{2}):(\S+)$/i.exec(raw);
  if (!m) return null;
  const mac = m[1].replace(/[:-]/g, "").toUpperCase();
  if (mac.length !== 12) return null;
  return { mac, secret: m[2] };
}

/**
 * Classifies the text of a scanned QR code: starts with "AQF1." (followed by more text) → `family` (join flow);
 * a valid pairing code → `device` with its MAC and secret (add-device screen); anything else, empty included →
 * `unknown`. Never throws.
 */
export function classifyScannedCode(text: string | null | undefined): ScannedCode {
  const code = (text ?? "").trim();
  if (code.startsWith(FAMILY_SHARE_CODE_PREFIX) && code.length > FAMILY_SHARE_CODE_PREFIX.length) {
    return { kind: "family", code };
  }
  const pairing = parsePairingCode(code);
  if (pairing) return { kind: "device", code, mac: pairing.mac, secret: pairing.secret };
  return { kind: "unknown", code };
}
