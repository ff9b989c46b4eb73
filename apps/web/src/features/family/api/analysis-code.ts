import { endpoints, type TShareAnalysis } from "@aquapilot/contract/wire";
import { api } from "../../../shared/api/client.ts";

/**
 * Checks a scanned or pasted share code without joining: `POST …/family-user/analysis-code?code=&preview=true`
 * (spec §7 Q; `preview` is this server's extension). Answers the family the code invites to, for the confirmation.
 * An expired or tampered code rejects with the server's clear message (ApiError).
 */
export function previewShareCode(code: string): Promise<TShareAnalysis> {
  return api(endpoints.analysisCode, { query: { code: code.trim(), preview: "true" }, loading: true });
}

/**
 * Joins the family of a share code: `POST …/family-user/analysis-code?code=` (spec §7 Q). `joined` is true when
 * this call added the caller, `alreadyMember` when the caller was a member before (harmless).
 */
export function joinByShareCode(code: string): Promise<TShareAnalysis> {
  return api(endpoints.analysisCode, { query: { code: code.trim() }, loading: true });
}
