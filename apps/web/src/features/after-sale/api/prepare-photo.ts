import { FILE_UPLOAD_MAX_BYTES } from "@aquapilot/contract/wire";
import { shrinkImage } from "../../../shared/api/upload.ts";

/** Longest side of a photo sent for after-sales, px: enough to see a part number, far below the 5 MB limit. */
export const PHOTO_MAX_SIDE = 1600;

/**
 * Prepares a picked photo for upload: JPEG (quality 0.85) at most {@link PHOTO_MAX_SIDE} px when larger, over the
 * upload limit or of a type the server refuses (e.g. HEIC); the original otherwise.
 */
export function preparePhoto(file: File): Promise<Blob> {
  return shrinkImage(file, PHOTO_MAX_SIDE, FILE_UPLOAD_MAX_BYTES, 0.85);
}
