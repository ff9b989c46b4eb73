/**
 * What a streamed answer's headers say about its body (spec §7 "streaming response"): the size it announces and the
 * file name it suggests. Pure header reading, shared by `apiStream()` and its tests.
 */

/**
 * The total size a streamed answer announces: `Content-Length`, unless a content encoding makes it count other
 * bytes than the ones read (compressed size). Null when unknown.
 */
export function announcedLength(headers: Headers): number | null {
  const encoding = headers.get("content-encoding");
  if (encoding && encoding !== "identity") return null;
  const text = headers.get("content-length");
  if (text === null || !/^\d+$/.test(text.trim())) return null;
  return Number(text);
}

/**
 * The file name a `Content-Disposition` header gives (`filename*=UTF-8''…` preferred over `filename="…"`), without
 * any folder part; null when there is none.
 */
export function fileNameOf(disposition: string | null): string | null {
  if (!disposition) return null;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(disposition);
  let name: string | null = null;
  if (extended) {
    try {
      name = decodeURIComponent(extended[2].trim().replace(/^"|"$/g, ""));
    } catch {
      name = null;
    }
  }
  if (!name) {
    const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(disposition);
    name = plain ? (plain[1] ?? plain[2] ?? "").replace(/\\(.)/g, "$1").trim() : null;
  }
  const base = name?.split(/[\\/]/).pop()?.trim();
  return base || null;
}
