/**
 * The after-sales request rules of the contract (ZAfterSaleCreate) as the form checks them before sending: a device,
 * a description of 5–500 characters after trimming, at most 6 photos, none still uploading.
 */

/** Most photos one request carries. */
export const MAX_PHOTOS = 6;
/** Description length bounds, characters after trimming. */
export const DESCRIPTION_MIN = 5;
export const DESCRIPTION_MAX = 500;

/** One photo of the form: its local preview, the uploaded path once done, and the upload state. */
export interface PhotoItem {
  key: string;
  /** What the thumbnail shows: a blob: URL while local, or the uploaded image's URL. */
  preview: string;
  /** The relative path answered by the upload (`fileUrl`), null until uploaded. */
  path: string | null;
  status: "uploading" | "done" | "failed";
}

/** What the form holds. */
export interface AfterSaleDraft {
  deviceId: string | null;
  description: string;
  photos: PhotoItem[];
}

/** Why a draft cannot be sent (an i18n key under `afterSale.errors`), or null when it can. */
export type DraftProblem = "device" | "descriptionShort" | "descriptionLong" | "tooManyPhotos" | "uploading" | null;

/** Checks a draft (see the module comment); the first problem found wins. */
export function draftProblem(draft: AfterSaleDraft): DraftProblem {
  if (!draft.deviceId) return "device";
  const length = draft.description.trim().length;
  if (length < DESCRIPTION_MIN) return "descriptionShort";
  if (length > DESCRIPTION_MAX) return "descriptionLong";
  if (draft.photos.some((p) => p.status === "uploading")) return "uploading";
  if (uploadedPaths(draft.photos).length > MAX_PHOTOS) return "tooManyPhotos";
  return null;
}

/** The uploaded photo paths to send (failed uploads are left out). */
export function uploadedPaths(photos: readonly PhotoItem[]): string[] {
  return photos.filter((p) => p.status === "done" && p.path).map((p) => p.path as string);
}

/** How many of `picked` files fit next to `current` photos (the rest are dropped with a notice). */
export function photosThatFit(current: number, picked: number, max = MAX_PHOTOS): number {
  return Math.max(0, Math.min(picked, max - current));
}
