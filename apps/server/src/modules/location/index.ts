/**
 * The location module's public face: what the rest of the server may use of it, and the only file
 * of this folder that code outside it may import (npm run lint:boundaries). Everything else here is the module's own.
 */
export { locationModule } from "./routes.ts";
export { localizeAddress } from "./service.ts";
