/**
 * The files module's public face: what the rest of the server may use of it, and the only file
 * of this folder that code outside it may import (npm run lint:boundaries). Everything else here is the module's own.
 */
export { filesMessages } from "./messages.ts";
export { filesModule } from "./routes.ts";
export {
  type ImageExtension,
  isUploadPath,
  requireOwnUploads,
  requireUploadAllowance,
  sniffImage,
  storeUpload,
  UPLOADS_PREFIX,
  uploadsDir,
} from "./service.ts";
