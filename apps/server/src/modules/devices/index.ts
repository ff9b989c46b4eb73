/**
 * The devices module's public face (issue 13, decision 40): what the rest of the server may use of
 * it. Everything else in this folder is the module's own.
 */
export { factoryRoutes } from "./factory-route.ts";
export { deviceMessages } from "./messages.ts";
export { provisionDevice } from "./provision.ts";
export { deviceRoutes } from "./routes.ts";
export type { FamilyDeviceRow } from "./service.ts";
export { familyDeviceQuery, getDeviceWithData, stateMessage, toFamilyDevice } from "./service.ts";
