/**
 * The article module's public face (issue 13, decision 40): what the rest of the server may use of
 * it. Everything else in this folder is the module's own.
 */
export { PRIVACY_POLICY_ARTICLE_ID, USER_AGREEMENT_ARTICLE_ID } from "./ids.ts";
export { articleMessages } from "./messages.ts";
export { articleRoutes } from "./routes.ts";
