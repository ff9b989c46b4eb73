import { ApiError } from "../../shared/api/errors.ts";

/**
 * Whether an error says the family is gone or no longer the caller's (HTTP 404 or 403: deleted, left, removed).
 * The household screens then offer the way back to the home tab, which falls back to another family or NoFamily.
 */
export function isFamilyGone(err: unknown): boolean {
  return err instanceof ApiError && (err.status === 404 || err.status === 403);
}
