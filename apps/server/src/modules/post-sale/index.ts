/**
 * The post-sale module's public face (issue 13, decision 40): what the rest of the server may use of
 * it. Everything else in this folder is the module's own.
 */
export { postSaleMessages } from "./messages.ts";
export { postSaleRoutes } from "./routes.ts";
export { handleAfterSale, listAfterSalesForService, type ServiceAfterSale } from "./service.ts";
