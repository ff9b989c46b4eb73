import { endpoints } from "@aquapilot/contract";
import { apiBaseUrl, requestHeaders, unwrapResponse } from "../../../shared/api/client.js";
import { ApiError, ClientErrorCode } from "../../../shared/api/errors.js";
import { beginLoading, endLoading } from "../../../shared/api/loading.js";
import { i18n } from "../../../shared/i18n/index.js";

/**
 * Uploads an avatar image: `POST /api/basic-data/app/profile/avatar`, multipart/form-data with one field `file`
 * (PNG, JPEG or WebP, at most 2 MB; spec §7 "Body kinds supported: … multipart"). Resolves the image's relative path
 * (e.g. "/uploads/avatars/x.png"), which `POST /profile` then stores as `avatar`. Errors: ApiError as for `api()`.
 */
export async function uploadAvatar(file: Blob, fileName = "avatar.jpg"): Promise<string> {
  const form = new FormData();
  form.append("file", file, fileName);
  const headers = await requestHeaders(true);
  beginLoading();
  try {
    let response: Response;
    try {
      response = await fetch(apiBaseUrl() + endpoints.uploadAvatar.path, { method: "POST", headers, body: form });
    } catch {
      throw new ApiError(i18n.t("errors.serverError"), ClientErrorCode.Network, null);
    }
    const body: unknown = await response.json().catch(() => null);
    return endpoints.uploadAvatar.result.parse(unwrapResponse(response.status, response.statusText, body));
  } finally {
    endLoading();
  }
}

/**
 * Shrinks a photo to at most `maxSide` px on its longer side as JPEG (quality 0.88), so phone photos fit the 2 MB
 * limit. Resolves the original when it is small enough already or the browser cannot decode it.
 */
export async function shrinkImage(file: File, maxSide = 512): Promise<Blob> {
  try {
    const bitmap = await createImageBitmap(file);
    const scale = Math.min(1, maxSide / Math.max(bitmap.width, bitmap.height));
    if (scale === 1 && file.size <= 2 * 1024 * 1024 && file.type !== "image/heic") return file;
    const canvas = document.createElement("canvas");
    canvas.width = Math.round(bitmap.width * scale);
    canvas.height = Math.round(bitmap.height * scale);
    canvas.getContext("2d")?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    bitmap.close();
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.88));
    return blob ?? file;
  } catch {
    return file;
  }
}
