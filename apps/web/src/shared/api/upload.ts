import type { Endpoint, ResultOf } from "@aquapilot/contract";
import { i18n } from "../i18n/index.js";
import { apiBaseUrl, requestHeaders, unwrapResponse } from "./client.js";
import { ApiError, ClientErrorCode } from "./errors.js";
import { beginLoading, endLoading } from "./loading.js";

/**
 * Uploads one file as multipart/form-data with a single part named `file` (spec §7 "Body kinds supported: …
 * multipart") to a contract endpoint that takes no JSON body (e.g. `endpoints.uploadFile`,
 * `endpoints.uploadAvatar`), with the bearer and language headers and the counted loading toast, and resolves the
 * envelope's result parsed by the endpoint's result schema. Errors: ApiError as for `api()` (code -2 on network
 * failure, the server's message otherwise); an AbortError when `signal` aborts.
 */
export async function uploadMultipart<E extends Endpoint>(
  endpoint: E,
  file: Blob,
  fileName: string,
  signal?: AbortSignal,
): Promise<ResultOf<E>> {
  const form = new FormData();
  form.append("file", file, fileName);
  const headers = await requestHeaders(true);
  beginLoading();
  try {
    let response: Response;
    try {
      response = await fetch(apiBaseUrl() + endpoint.path, { method: endpoint.method, headers, body: form, signal });
    } catch (err) {
      if (err instanceof DOMException && err.name === "AbortError") throw err;
      throw new ApiError(i18n.t("errors.serverError"), ClientErrorCode.Network, null);
    }
    const body: unknown = await response.json().catch(() => null);
    return endpoint.result.parse(unwrapResponse(response.status, response.statusText, body)) as ResultOf<E>;
  } finally {
    endLoading();
  }
}

/** Image types the server's uploads take (contract FILE_UPLOAD_TYPES; the avatar upload takes the same). */
const ACCEPTED_TYPES = ["image/jpeg", "image/png", "image/webp"];

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
