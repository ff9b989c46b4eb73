/**
 * The family module's public face: what the rest of the server may use of it, and the only file
 * of this folder that code outside it may import (npm run lint:boundaries). Everything else here is the module's own.
 */
export { familyMessages } from "./messages.ts";
export { familyModule } from "./routes.ts";
export { type FamilyDeps, familyCountColumns } from "./service.ts";
