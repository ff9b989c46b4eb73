import { createHash, createPublicKey, type KeyObject, verify } from "node:crypto";
import type { OtaFailureReason, TMqttOtaParams } from "@aquapilot/contract";

/**
 * The device side of a signed firmware update (docs/device-protocol.md §3.7 "Firmware update"), as a module's
 * bootloader does it: download the image over HTTP with `Range` resume, check its size and SHA-256, then the vendor's
 * Ed25519 signature over the 32-byte digest with the pinned vendor keys, and only then install.
 */

/** Faults the simulator can be told to play during an update (tests and the browser suite set them). */
export interface OtaFaults {
  /** The connection drops once after this fraction (0–1) of the image; the download resumes with `Range`. */
  dropAt?: number;
  /** A byte of the downloaded image is flipped before checking it (a corrupted download): fails "hash". */
  corrupt?: boolean;
  /** The command's signature is replaced by another key's (a forged or foreign image): fails "signature". */
  badSignature?: boolean;
  /** The new version does not start: the device rolls back and fails "boot". */
  bootFails?: boolean;
}

/** How many times a download is resumed after a dropped connection or a failed request before it fails "download". */
export const OTA_DOWNLOAD_ATTEMPTS = 5;

/**
 * Reads the pinned vendor keys: each a PEM public key or the raw 32-byte Ed25519 key in base64.
 * @throws Error when an entry is neither or not Ed25519.
 */
export function parseVendorKeys(list: readonly string[]): KeyObject[] {
  return list
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      const key = entry.startsWith("-----BEGIN")
        ? createPublicKey(entry)
        : createPublicKey({
            key: { kty: "OKP", crv: "Ed25519", x: Buffer.from(entry, "base64").toString("base64url") },
            format: "jwk",
          });
      if (key.asymmetricKeyType !== "ed25519") throw new Error("vendor keys are Ed25519");
      return key;
    });
}

/** One request of a download: the bytes received and whether the connection dropped before the end. */
interface Fetched {
  status: number;
  bytes: Buffer;
  dropped: boolean;
}

async function fetchFrom(
  url: string,
  from: number,
  dropAfter: number | null,
  stop: AbortSignal | undefined,
): Promise<Fetched> {
  const controller = new AbortController();
  const res = await fetch(url, {
    headers: from > 0 ? { range: `bytes=${from}-` } : {},
    signal: stop ? AbortSignal.any([controller.signal, stop]) : controller.signal,
  });
  if (res.status !== 200 && res.status !== 206) {
    await res.body?.cancel();
    return { status: res.status, bytes: Buffer.alloc(0), dropped: false };
  }
  if (from > 0 && res.status === 206) {
    const range = /^bytes (\d+)-\d+\/\d+$/.exec(res.headers.get("content-range") ?? "");
    if (!range || Number(range[1]) !== from) throw new Error("content-range does not continue the download");
  }
  const chunks: Buffer[] = [];
  let got = 0;
  const reader = res.body?.getReader();
  if (!reader) return { status: res.status, bytes: Buffer.alloc(0), dropped: false };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    let chunk = Buffer.from(value);
    if (dropAfter !== null && got + chunk.length >= dropAfter) {
      chunk = chunk.subarray(0, Math.max(0, dropAfter - got));
      chunks.push(chunk);
      controller.abort();
      await reader.cancel().catch(() => undefined);
      return { status: res.status, bytes: Buffer.concat(chunks), dropped: true };
    }
    chunks.push(chunk);
    got += chunk.length;
  }
  return { status: res.status, bytes: Buffer.concat(chunks), dropped: false };
}

/** What {@link downloadImage} answers: the image (or what arrived) and the requests made (first, then resumes). */
export interface Download {
  bytes: Buffer | null;
  /** The `from` byte offset of each request, in order (0 first; each resume asks `Range: bytes=<from>-`). */
  requests: number[];
}

/**
 * Downloads `size` bytes from `url`, resuming with `Range: bytes=<n>-` after a dropped connection or a failed request
 * (up to {@link OTA_DOWNLOAD_ATTEMPTS} requests). A 200 answer to a resume restarts from the beginning (a server
 * without ranges). `dropAt` (0–1) drops the first connection after that fraction. Calls `onBytes` with the bytes held
 * after every request. Answers `bytes` null when the image could not be fetched whole or came longer than `size`.
 * `signal`: the device switched off — the connection closes at once and no request follows (answers what arrived).
 */
export async function downloadImage(
  url: string,
  size: number,
  opts: { dropAt?: number; onBytes?: (have: number) => void; signal?: AbortSignal } = {},
): Promise<Download> {
  let held: Buffer = Buffer.alloc(0);
  const requests: number[] = [];
  let drop = opts.dropAt === undefined ? null : Math.floor(size * opts.dropAt);
  for (let attempt = 0; attempt < OTA_DOWNLOAD_ATTEMPTS && held.length < size; attempt++) {
    if (opts.signal?.aborted) break;
    const from = held.length;
    requests.push(from);
    let got: Fetched;
    try {
      got = await fetchFrom(url, from, drop === null ? null : Math.max(0, drop - from), opts.signal);
    } catch {
      continue;
    }
    drop = null;
    if (got.status === 200) held = got.bytes;
    else if (got.status === 206) held = Buffer.concat([held, got.bytes]);
    else continue;
    opts.onBytes?.(Math.min(held.length, size));
    if (held.length > size) return { bytes: null, requests };
  }
  return { bytes: held.length === size ? held : null, requests };
}

/**
 * Checks a downloaded image before installing: its SHA-256 against `sha256` ("hash" when it differs), then the
 * Ed25519 signature over the 32-byte digest against the pinned `keys` ("signature" when none verifies). Null: install.
 */
export function checkImage(
  bytes: Buffer,
  params: Pick<TMqttOtaParams, "sha256" | "signature">,
  keys: readonly KeyObject[],
): OtaFailureReason | null {
  const digest = createHash("sha256").update(bytes).digest();
  if (digest.toString("hex") !== params.sha256) return "hash";
  const signature = Buffer.from(params.signature ?? "", "base64");
  if (signature.length !== 64) return "signature";
  return keys.some((key) => verify(null, digest, key, signature)) ? null : "signature";
}
