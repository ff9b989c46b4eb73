import { endpoints, type TFamilyDevice } from "@aquapilot/contract/wire";
import { useMutation } from "@tanstack/react-query";
import { api } from "../../../shared/api/client.ts";
import { useInvalidateDevices } from "./invalidate-devices.ts";

/**
 * Changes a device's image (DeviceImage) to one of its model's images: `POST
 * /api/run-lucky/device/app/device/update-device-image?deviceId=&image=` (spec §7; `image` a relative path).
 * Resolves the updated list entry. Errors: ApiError from the client.
 */
export async function updateDeviceImage(deviceId: string, image: string): Promise<TFamilyDevice> {
  return api(endpoints.updateDeviceImage, { query: { deviceId, image }, loading: true });
}

/** {@link updateDeviceImage} as a mutation that refreshes device queries. */
export function useUpdateDeviceImage() {
  const invalidate = useInvalidateDevices();
  return useMutation({
    mutationFn: (v: { deviceId: string; image: string }) => updateDeviceImage(v.deviceId, v.image),
    onSuccess: invalidate,
  });
}
