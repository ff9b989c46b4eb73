import { FILE_UPLOAD_TYPES, type ResultOf, type WireEndpoint } from "@aquapilot/contract/wire";
import { api } from "./client.ts";
import { multipartBody, type TransferProgress } from "./transport.ts";

/**
 * Uploads one file as multipart/form-data with a single part named `file` (spec §7 "Body kinds supported: …
 * multipart") to a contract endpoint that takes no JSON body (e.g. `endpoints.uploadFile`,
 * `endpoints.uploadAvatar`), through `api()` — bearer, language, tenant and time-zone headers, an `Idempotency-Key`
 * (a lost answer is resent once under it, so the file is stored once), the 401 refresh and the counted loading toast
 * — and resolves the envelope's result, typed by the endpoint's result schema (not parsed at run time, like every
 * `api()` answer: the first screen loads no schema). `onProgress` reports the bytes sent
 * (browsers: through XMLHttpRequest). Errors: ApiError as for `api()` (code -2 on network failure, the server's
 * message otherwise); an AbortError when `signal` aborts.
 */
export async function uploadMultipart<E extends WireEndpoint>(
  endpoint: E,
  file: Blob,
  fileName: string,
  signal?: AbortSignal,
  onProgress?: (progress: TransferProgress) => void,
): Promise<ResultOf<E>> {
  const body = multipartBody({ file: { blob: file, fileName } });
  const call = api as (e: WireEndpoint, options: object) => Promise<unknown>;
  return (await call(endpoint, { body, signal, loading: true, onUploadProgress: onProgress })) as ResultOf<E>;
}

/** Image types the server's uploads take (the avatar upload takes the same). */
const ACCEPTED_TYPES: readonly string[] = FILE_UPLOAD_TYPES;

/**
 * Prepares a picked photo for upload: re-encodes it as JPEG (`quality`) at most `maxSide` px on its longer side when
 * it is larger than that, over `maxBytes`, or of a type the server refuses (e.g. HEIC). Resolves the original when it
 * fits already or the browser cannot decode it.
 */
export async function shrinkImage(
  file: File,
  maxSide = 512,
  maxBytes = 2 * 1024 * 1024,
  quality = 0.88,
): Promise<Blob> {
  try {
    const bitmap = await createImageBitmap(file);
    const scale = Math.min(1, maxSide / Math.max(bitmap.width, bitmap.height));
    if (scale === 1 && file.size <= maxBytes && ACCEPTED_TYPES.includes(file.type)) {
      bitmap.close();
      return file;
    }
    const canvas = document.createElement("canvas");
    canvas.width = Math.round(bitmap.width * scale);
    canvas.height = Math.round(bitmap.height * scale);
    canvas.getContext("2d")?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    bitmap.close();
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/jpeg", quality));
    return blob ?? file;
  } catch {
    return file;
  }
}
