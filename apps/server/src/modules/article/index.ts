/**
 * The article module's public face: what the rest of the server may use of it, and the only file
 * of this folder that code outside it may import (npm run lint:boundaries). Everything else here is the module's own.
 */
export { PRIVACY_POLICY_ARTICLE_ID, USER_AGREEMENT_ARTICLE_ID } from "./ids.ts";
export { articleMessages } from "./messages.ts";
export { articleModule } from "./routes.ts";
