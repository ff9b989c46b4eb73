import { endpoints } from "@aquapilot/contract/wire";
import { useMutation } from "@tanstack/react-query";
import { api } from "../../../shared/api/client.ts";
import { useInvalidateDevices } from "./invalidate-devices.ts";

/**
 * Unbinds a device from its household (administrator only; spec §6): `DELETE
 * /api/run-lucky/device/app/family-device/delete-device?deviceId=` (spec §7). The device stays provisioned and can
 * be bound again with its pairing code. Errors: ApiError from the client (403 when not the administrator).
 */
export async function deleteDevice(deviceId: string): Promise<void> {
  await api(endpoints.deleteDevice, { query: { deviceId }, loading: true });
}

/** {@link deleteDevice} as a mutation that refreshes device queries. */
export function useDeleteDevice() {
  const invalidate = useInvalidateDevices();
  return useMutation({ mutationFn: (deviceId: string) => deleteDevice(deviceId), onSuccess: invalidate });
}
