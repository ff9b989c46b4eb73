/**
 * Query keys of the device-settings screens. They start with the API group of spec §7 ("device", "family",
 * "family-device"), so `queryKeys.deviceAll` / `familyDevicesAll` invalidate them with everything else of that group.
 */
export const deviceSettingsKeys = {
  /** `GET …/device/get-device-with--data?deviceId=`. */
  device: (deviceId: string) => ["device", "get-device-with--data", deviceId] as const,
  /** `GET …/device-lookup/get-device-model-setting?deviceId=`. */
  modelSetting: (deviceId: string) => ["device", "get-device-model-setting", deviceId] as const,
  /** `GET …/device-model/get-images-by-device-mac?mac=`. */
  modelImages: (mac: string) => ["device", "get-images-by-device-mac", mac] as const,
};
