/**
 * The activation module's public face: what the rest of the server may use of it, and the only file
 * of this folder that code outside it may import (npm run lint:boundaries). Everything else here is the module's own.
 */
export { ACTIVATION_KEY_FILE } from "./nonce.ts";
export { consumeActivation, findUsableActivation, revokeUnusedActivations } from "./queries.ts";
export { type ActivationOptions, activationModule } from "./routes.ts";
export { deviceBrokerUrl } from "./service.ts";
export { SETUP_TICKET_LIMITS, setupTicketsModule } from "./setup-ticket-routes.ts";
