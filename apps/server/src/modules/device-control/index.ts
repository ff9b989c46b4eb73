/**
 * The device-control module's public face: what the rest of the server may use of it, and the only file
 * of this folder that code outside it may import (npm run lint:boundaries). Everything else here is the module's own.
 */
export { deviceControlMessages } from "./messages.ts";
export { deviceControlModule } from "./routes.ts";
export { queryOtaVersion, readDeviceRow, runCommand } from "./service.ts";
