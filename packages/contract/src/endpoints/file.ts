import { z } from "zod";
import { endpoint, noQuery } from "./define.js";

// Image upload (our extension of spec §7: "Body kinds supported: … multipart"; "Images: a relative path or object
// with fileUrl gets the API host prefixed"). Used by DeviceImage and AfterSaleCreate.

/** Upload path: POST multipart/form-data with one part named `file` (JPEG, PNG or WebP, at most 5 MB). */
export const FILE_UPLOAD_PATH = "/api/app/file/upload";
/** Largest accepted upload, in bytes. */
export const FILE_UPLOAD_MAX_BYTES = 5 * 1024 * 1024;
/** Accepted image types (checked from the file's first bytes, not only the declared type). */
export const FILE_UPLOAD_TYPES = ["image/jpeg", "image/png", "image/webp"] as const;
/** Where uploaded files are served: `/uploads/files/<random>.<ext>`. */
export const FILE_UPLOAD_PREFIX = "/uploads/files/";

/** What the upload answers in the envelope: the relative path to store, its type and size in bytes. */
export const ZUploadedFile = z.object({ fileUrl: z.string(), contentType: z.string(), size: z.number().int() });
export type TUploadedFile = z.infer<typeof ZUploadedFile>;

export const fileEndpoints = {
  uploadFile: endpoint({
    method: "POST",
    path: FILE_UPLOAD_PATH,
    query: noQuery,
    // multipart/form-data with one file part `file`; not JSON.
    body: undefined,
    result: ZUploadedFile,
    summary:
      "Upload an image (multipart, PNG/JPEG/WebP ≤ 5 MB); answers {fileUrl: /uploads/files/…} owned by the caller",
  }),
} as const;
