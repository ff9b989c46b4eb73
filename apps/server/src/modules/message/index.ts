/**
 * The message module's public face: what the rest of the server may use of it, and the only file
 * of this folder that code outside it may import (npm run lint:boundaries). Everything else here is the module's own.
 */
export { MessageCenter } from "./center.ts";
export { insertSourceMessages } from "./delivery.ts";
export {
  noticeAdministratorTransferred,
  noticeFamilyDeleted,
  noticeMemberRemoved,
} from "./family-notices.ts";
export { messageMessages } from "./messages.ts";
export { asLanguage, catalogueTexts } from "./presenter.ts";
export { forwardMessagesToHub, messageModule } from "./routes.ts";
export { MESSAGE_EVENT_TYPES } from "./rules.ts";
