import { z } from "zod";
import { MAX_SKIP_COUNT } from "./constants.ts";
import { ZQueryInt } from "./endpoints/define.ts";

/**
 * The ABP response envelope (spec §7 "Success response shape", §8).
 * Every `/api` answer is `{success, result, error, unAuthorizedRequest, __abp: true}`.
 */
export const ZValidationError = z.object({
  message: z.string(),
  members: z.array(z.string()),
});
export type TValidationError = z.infer<typeof ZValidationError>;

export const ZAbpError = z.object({
  code: z.string().nullable(),
  message: z.string(),
  details: z.string().nullable(),
  validationErrors: z.array(ZValidationError).nullable(),
});
export type TAbpError = z.infer<typeof ZAbpError>;

/** Builds the envelope schema around a result schema. */
export function abpEnvelope<T extends z.ZodType>(result: T) {
  return z.object({
    success: z.boolean(),
    result: result.nullable(),
    error: ZAbpError.nullable(),
    unAuthorizedRequest: z.boolean(),
    __abp: z.literal(true),
  });
}
export type TAbpEnvelope<T> = {
  success: boolean;
  result: T | null;
  error: TAbpError | null;
  unAuthorizedRequest: boolean;
  __abp: true;
};

/** Paged list query of spec §7: `skipCount` (0..{@link MAX_SKIP_COUNT}), `maxResultCount` (1..1000, default 15 = spec §9 page size). */
export const ZPagedQuery = z.object({
  skipCount: ZQueryInt(0, MAX_SKIP_COUNT).default(0),
  maxResultCount: ZQueryInt(1, 1000).default(15),
});
export type TPagedQuery = z.infer<typeof ZPagedQuery>;

/** Paged list result `{items, totalCount}` (spec §3 "Paged list response"). */
export function paged<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), totalCount: z.number().int() });
}
export type TPaged<T> = { items: T[]; totalCount: number };
