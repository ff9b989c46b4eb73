/**
 * The message module's public face (issue 13, decision 40): what the rest of the server may use of
 * it. Everything else in this folder is the module's own.
 */
export { MessageCenter } from "./center.ts";
export { insertSourceMessages } from "./delivery.ts";
export {
  noticeAdministratorTransferred,
  noticeHouseholdDeleted,
  noticeMemberRemoved,
} from "./household-notices.ts";
export { messageMessages } from "./messages.ts";
export { asLanguage, catalogueTexts } from "./presenter.ts";
export { forwardMessagesToHub, messageRoutes } from "./routes.ts";
export { MESSAGE_EVENT_TYPES } from "./rules.ts";
