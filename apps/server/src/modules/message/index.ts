/**
 * The message module's public face (issue 13, decision 40): what the rest of the server may use of
 * it. Everything else in this folder is the module's own.
 */
export { asLanguage, catalogueTexts, insertSourceMessages, MESSAGE_EVENT_TYPES, MessageCenter } from "./center.ts";
export { messageMessages } from "./messages.ts";
export { forwardMessagesToHub, messageRoutes } from "./routes.ts";
