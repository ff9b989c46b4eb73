import { endpoints, type TOtaVersion } from "@aquapilot/contract/wire";
import { api } from "../../api/client.ts";

/**
 * `POST …/device-control/query-ota-version?deviceId`: current and offered firmware, and a running update. `loading`
 * (default true) counts the call in the loading indicator. Errors: ApiError from the client.
 */
export function getOtaVersion(deviceId: string, loading = true): Promise<TOtaVersion> {
  return api(endpoints.queryOtaVersion, { query: { deviceId }, loading });
}
