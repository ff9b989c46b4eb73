import { endpoints, FILE_UPLOAD_MAX_BYTES, type TUploadedFile } from "@aquapilot/contract/wire";
import { shrinkImage, uploadMultipart } from "../../../shared/api/upload.ts";

/**
 * Uploads one image: `POST /api/app/file/upload`, multipart/form-data with one part `file` (JPEG, PNG or WebP, at most
 * 5 MB; spec §7 "Body kinds supported: … multipart"). Resolves the ABP envelope's result `{fileUrl, contentType,
 * size}`; `fileUrl` is the relative path to store (`/uploads/files/…`). Errors: ApiError as for `api()` (code -2 on a
 * network failure); an AbortError when `signal` aborts.
 */
export function uploadFile(file: Blob, fileName = "photo.jpg", signal?: AbortSignal): Promise<TUploadedFile> {
  return uploadMultipart(endpoints.uploadFile, file, fileName, signal);
}

/** Longest side of a photo sent for after-sales, px: enough to see a part number, far below the 5 MB limit. */
export const PHOTO_MAX_SIDE = 1600;

/**
 * Prepares a picked photo for upload: JPEG (quality 0.85) at most {@link PHOTO_MAX_SIDE} px when larger, over the
 * upload limit or of a type the server refuses (e.g. HEIC); the original otherwise.
 */
export function preparePhoto(file: File): Promise<Blob> {
  return shrinkImage(file, PHOTO_MAX_SIDE, FILE_UPLOAD_MAX_BYTES, 0.85);
}
