/**
 * The activation module's public face (issue 13, decision 40): what the rest of the server may use of
 * it. Everything else in this folder is the module's own.
 */
export { ACTIVATION_KEY_FILE } from "./nonce.ts";
export { consumeActivation, findUsableActivation, revokeUnusedActivations } from "./queries.ts";
export { activationRoutes } from "./routes.ts";
export { deviceBrokerUrl } from "./service.ts";
