/**
 * The push module's public face (issue 13, decision 40): what the rest of the server may use of
 * it. Everything else in this folder is the module's own.
 */
export { pushMessages } from "./messages.ts";
export { pushRoutes } from "./routes.ts";
export { createPushService, type PushService } from "./service.ts";
