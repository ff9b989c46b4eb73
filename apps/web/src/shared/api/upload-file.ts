import { endpoints, type TUploadedFile } from "@aquapilot/contract/wire";
import { uploadMultipart } from "./upload.ts";

/**
 * Uploads one image: `POST /api/app/file/upload`, multipart/form-data with one part `file` (JPEG, PNG or WebP, at most
 * 5 MB; spec §7 "Body kinds supported: … multipart"). The one fetcher of the endpoint (after-sales photos, the
 * device's own picture). Resolves the ABP envelope's result `{fileUrl, contentType, size}`; `fileUrl` is the relative
 * path to store (`/uploads/files/…`). Errors: ApiError as for `api()` (code -2 on a network failure); an AbortError
 * when `signal` aborts.
 */
export function uploadFile(file: Blob, fileName = "photo.jpg", signal?: AbortSignal): Promise<TUploadedFile> {
  return uploadMultipart(endpoints.uploadFile, file, fileName, signal);
}
