import { endpoints, type TCommandStatus } from "@aquapilot/contract/wire";
import { api } from "../../api/client.ts";

/**
 * `GET …/device-control/get-command-status?commandId`: the stored outcome of one command (the polling fallback when
 * the hub-1 acknowledgement is missed). Errors: ApiError from the client.
 */
export function getCommandStatus(commandId: string): Promise<TCommandStatus> {
  return api(endpoints.getCommandStatus, { query: { commandId } });
}
