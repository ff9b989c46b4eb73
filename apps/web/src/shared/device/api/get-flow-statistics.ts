import { endpoints, type TFlowStatisticsCsvQuery } from "@aquapilot/contract/wire";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../api/client.ts";
import type { QueryConfig } from "../../api/query-config.ts";
import { deviceKeys } from "./keys.ts";

/** One bucket of water-usage statistics: start (ISO), water used L, regenerations, salt used kg. */
export interface FlowPoint {
  time: string;
  waterL: number;
  regenerations: number;
  saltKg: number;
}

/** Water-usage statistics of one report time type, ready for the charts. */
export interface FlowStatistics {
  points: FlowPoint[];
  totalWaterL: number;
  totalRegenerations: number;
  totalSaltKg: number;
  /** Hourly buckets (day view) or daily ones. */
  hourly: boolean;
  /** Query of the CSV export of the same period (hourly rows). */
  csvQuery: TFlowStatisticsCsvQuery;
  lastReportTime: string | null;
}

/**
 * `POST …/device/device-flow-statistics` with `{deviceId, reportTimeType}` (1 month, 2 week, 3 day; spec §3),
 * read into {@link FlowStatistics} with the CSV export path of the same period. Errors: ApiError from the client.
 */
export async function getFlowStatistics(
  deviceId: string,
  reportTimeType: number,
  signal?: AbortSignal,
): Promise<FlowStatistics> {
  const r = await api(endpoints.deviceFlowStatistics, { body: { deviceId, reportTimeType }, signal });
  return {
    points: r.buckets.map((b) => ({
      time: b.start,
      waterL: b.waterL,
      regenerations: b.regenerations,
      saltKg: b.saltKg,
    })),
    totalWaterL: r.totals.waterL,
    totalRegenerations: r.totals.regenerations,
    totalSaltKg: r.totals.saltKg,
    hourly: r.bucket === "hour",
    csvQuery: { deviceId, from: r.from, to: r.to, granularity: "hourly" },
    lastReportTime: r.lastReportTime,
  };
}

/** Query options of the statistics of one report time type (a minute fresh). */
export function getFlowStatisticsQueryOptions(deviceId: string, reportTimeType: number) {
  return queryOptions({
    queryKey: deviceKeys.stats(deviceId, reportTimeType),
    queryFn: ({ signal }) => getFlowStatistics(deviceId, reportTimeType, signal),
    enabled: Boolean(deviceId),
    staleTime: 60_000,
  });
}

/** The statistics of one report time type as a query; `queryConfig` adds per-use options ({@link QueryConfig}). */
export function useFlowStatistics(
  deviceId: string,
  reportTimeType: number,
  queryConfig?: QueryConfig<typeof getFlowStatisticsQueryOptions>,
) {
  return useQuery({ ...getFlowStatisticsQueryOptions(deviceId, reportTimeType), ...queryConfig });
}
