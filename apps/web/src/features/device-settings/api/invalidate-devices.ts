import { useQueryClient } from "@tanstack/react-query";
import { queryKeys } from "../../../shared/api/query-keys.ts";

/**
 * A function that invalidates every device and household-device query (names, images and order show in both); the
 * device mutations of this feature run it on success.
 */
export function useInvalidateDevices(): () => Promise<unknown> {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: queryKeys.deviceAll }),
      client.invalidateQueries({ queryKey: queryKeys.familyDevicesAll }),
    ]);
}
