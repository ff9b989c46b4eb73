/**
 * The after-sale module's public face: what the rest of the server may use of it, and the only file
 * of this folder that code outside it may import (npm run lint:boundaries). Everything else here is the module's own.
 */
export { afterSaleMessages } from "./messages.ts";
export { afterSaleModule } from "./routes.ts";
export { handleAfterSale, listAfterSalesForService, type ServiceAfterSale } from "./service.ts";
