/**
 * The device-control module's public face (issue 13, decision 40): what the rest of the server may use of
 * it. Everything else in this folder is the module's own.
 */
export { deviceControlMessages } from "./messages.ts";
export { deviceControlRoutes } from "./routes.ts";
export { queryOtaVersion, readDeviceRow, runCommand } from "./service.ts";
