/**
 * The family module's public face (issue 13, decision 40): what the rest of the server may use of
 * it. Everything else in this folder is the module's own.
 */
export { familyMessages } from "./messages.ts";
export { familyRoutes } from "./routes.ts";
export { type FamilyDeps, familyCountColumns } from "./service.ts";
