/**
 * The advanced-settings validator and table, re-exported where the device-control module looks for them
 * (implementation: modules/device-model/settings.ts; table: data/device-model-settings.json).
 */
export { modelSetting, validateDeviceSettings } from "../device-model/index.ts";
