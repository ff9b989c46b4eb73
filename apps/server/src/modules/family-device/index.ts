/**
 * The family-device module's public face (issue 13, decision 40): what the rest of the server may use of
 * it. Everything else in this folder is the module's own.
 */
export { familyDeviceRoutes } from "./routes.ts";
