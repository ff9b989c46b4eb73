import { z } from "zod";
import { FILE_UPLOAD_PATH } from "../constants.ts";
import { SIGNED_IN } from "./access.ts";
import { endpoint, noQuery } from "./define.ts";

// Image upload (our extension of spec §7: "Body kinds supported: … multipart"; "Images: a relative path or object
// with fileUrl gets the API host prefixed"). Used by DeviceImage and AfterSaleCreate.

/** What the upload answers in the envelope: the relative path to store, its type and size in bytes. */
export const ZUploadedFile = z.object({ fileUrl: z.string(), contentType: z.string(), size: z.number().int() });
export type TUploadedFile = z.infer<typeof ZUploadedFile>;

export const fileEndpoints = {
  uploadFile: endpoint({
    method: "POST",
    access: SIGNED_IN,
    path: FILE_UPLOAD_PATH,
    query: noQuery,
    // multipart/form-data with one file part `file`; not JSON.
    body: undefined,
    result: ZUploadedFile,
    summary:
      "Upload an image (multipart, PNG/JPEG/WebP ≤ 5 MB); answers {fileUrl: /uploads/files/…} owned by the caller",
  }),
} as const;
