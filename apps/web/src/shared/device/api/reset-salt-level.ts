import { endpoints, type TSaltStatus } from "@aquapilot/contract/wire";
import { api } from "../../api/client.ts";

/**
 * `POST …/device-control/reset-salt-level?deviceId&levelKg`: the owner refilled the brine tank
 * to `levelKg` kg (0–1000). Resolves with the new salt status. Errors: ApiError from the client (e.g. 404 when the
 * device is not in a household of the caller, as for an unknown one).
 */
export function resetSaltLevel(deviceId: string, levelKg: number): Promise<TSaltStatus> {
  return api(endpoints.resetSaltLevel, { query: { deviceId, levelKg } });
}
