/**
 * The device-model module's public face (issue 13, decision 40): what the rest of the server may use of
 * it. Everything else in this folder is the module's own.
 */
export { deviceModelRoutes } from "./routes.ts";
export { findDeviceModel } from "./service.ts";
export { modelSetting, validateDeviceSettings } from "./settings.ts";
