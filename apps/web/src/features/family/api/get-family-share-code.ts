import { endpoints, type TShareCode } from "@aquapilot/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../shared/api/client.js";
import { familyKeys } from "./keys.js";

/** A share code plus when this client received it (ms since epoch), so the countdown ignores clock skew. */
export interface ReceivedShareCode extends TShareCode {
  receivedAt: number;
}

/**
 * A fresh share code of a family, valid 15 minutes (spec §4, §9): `GET …/family-user/trans-to-other-member-qr-code`
 * (§7 Q). Administrator only (spec §6).
 */
export async function getFamilyShareCode(familyId: string, signal?: AbortSignal): Promise<ReceivedShareCode> {
  const result = await api(endpoints.getShareCode, { query: { familyId }, signal });
  return { ...result, receivedAt: Date.now() };
}

/**
 * Query options of {@link getFamilyShareCode}: a code is fetched once per visit and only replaced by the refresh
 * button (never in the background, which would swap the QR code under a scanning phone).
 */
export function getFamilyShareCodeQueryOptions(familyId: string | null | undefined) {
  return queryOptions({
    queryKey: familyKeys.shareCode(familyId ?? ""),
    queryFn: ({ signal }) => getFamilyShareCode(familyId ?? "", signal),
    enabled: Boolean(familyId),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    retry: false,
  });
}

/** A family's share code as a query (FamilyQrcode). */
export function useFamilyShareCode(familyId: string | null | undefined) {
  return useQuery(getFamilyShareCodeQueryOptions(familyId));
}
