/**
 * The push module's public face: what the rest of the server may use of it, and the only file
 * of this folder that code outside it may import (npm run lint:boundaries). Everything else here is the module's own.
 */
export { pushMessages } from "./messages.ts";
export { pushModule } from "./routes.ts";
export { createPushService, type PushService } from "./service.ts";
