import { endpoints } from "@aquapilot/contract/wire";
import { uploadMultipart } from "../../../shared/api/upload.ts";

export { shrinkImage } from "../../../shared/api/upload.ts";

/**
 * Uploads an avatar image: `POST /api/basic-data/app/profile/avatar`, multipart/form-data with one field `file`
 * (PNG, JPEG or WebP, at most 2 MB; spec §7 "Body kinds supported: … multipart"). Resolves the image's relative path
 * (e.g. "/uploads/avatars/x.png"), which `POST /profile` then stores as `avatar`. Errors: ApiError as for `api()`.
 */
export function uploadAvatar(file: Blob, fileName = "avatar.jpg"): Promise<string> {
  return uploadMultipart(endpoints.uploadAvatar, file, fileName);
}
