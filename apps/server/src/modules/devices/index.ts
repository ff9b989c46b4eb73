/**
 * The devices module's public face: what the rest of the server may use of it, and the only file
 * of this folder that code outside it may import (npm run lint:boundaries). Everything else here is the module's own.
 */
export { deviceMessages } from "./messages.ts";
export { FACTORY_SECRET_MIN_LENGTH, provisionDevice } from "./provision.ts";
export { devicesModule } from "./routes.ts";
export type { FamilyDeviceRow } from "./service.ts";
export { familyDeviceQuery, getDeviceWithData, stateMessage, toFamilyDevice } from "./service.ts";
