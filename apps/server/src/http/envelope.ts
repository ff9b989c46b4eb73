import type { TAbpEnvelope, TAbpError } from "@aquapilot/contract";

/** A successful ABP envelope around `result` (spec §7 "Success response shape"). */
export function ok<T>(result: T): TAbpEnvelope<T> {
  return { success: true, result, error: null, unAuthorizedRequest: false, __abp: true };
}

/** A failed ABP envelope (spec §8); `unAuthorizedRequest` is true only for 401 answers. */
export function fail(error: TAbpError, unAuthorizedRequest = false): TAbpEnvelope<null> {
  return { success: false, result: null, error, unAuthorizedRequest, __abp: true };
}
