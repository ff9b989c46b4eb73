import { endpoints, type TFamilyDevice } from "@aquapilot/contract/wire";
import { useMutation } from "@tanstack/react-query";
import { api } from "../../../shared/api/client.ts";
import { useInvalidateDevices } from "./invalidate-devices.ts";

/**
 * Renames a device (DeviceNameUpdate): `POST /api/run-lucky/device/app/device/update-device-name?deviceId=&name=`
 * (spec §7; name 1–32 characters after trimming). Resolves the updated list entry. Errors: ApiError from the client.
 */
export async function updateDeviceName(deviceId: string, name: string): Promise<TFamilyDevice> {
  return api(endpoints.updateDeviceName, { query: { deviceId, name }, loading: true });
}

/** {@link updateDeviceName} as a mutation that refreshes device queries. */
export function useUpdateDeviceName() {
  const invalidate = useInvalidateDevices();
  return useMutation({
    mutationFn: (v: { deviceId: string; name: string }) => updateDeviceName(v.deviceId, v.name),
    onSuccess: invalidate,
  });
}
