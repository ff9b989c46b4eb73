import { endpoints, type TShareCode } from "@aquapilot/contract/wire";
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../shared/api/client.ts";
import type { QueryConfig } from "../../../shared/api/query-config.ts";
import { familyKeys } from "./keys.ts";

/** A share code plus when this client received it (ms since epoch), so the countdown ignores clock skew. */
export interface ReceivedShareCode extends TShareCode {
  receivedAt: number;
}

/**
 * The administrator's share code of a family, valid 15 minutes (spec §4, §9): `GET …/family-user/
 * trans-to-other-member-qr-code` (§7 Q) — the current one again while it has a few minutes left, or with `refresh`
 * a new one (so a visit does not add an entry to "my shares"). Administrator only (spec §6).
 */
export async function getFamilyShareCode(
  familyId: string,
  signal?: AbortSignal,
  refresh = false,
): Promise<ReceivedShareCode> {
  const result = await api(endpoints.getShareCode, { query: refresh ? { familyId, refresh } : { familyId }, signal });
  return { ...result, receivedAt: Date.now() };
}

/**
 * Query options of {@link getFamilyShareCode}: a code is fetched once per visit and only replaced by the refresh
 * button (never in the background, which would swap the QR code under a scanning phone). `generation` counts the
 * refresh taps: 0 asks for the current code, each later one for a new code while the previous one stays shown.
 */
export function getFamilyShareCodeQueryOptions(familyId: string | null | undefined, generation = 0) {
  return queryOptions({
    queryKey: [...familyKeys.shareCode(familyId ?? ""), generation],
    queryFn: ({ signal }) => getFamilyShareCode(familyId ?? "", signal, generation > 0),
    placeholderData: keepPreviousData,
    enabled: Boolean(familyId),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    retry: false,
  });
}

/** A family's share code as a query (FamilyQrcode); `queryConfig` adds per-use options ({@link QueryConfig}). */
export function useFamilyShareCode(
  familyId: string | null | undefined,
  generation = 0,
  queryConfig?: QueryConfig<typeof getFamilyShareCodeQueryOptions>,
) {
  return useQuery({ ...getFamilyShareCodeQueryOptions(familyId, generation), ...queryConfig });
}
