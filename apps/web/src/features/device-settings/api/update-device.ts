import { endpoints, type TFamilyDevice } from "@aquapilot/contract/wire";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../shared/api/client.ts";
import { queryKeys } from "../../../shared/api/query-keys.ts";

/**
 * Renames a device (DeviceNameUpdate): `POST /api/run-lucky/device/app/device/update-device-name?deviceId=&name=`
 * (spec §7; name 1–32 characters after trimming). Resolves the updated list entry.
 */
export async function updateDeviceName(deviceId: string, name: string): Promise<TFamilyDevice> {
  return api(endpoints.updateDeviceName, { query: { deviceId, name }, loading: true });
}

/**
 * Changes a device's image (DeviceImage) to one of its model's images: `POST
 * /api/run-lucky/device/app/device/update-device-image?deviceId=&image=` (spec §7; `image` a relative path).
 */
export async function updateDeviceImage(deviceId: string, image: string): Promise<TFamilyDevice> {
  return api(endpoints.updateDeviceImage, { query: { deviceId, image }, loading: true });
}

/** Invalidates every device and household-device query (names, images and order show in both). */
function useInvalidateDevices() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: queryKeys.deviceAll }),
      client.invalidateQueries({ queryKey: queryKeys.familyDevicesAll }),
    ]);
}

/** {@link updateDeviceName} as a mutation that refreshes device queries. */
export function useUpdateDeviceName() {
  const invalidate = useInvalidateDevices();
  return useMutation({
    mutationFn: (v: { deviceId: string; name: string }) => updateDeviceName(v.deviceId, v.name),
    onSuccess: invalidate,
  });
}

/** {@link updateDeviceImage} as a mutation that refreshes device queries. */
export function useUpdateDeviceImage() {
  const invalidate = useInvalidateDevices();
  return useMutation({
    mutationFn: (v: { deviceId: string; image: string }) => updateDeviceImage(v.deviceId, v.image),
    onSuccess: invalidate,
  });
}

/**
 * Unbinds a device from its household (administrator only; spec §6): `DELETE
 * /api/run-lucky/device/app/family-device/delete-device?deviceId=` (spec §7). The device stays provisioned and can
 * be bound again with its pairing code.
 */
export async function deleteDevice(deviceId: string): Promise<void> {
  await api(endpoints.deleteDevice, { query: { deviceId }, loading: true });
}

/** {@link deleteDevice} as a mutation that refreshes device queries. */
export function useDeleteDevice() {
  const invalidate = useInvalidateDevices();
  return useMutation({ mutationFn: (deviceId: string) => deleteDevice(deviceId), onSuccess: invalidate });
}
