import { FILE_UPLOAD_MAX_BYTES, FILE_UPLOAD_PATH, type TUploadedFile, ZUploadedFile } from "@aquapilot/contract";
import { apiBaseUrl, requestHeaders, unwrapResponse } from "../../../shared/api/client.js";
import { ApiError, ClientErrorCode } from "../../../shared/api/errors.js";
import { i18n } from "../../../shared/i18n/index.js";

/**
 * Uploads one image: `POST /api/app/file/upload`, multipart/form-data with one part `file` (JPEG, PNG or WebP, at most
 * 5 MB; spec §7 "Body kinds supported: … multipart"). Resolves the ABP envelope's result `{fileUrl, contentType,
 * size}`; `fileUrl` is the relative path to store (`/uploads/files/…`). Errors: ApiError as for `api()` (code -2 on a
 * network failure).
 */
export async function uploadFile(file: Blob, fileName = "photo.jpg", signal?: AbortSignal): Promise<TUploadedFile> {
  const form = new FormData();
  form.append("file", file, fileName);
  const headers = await requestHeaders(true);
  let response: Response;
  try {
    response = await fetch(apiBaseUrl() + FILE_UPLOAD_PATH, { method: "POST", headers, body: form, signal });
  } catch (err) {
    if (err instanceof DOMException && err.name === "AbortError") throw err;
    throw new ApiError(i18n.t("errors.serverError"), ClientErrorCode.Network, null);
  }
  const body: unknown = await response.json().catch(() => null);
  return ZUploadedFile.parse(unwrapResponse(response.status, response.statusText, body));
}

/** Longest side of a photo sent for after-sales, px: enough to see a part number, far below the 5 MB limit. */
export const PHOTO_MAX_SIDE = 1600;

/**
 * Prepares a picked photo for upload: re-encodes it as JPEG (quality 0.85) at most {@link PHOTO_MAX_SIDE} px on its
 * longer side when it is larger than that, over the upload limit, or of a type the server refuses (e.g. HEIC).
 * Resolves the original file when it fits already or the browser cannot decode it.
 */
export async function preparePhoto(file: File): Promise<Blob> {
  const accepted = ["image/jpeg", "image/png", "image/webp"].includes(file.type);
  try {
    const bitmap = await createImageBitmap(file);
    const scale = Math.min(1, PHOTO_MAX_SIDE / Math.max(bitmap.width, bitmap.height));
    if (scale === 1 && accepted && file.size <= FILE_UPLOAD_MAX_BYTES) {
      bitmap.close();
      return file;
    }
    const canvas = document.createElement("canvas");
    canvas.width = Math.round(bitmap.width * scale);
    canvas.height = Math.round(bitmap.height * scale);
    canvas.getContext("2d")?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    bitmap.close();
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.85));
    return blob ?? file;
  } catch {
    return file;
  }
}
